package dev.gamagent.server;


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body within the server's limits: at most {@code server.max_body_mb} (refused unread when
 * Content-Length says more) and within {@code server.read_timeout_s} in all.
 */
final class RequestBody {
    private RequestBody() { }

    static byte[] read(Exchange ex, ServerSettings settings) {
        // a client trickling its body in holds a thread: give it server.read_timeout_s in all; when a body is
        // refused unread, the connection is closed rather than drained
        ex.setHeader("Connection", "close");
        long limit = settings.maxBodyBytes();
        String cl = ex.header("Content-Length");
        if (cl != null) {
            try {
                if (Long.parseLong(cl.strip()) > limit) throw tooLarge(limit);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("invalid_content_length", "Content-Length '" + cl + "' is not a number");
            }
        }
        long deadline = System.nanoTime() + settings.bodyTimeout().toNanos();
        try (InputStream in = ex.body()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                if (out.size() > limit) throw tooLarge(limit);
                if (System.nanoTime() > deadline) {
                    throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body took longer than "
                            + settings.bodyTimeout().toSeconds() + " s to arrive (config server.read_timeout_s)");
                }
            }
            ex.removeHeader("Connection");
            return out.toByteArray();
        } catch (IOException e) {
            // Jetty's idle timeout ended a body that stopped arriving, or the client went away
            throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body stopped arriving before its end ("
                    + e.getMessage() + "; config server.idle_timeout_s)");
        }
    }

    private static ApiError tooLarge(long limit) {
        return new ApiError(413, "invalid_request_error", "request_too_large", String.format(java.util.Locale.ROOT,
                "the request body is larger than the limit of %.1f MB (config server.max_body_mb)", limit / (1024.0 * 1024)));
    }
}
