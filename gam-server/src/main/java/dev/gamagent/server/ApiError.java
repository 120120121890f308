package dev.gamagent.server;

/**
 * A request the server refuses, with the HTTP status and an OpenAI-style error body
 * ({@code {"error": {"message", "type", "code"}}}, and {@code param} when the error is about one request field).
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String type;
    private final String code;
    private final Integer retryAfterSeconds;
    private final String param;

    public ApiError(int status, String type, String code, String message) {
        this(status, type, code, message, null);
    }

    public ApiError(int status, String type, String code, String message, Integer retryAfterSeconds) {
        this(status, type, code, message, retryAfterSeconds, null);
    }

    private ApiError(int status, String type, String code, String message, Integer retryAfterSeconds, String param) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
        this.param = param;
    }

    /** A 400 about one request parameter the server cannot honour; the message starts with the parameter's name. */
    public static ApiError unsupportedParameter(String param, String message) {
        return new ApiError(400, "invalid_request_error", "unsupported_parameter", param + ": " + message, null, param);
    }

    public static ApiError badRequest(String code, String message) {
        return new ApiError(400, "invalid_request_error", code, message);
    }

    /**
     * 503 for a request during which the heap ran out: the request is let go (what it held is garbage) and the server
     * goes on. Built from constants and one number, so it can still be made when little memory is left.
     */
    public static ApiError outOfMemory(int retryAfterSeconds) {
        return new ApiError(503, "server_error", "server_out_of_memory", "the server ran out of memory while answering this request "
                + "(a heap of " + (Runtime.getRuntime().maxMemory() >> 20) + " MB); the request was let go and the server goes on. Retry in "
                + retryAfterSeconds + " s, send smaller images, or give the server a larger heap (GAM_JAVA_OPTS=-Xmx...)", retryAfterSeconds);
    }

    public int status() { return status; }

    public String type() { return type; }

    public String code() { return code; }

    public Integer retryAfterSeconds() { return retryAfterSeconds; }

    /** The request field the error is about (OpenAI's {@code param}), or null. */
    public String param() { return param; }
}
