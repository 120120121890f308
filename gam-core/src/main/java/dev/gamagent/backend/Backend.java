package dev.gamagent.backend;

/**
 * Something that answers a chat request with images: text, per-token log-probabilities when the server
 * gives them, token usage, latency. Retries, rate limits, recording and load balancing are wrappers
 * around this one interface (see {@code ResilientBackend}, {@code RecordingBackend}, ...).
 */
public interface Backend extends AutoCloseable {
    /** A short name for traces and logs, e.g. {@code openai:Qwen/Qwen2.5-VL-7B-Instruct}. Never contains keys. */
    String name();

    /** What this backend can give; may be refined after a capability probe. */
    Capabilities capabilities();

    /**
     * Answers one request.
     *
     * @throws BackendException typed by cause: rate limited, server unavailable, invalid request, timeout,
     *                          connection failed, malformed response
     */
    ChatResult chat(ChatRequest request) throws BackendException;

    /**
     * A view of this backend with caches of its own (same models and connections), so that in one evaluation no
     * method is timed on another's cached work (issue 15, fair per-method wall time). Closing the view leaves this
     * backend open. Backends without caches return themselves.
     */
    default Backend withOwnCaches() { return this; }

    @Override
    default void close() { }
}
