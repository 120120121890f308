package dev.gamagent.backend;

import java.time.Duration;

/**
 * A typed backend failure. {@link #retryable()} says whether the resilience wrapper may try again.
 * Messages name the endpoint and never contain API keys.
 */
public abstract sealed class BackendException extends RuntimeException
        permits BackendException.RetryLater, BackendException.Refused, BackendException.Timeout,
        BackendException.ConnectionFailed, BackendException.MalformedResponse, BackendException.ReplyTooLarge {

    protected BackendException(String message, Throwable cause) { super(message, cause); }

    public abstract boolean retryable();

    /** An HTTP status the server may lift later: the status and its {@code Retry-After} (or null); retried. */
    public abstract static sealed class RetryLater extends BackendException permits RateLimited, ServerUnavailable {
        private final int status;
        private final Duration retryAfter;
        private RetryLater(String message, int status, Duration retryAfter) { super(message, null); this.status = status; this.retryAfter = retryAfter; }
        public int status() { return status; }
        public Duration retryAfter() { return retryAfter; }
        @Override public boolean retryable() { return true; }
    }

    /** HTTP 429 (and 408/409 which servers use for overload); {@code retryAfter} from the header, or null. */
    public static final class RateLimited extends RetryLater {
        public RateLimited(String message, int status, Duration retryAfter) { super(message, status, retryAfter); }
    }

    /** HTTP 5xx. */
    public static final class ServerUnavailable extends RetryLater {
        public ServerUnavailable(String message, int status, Duration retryAfter) { super(message, status, retryAfter); }
    }

    /** An HTTP status that refuses this request for good: retrying the same request cannot help. */
    public abstract static sealed class Refused extends BackendException permits InvalidRequest, Unauthorized {
        private final int status;
        private Refused(String message, int status) { super(message, null); this.status = status; }
        public int status() { return status; }
        @Override public boolean retryable() { return false; }
    }

    /** HTTP 400/404/422...: our request was refused; {@code body} is what the server said about it. */
    public static final class InvalidRequest extends Refused {
        private final String body;
        public InvalidRequest(String message, int status, String body) { super(message, status); this.body = body; }
        public String body() { return body; }
    }

    /** HTTP 401/403. */
    public static final class Unauthorized extends Refused {
        public Unauthorized(String message, int status) { super(message, status); }
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
