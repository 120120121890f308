package dev.gamagent.backend;

/** Prompt and completion tokens; {@code estimated} when any part was not reported by a server. */
public record TokenCount(long prompt, long completion, boolean estimated) {
    public static final TokenCount ZERO = new TokenCount(0, 0, false);

    public TokenCount plus(TokenCount o) {
        if (o == null) return this;
        return new TokenCount(prompt + o.prompt, completion + o.completion, estimated || o.estimated);
    }

    public long total() { return prompt + completion; }
}
