package dev.gamagent.backend.openai;

import java.util.Locale;

/**
 * A chat-completions request body that does not follow the wire format: the message starts with the field at fault
 * ({@code messages[2].content[1].image_url.url: ...}) and says what to send instead.
 */
public final class WireFormatException extends IllegalArgumentException {
    /** What is wrong, as a stable code a server can answer with. */
    public enum Problem {
        /** Not JSON, or not a JSON object. */
        INVALID_JSON,
        /** No {@code messages}, or an empty array. */
        MISSING_MESSAGES,
        /** A message that is not an object, or whose {@code role} or {@code content} has the wrong shape. */
        INVALID_CONTENT,
        /** A content part of a type the receivers do not read. */
        UNSUPPORTED_CONTENT,
        /** An image part without a URL. */
        MISSING_IMAGE_URL,
        /** A sampling field ({@code n}, {@code max_tokens}, ...) of the wrong type or out of range. */
        INVALID_FIELD;

        /** The code as an API error names it ({@code missing_image_url}). */
        public String code() { return name().toLowerCase(Locale.ROOT); }
    }

    private final Problem problem;

    WireFormatException(Problem problem, String message) {
        super(message);
        this.problem = problem;
    }

    public Problem problem() { return problem; }
}
