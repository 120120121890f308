package dev.gamagent.server;

/**
 * A request the server refuses, with the HTTP status and an OpenAI-style error body
 * ({@code {"error": {"message", "type", "code"}}}).
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String type;
    private final String code;
    private final Integer retryAfterSeconds;

    public ApiError(int status, String type, String code, String message) {
        this(status, type, code, message, null);
    }

    public ApiError(int status, String type, String code, String message, Integer retryAfterSeconds) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiError badRequest(String code, String message) {
        return new ApiError(400, "invalid_request_error", code, message);
    }

    public int status() { return status; }

    public String type() { return type; }

    public String code() { return code; }

    public Integer retryAfterSeconds() { return retryAfterSeconds; }
}
