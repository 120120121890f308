package dev.gamagent.testing.http;

import dev.gamagent.backend.TokenLogprob;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link WireServer} answers, independent of wire format: a generated answer (each server renders
 * it in its own format), an HTTP error, a raw body, a truncated body, a delay, or a dropped connection.
 */
public sealed interface Reply {
    /**
     * A generated answer; {@code tokens} are rendered as log-probs when the request asked for them. {@code promptTokens}
     * are all the prompt's tokens; of them {@code cachedPromptTokens} were read from the server's prefix cache (null: the
     * server reports no such count) and {@code cacheWrittenTokens} computed and written to it (Anthropic reports these
     * apart; the other formats count them as prompt tokens only).
     */
    record Answer(List<Generated> choices, boolean logprobs, boolean usage, boolean nullBytes, long promptTokens,
                  Long cachedPromptTokens, long cacheWrittenTokens) implements Reply {
        public Answer withoutLogprobs() { return new Answer(choices, false, usage, nullBytes, promptTokens, cachedPromptTokens, cacheWrittenTokens); }
        public Answer withoutUsage() { return new Answer(choices, logprobs, false, nullBytes, promptTokens, cachedPromptTokens, cacheWrittenTokens); }
        /** OpenAI-style {@code bytes: null} on every token and alternative. */
        public Answer withNullBytes() { return new Answer(choices, logprobs, usage, true, promptTokens, cachedPromptTokens, cacheWrittenTokens); }
        public Answer withPromptTokens(long p) { return new Answer(choices, logprobs, usage, nullBytes, p, cachedPromptTokens, cacheWrittenTokens); }
        /** {@code cached} of the prompt's tokens read from the cache and {@code written} written to it. */
        public Answer withCache(long cached, long written) { return new Answer(choices, logprobs, usage, nullBytes, promptTokens, cached, written); }

        /** The prompt tokens computed, not read from the cache (those written to the cache included). */
        public long uncachedPromptTokens() { return promptTokens - (cachedPromptTokens == null ? 0 : cachedPromptTokens); }
    }

    /** One generated alternative; {@code tokens} concatenate to {@code text} for well-behaved servers. */
    record Generated(String text, List<TokenLogprob> tokens) { }

    /** A non-2xx status with a body and headers (e.g. Retry-After). */
    record Status(int status, String body, Map<String, String> headers) implements Reply {
        public Status header(String name, String value) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.put(name, value);
            return new Status(status, body, h);
        }
    }

    /** Any body with any status, sent as is (e.g. malformed JSON with 200). */
    record Raw(int status, String contentType, String body) implements Reply { }

    /** Headers promise {@code body.length + missingBytes} bytes; the connection closes after {@code body}. */
    record Truncated(String body, int missingBytes) implements Reply { }

    /** Headers promise {@code body.length + missingBytes} bytes; after {@code body} the connection is reset (TCP RST). */
    record Reset(String body, int missingBytes) implements Reply { }

    /** Waits, then answers with {@code then}. */
    record Delayed(Duration delay, Reply then) implements Reply { }

    /** Closes the connection without answering. */
    record Drop() implements Reply { }

    static Answer answer(String text, List<TokenLogprob> tokens) {
        return new Answer(List.of(new Generated(text, tokens)), true, true, false, 321, null, 0);
    }

    /** An answer whose single token is {@code text}, certain (log-prob 0), without alternatives. */
    static Answer answer(String text) {
        return answer(text, List.of(new TokenLogprob(text, 0.0, List.of(new TokenLogprob.Alternative(text, 0.0)))));
    }

    static Answer choices(Generated... gs) { return new Answer(List.of(gs), true, true, false, 321, null, 0); }

    static Status status(int status, String body) { return new Status(status, body, Map.of()); }

    static Raw raw(int status, String body) { return new Raw(status, "application/json", body); }

    static Truncated truncated(String body, int missingBytes) { return new Truncated(body, missingBytes); }

    static Reset reset(String body, int missingBytes) { return new Reset(body, missingBytes); }

    static Delayed delayed(Duration d, Reply then) { return new Delayed(d, then); }

    static Drop drop() { return new Drop(); }
}
