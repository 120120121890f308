package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How the server writes a response: JSON bodies scrubbed of the process's secrets, errors in OpenAI's
 * {@code {"error": {...}}} shape, and the web page's files; each returns the status it sent.
 */
final class Replies {
    private final SecretScrubber secrets;

    Replies(SecretScrubber secrets) { this.secrets = secrets; }

    int json(Exchange ex, int status, JsonNode body) throws IOException {
        return send(ex, status, "application/json; charset=utf-8", Json.write(secrets.scrub(body)).getBytes(StandardCharsets.UTF_8));
    }

    static int send(Exchange ex, int status, String contentType, byte[] body) throws IOException {
        ex.setHeader("Content-Type", contentType);
        ex.sendHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.output()) {
                out.write(body);
            }
        }
        return status;
    }

    /** The OpenAI error body of {@code e}, its message scrubbed. */
    ChatCompletionReply.ErrorReply errorReply(ApiError e) {
        return new ChatCompletionReply.ErrorReply(new ChatCompletionReply.ErrorDetail(secrets.scrub(e.getMessage()), e.type(), e.code(), e.param()));
    }

    int error(Exchange ex, ApiError e) {
        try {
            if (e.retryAfterSeconds() != null) ex.setHeader("Retry-After", Integer.toString(e.retryAfterSeconds()));
            return json(ex, e.status(), ChatCompletionWriter.tree(errorReply(e)));
        } catch (IOException | RuntimeException io) {
            return e.status(); // headers were already sent (a stream broke); nothing more to tell the client
        }
    }

    /** One of the web page's files ({@code /web/NAME} on the class path), under a content security policy. */
    static int resource(Exchange ex, String name) throws IOException {
        if (!name.matches("[A-Za-z0-9_-]+\\.(html|js|css|svg)")) throw new ApiError(404, "invalid_request_error", "not_found", "no file " + name);
        try (InputStream in = Replies.class.getResourceAsStream("/web/" + name)) {
            if (in == null) throw new ApiError(404, "invalid_request_error", "not_found", "no file " + name);
            String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
                    : name.endsWith(".css") ? "text/css; charset=utf-8" : "image/svg+xml";
            ex.setHeader("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'");
            return send(ex, 200, type, in.readAllBytes());
        }
    }
}
