package dev.gamagent.backend;


/** Token usage of one call; {@code estimated} when the server reported none and we counted ourselves. */
public record Usage(long promptTokens, long completionTokens, boolean estimated) {
    public TokenCount toTokenCount() { return new TokenCount(promptTokens, completionTokens, estimated); }
}
