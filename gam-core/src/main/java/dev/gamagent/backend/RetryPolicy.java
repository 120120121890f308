package dev.gamagent.backend;

import java.time.Duration;

/**
 * How {@link ResilientBackend} retries: up to {@code maxRetries} retries with exponential backoff and
 * full jitter (wait = uniform(0, min(maxDelay, baseDelay·2^attempt))), or the server's Retry-After
 * capped at {@code maxRetryAfter}.
 */
record RetryPolicy(int maxRetries, Duration baseDelay, Duration maxDelay, Duration maxRetryAfter) {
    public RetryPolicy {
        if (maxRetries < 0) maxRetries = 0;
        if (baseDelay == null || baseDelay.isNegative()) baseDelay = Duration.ofMillis(500);
        if (maxDelay == null || maxDelay.compareTo(baseDelay) < 0) maxDelay = baseDelay.multipliedBy(64);
        if (maxRetryAfter == null || maxRetryAfter.isNegative()) maxRetryAfter = Duration.ofSeconds(60);
    }

    public static RetryPolicy defaults(int maxRetries) {
        return new RetryPolicy(maxRetries, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(60));
    }

    /** The wait before retry number {@code retry} (1-based); {@code jitter} is uniform in [0, 1). */
    public Duration delay(int retry, Duration retryAfter, double jitter) {
        if (retryAfter != null) return retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter;
        double ceiling = Math.min(maxDelay.toMillis(), baseDelay.toMillis() * Math.pow(2, retry - 1));
        return Duration.ofMillis((long) (ceiling * jitter));
    }
}
