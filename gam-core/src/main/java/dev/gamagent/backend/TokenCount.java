package dev.gamagent.backend;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Prompt and completion tokens; {@code estimated} when any part was not reported by a server. {@code cached}: of the
 * prompt tokens, those the servers said they read from their prefix cache, summed over the calls that reported it; null
 * when no call's server reported it (then it is left out of a trace's JSON, so traces without it read as before). A call
 * whose server reports no cached count adds nothing to {@code cached}: its prompt counts as computed in full.
 */
public record TokenCount(long prompt, long completion, boolean estimated, @JsonInclude(JsonInclude.Include.NON_NULL) Long cached) {
    public static final TokenCount ZERO = new TokenCount(0, 0, false);

    /** A count without server-reported cached tokens. */
    public TokenCount(long prompt, long completion, boolean estimated) { this(prompt, completion, estimated, null); }

    public TokenCount plus(TokenCount o) {
        if (o == null) return this;
        return new TokenCount(prompt + o.prompt, completion + o.completion, estimated || o.estimated, sum(cached, o.cached));
    }

    /** This count without {@code o}'s tokens (a part already counted elsewhere). */
    public TokenCount minus(TokenCount o) {
        if (o == null) return this;
        Long c = cached == null ? null : o.cached == null ? cached : cached - o.cached;
        return new TokenCount(prompt - o.prompt, completion - o.completion, estimated, c);
    }

    public long total() { return prompt + completion; }

    /** The prompt tokens the servers computed (sent − cached); null when no server reported cached tokens. */
    public Long computed() { return cached == null ? null : prompt - cached; }

    /** Sum of two counts that may be unreported (null): null only when both are. */
    public static Long sum(Long a, Long b) { return a == null ? b : b == null ? a : Long.valueOf(a + b); }
}
