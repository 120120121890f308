package dev.gamagent.server;


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body within the server's limits: at most {@code server.max_body_mb} (refused unread when
 * Content-Length says more), within {@code server.read_timeout_s} in all, and within the memory budget: what reading
 * and parsing it will cost ({@link RequestCost#body}) is reserved before the first byte is read, waiting while other
 * requests hold the bytes.
 */
final class RequestBody {
    private static final int CHUNK = 65536;

    private RequestBody() { }

    /**
     * The body, its reading and parsing counted in {@code memory}; a body whose cost does not fit before
     * {@code deadlineNanos} is read to its end and thrown away, then refused with 503 (a client still sending its
     * body would otherwise see its connection reset instead of the answer).
     */
    static byte[] read(Exchange ex, ServerSettings settings, MemoryBudget.Reservation memory, long deadlineNanos) {
        // a client trickling its body in holds a thread: give it server.read_timeout_s in all; when a body is
        // refused unread, the connection is closed rather than drained
        ex.setHeader("Connection", "close");
        long limit = settings.maxBodyBytes();
        String cl = ex.header("Content-Length");
        long length = -1;
        if (cl != null) {
            try {
                length = Long.parseLong(cl.strip());
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("invalid_content_length", "Content-Length '" + cl + "' is not a number");
            }
            if (length > limit) throw tooLarge(limit);
        }
        try {
            memory.admit(RequestCost.body(length >= 0 ? length : CHUNK), length >= 0 ? "this request's body of " + MemoryBudget.mb(length)
                    : "this request's body", deadlineNanos);
        } catch (ApiError refused) {
            discard(ex, settings);
            throw refused;
        }
        long deadline = System.nanoTime() + settings.bodyTimeout().toNanos();
        try (InputStream in = ex.body()) {
            byte[] body = length >= 0 ? exactly(in, (int) length, settings, deadline) : chunked(in, limit, memory, settings, deadline);
            ex.removeHeader("Connection");
            return body;
        } catch (IOException e) {
            // Jetty's idle timeout ended a body that stopped arriving, or the client went away
            throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body stopped arriving before its end ("
                    + e.getMessage() + "; config server.idle_timeout_s)");
        }
    }

    /** A body whose length is known, read into one array of that size (no growing buffer, no copy). */
    private static byte[] exactly(InputStream in, int length, ServerSettings settings, long deadline) throws IOException {
        byte[] body = new byte[length];
        int at = 0;
        while (at < length) {
            int n = in.read(body, at, Math.min(CHUNK, length - at));
            if (n < 0) throw new IOException("the body ended after " + at + " of the " + length + " bytes its Content-Length announced");
            at += n;
            checkDeadline(settings, deadline);
        }
        return body;
    }

    /** A body of unknown length (chunked): each piece's cost is added as it arrives, or the request refused at once. */
    private static byte[] chunked(InputStream in, long limit, MemoryBudget.Reservation memory, ServerSettings settings, long deadline)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[CHUNK];
        long counted = CHUNK;
        int n;
        while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            if (out.size() > limit) throw tooLarge(limit);
            if (out.size() > counted) {
                memory.grow(RequestCost.body(out.size()) - RequestCost.body(counted), "this request's body");
                counted = out.size();
            }
            checkDeadline(settings, deadline);
        }
        return out.toByteArray();
    }

    private static void checkDeadline(ServerSettings settings, long deadline) {
        if (System.nanoTime() > deadline) {
            throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body took longer than "
                    + settings.bodyTimeout().toSeconds() + " s to arrive (config server.read_timeout_s)");
        }
    }

    /**
     * Reads what is left of the body and throws it away (within the read timeout and the body limit), so a refusal
     * reaches a client that is still sending; past either the connection is closed.
     */
    static void discard(Exchange ex, ServerSettings settings) {
        long deadline = System.nanoTime() + settings.bodyTimeout().toNanos();
        long seen = 0;
        try (InputStream in = ex.body()) {
            byte[] sink = new byte[CHUNK];
            int n;
            while ((n = in.read(sink)) > 0) {
                seen += n;
                if (seen > settings.maxBodyBytes() || System.nanoTime() > deadline) return;
            }
            ex.removeHeader("Connection");
        } catch (IOException | RuntimeException gone) {
            // the client went away: nobody to answer; the connection closes
        }
    }

    private static ApiError tooLarge(long limit) {
        return new ApiError(413, "invalid_request_error", "request_too_large", String.format(java.util.Locale.ROOT,
                "the request body is larger than the limit of %.1f MB (config server.max_body_mb)", limit / (1024.0 * 1024)));
    }
}
