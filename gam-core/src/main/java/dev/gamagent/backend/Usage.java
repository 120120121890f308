package dev.gamagent.backend;


/**
 * Token usage of one call; {@code estimated} when the server reported no prompt or completion count and we counted
 * ourselves. {@code promptTokens} are the tokens sent. {@code cachedPromptTokens} are those of them the server says it
 * read from its prefix cache instead of computing (OpenAI-compatible {@code usage.prompt_tokens_details.cached_tokens},
 * Anthropic's {@code cache_read_input_tokens}, Gemini's {@code cachedContentTokenCount}); null when the server reports
 * none, which is not 0 (docs/metrics.md, "Prompt tokens sent, cached and computed").
 */
public record Usage(long promptTokens, long completionTokens, boolean estimated, Long cachedPromptTokens) {
    /** Usage of a server that reports no cached prompt tokens. */
    public Usage(long promptTokens, long completionTokens, boolean estimated) { this(promptTokens, completionTokens, estimated, null); }

    public TokenCount toTokenCount() { return new TokenCount(promptTokens, completionTokens, estimated, cachedPromptTokens); }
}
