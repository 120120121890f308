package dev.gamagent.backend;

import java.time.Duration;

/**
 * A typed backend failure. {@link #retryable()} says whether the resilience wrapper may try again.
 * Messages name the endpoint and never contain API keys.
 */
public abstract sealed class BackendException extends RuntimeException
        permits BackendException.RateLimited, BackendException.ServerUnavailable, BackendException.InvalidRequest,
        BackendException.Timeout, BackendException.ConnectionFailed, BackendException.MalformedResponse,
        BackendException.Unauthorized, BackendException.ReplyTooLarge {

    protected BackendException(String message, Throwable cause) { super(message, cause); }

    public abstract boolean retryable();

    /** HTTP 429 (and 408/409 which servers use for overload); {@code retryAfter} from the header, or null. */
    public static final class RateLimited extends BackendException {
        private final Duration retryAfter;
        private final int status;
        public RateLimited(String message, int status, Duration retryAfter) { super(message, null); this.status = status; this.retryAfter = retryAfter; }
        public Duration retryAfter() { return retryAfter; }
        public int status() { return status; }
        @Override public boolean retryable() { return true; }
    }

    /** HTTP 5xx. */
    public static final class ServerUnavailable extends BackendException {
        private final int status;
        private final Duration retryAfter;
        public ServerUnavailable(String message, int status, Duration retryAfter) { super(message, null); this.status = status; this.retryAfter = retryAfter; }
        public int status() { return status; }
        public Duration retryAfter() { return retryAfter; }
        @Override public boolean retryable() { return true; }
    }

    /** HTTP 400/404/422...: our request was refused; retrying the same request cannot help. */
    public static final class InvalidRequest extends BackendException {
        private final int status;
        private final String body;
        public InvalidRequest(String message, int status, String body) { super(message, null); this.status = status; this.body = body; }
        public int status() { return status; }
        public String body() { return body; }
        @Override public boolean retryable() { return false; }
    }

    /** HTTP 401/403. */
    public static final class Unauthorized extends BackendException {
        private final int status;
        public Unauthorized(String message, int status) { super(message, null); this.status = status; }
        public int status() { return status; }
        @Override public boolean retryable() { return false; }
    }

    /** No complete answer within the configured time. */
    public static final class Timeout extends BackendException {
        public Timeout(String message, Throwable cause) { super(message, cause); }
        @Override public boolean retryable() { return true; }
    }

    /** Connection refused, reset or closed before a complete answer. */
    public static final class ConnectionFailed extends BackendException {
        public ConnectionFailed(String message, Throwable cause) { super(message, cause); }
        @Override public boolean retryable() { return true; }
    }

    /** The server answered 2xx but the body is not the documented shape (bad JSON, truncated, no choices). */
    public static final class MalformedResponse extends BackendException {
        public MalformedResponse(String message, Throwable cause) { super(message, cause); }
        @Override public boolean retryable() { return true; }
    }

    /**
     * The reply body passed the size cap ({@code backend.max_reply_mb}) and was cut off unread: a server streaming
     * without end, or a reply far larger than any the methods ask for. Not retried (the same request would do it again).
     */
    public static final class ReplyTooLarge extends BackendException {
        private final long limit;
        public ReplyTooLarge(String message, long limit) { super(message, null); this.limit = limit; }
        public long limit() { return limit; }
        @Override public boolean retryable() { return false; }
    }
}
