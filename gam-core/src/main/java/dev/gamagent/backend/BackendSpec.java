package dev.gamagent.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How to build a backend from flags or config: kind ({@code local|openai|ollama|gemini|anthropic|replay}),
 * endpoints (several = load-balanced replicas), model, the name of the environment variable holding the
 * API key (keys themselves never pass through flags, traces or logs), timeouts and retries, and optional
 * recording / replay files.
 */
public record BackendSpec(String kind, List<String> baseUrls, String model, String apiKeyEnv, Duration timeout,
                          int maxRetries, int maxConcurrent, Path record, Path replay, String imageTokenFamily) {
    public BackendSpec {
        kind = kind == null ? "local" : kind.strip().toLowerCase(java.util.Locale.ROOT);
        baseUrls = baseUrls == null ? List.of() : List.copyOf(baseUrls);
        if (timeout == null) timeout = Duration.ofSeconds(120);
        if (maxRetries < 0) maxRetries = 0;
        if (maxConcurrent <= 0) maxConcurrent = 8;
    }

    public static BackendSpec local() {
        return new BackendSpec("local", List.of(), "gam-local", null, null, 0, 8, null, null, null);
    }
}
