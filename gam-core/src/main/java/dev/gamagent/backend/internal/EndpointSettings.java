package dev.gamagent.backend.internal;

import dev.gamagent.config.Config;

import java.time.Duration;

/**
 * How to reach one server: base URL, model (null = ask the server which it serves, where the wire format
 * allows), API key (may be null for local servers), per-request timeout, the largest top-k log-probs to
 * ask for (the server's limit, 20 on OpenAI, vLLM and Ollama), the image-token family for estimates, and the
 * largest reply body read ({@code backend.max_reply_mb}; a reply past it is cut off and refused, so a server
 * that streams without end cannot fill the memory). {@link #toString()} never shows the key.
 */
public record EndpointSettings(String baseUrl, String model, String apiKey, Duration timeout, int maxTopLogprobs,
                               String imageTokenFamily, long maxReplyBytes) {
    /** {@code backend.max_top_logprobs} of defaults.json (20). */
    public static final int DEFAULT_MAX_TOP_LOGPROBS = Config.defaults().integer("backend.max_top_logprobs");
    /**
     * {@code backend.max_reply_mb} of defaults.json, 8 MiB: about seven times the largest reply a method asks for
     * (1,024 tokens with 20 log-probs each, ~1.1 MB of JSON), far below what a runaway stream would take.
     */
    public static final long DEFAULT_MAX_REPLY_BYTES = Math.round(Config.defaults().number("backend.max_reply_mb") * 1024 * 1024);

    public EndpointSettings(String baseUrl, String model, String apiKey, Duration timeout, int maxTopLogprobs, String imageTokenFamily) {
        this(baseUrl, model, apiKey, timeout, maxTopLogprobs, imageTokenFamily, DEFAULT_MAX_REPLY_BYTES);
    }

    public EndpointSettings {
        if (baseUrl == null || baseUrl.isBlank()) throw new IllegalArgumentException("a backend endpoint needs a base URL (--base-url)");
        baseUrl = baseUrl.strip();
        while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
            throw new IllegalArgumentException("--base-url " + baseUrl + " must start with http:// or https://");
        }
        if (model != null && model.isBlank()) model = null;
        if (apiKey != null && apiKey.isBlank()) apiKey = null;
        if (timeout == null || timeout.isZero() || timeout.isNegative()) timeout = Duration.ofSeconds(120);
        if (maxTopLogprobs <= 0) maxTopLogprobs = DEFAULT_MAX_TOP_LOGPROBS;
        if (maxReplyBytes <= 0) maxReplyBytes = DEFAULT_MAX_REPLY_BYTES;
    }

    public static EndpointSettings of(String baseUrl, String model) {
        return new EndpointSettings(baseUrl, model, null, null, 0, null);
    }

    public EndpointSettings withApiKey(String key) {
        return new EndpointSettings(baseUrl, model, key, timeout, maxTopLogprobs, imageTokenFamily, maxReplyBytes);
    }

    public EndpointSettings withTimeout(Duration t) {
        return new EndpointSettings(baseUrl, model, apiKey, t, maxTopLogprobs, imageTokenFamily, maxReplyBytes);
    }

    @Override public String toString() {
        return "EndpointSettings[" + baseUrl + ", model=" + model + ", key=" + (apiKey == null ? "none" : "***")
                + ", timeout=" + timeout + ", maxTopLogprobs=" + maxTopLogprobs + ", imageTokens=" + imageTokenFamily
                + ", maxReplyBytes=" + maxReplyBytes + "]";
    }
}
