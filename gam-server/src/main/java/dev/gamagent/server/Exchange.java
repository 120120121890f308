package dev.gamagent.server;

import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;

/**
 * One request to {@code gam serve} and its response, over Jetty: what the routes use of the request (method, URI,
 * headers, body) and of the response (headers, status, body), and whether the client is still there. Jetty does the
 * connection handling (header and idle timeouts, connection limits).
 */
final class Exchange implements AutoCloseable {
    private final Request request;
    private final Response response;
    private final Callback callback;
    /** Response headers, set until {@link #sendHeaders}; names compare without case, as HTTP's do. */
    private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private InputStream in;
    private OutputStream out;
    private int status = -1;
    private boolean closed;

    Exchange(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
    }

    String method() { return request.getMethod(); }

    /** The path and query ({@code /} when the request has neither). */
    URI uri() {
        String pq = request.getHttpURI().getPathQuery();
        return URI.create(pq == null || pq.isEmpty() ? "/" : pq);
    }

    /** The request header's first value, or null. */
    String header(String name) { return request.getHeaders().get(name); }

    InputStream body() {
        if (in == null) in = Content.Source.asInputStream(request);
        return in;
    }

    /** Sets a response header (replacing one of the same name); sent with {@link #sendHeaders}. */
    void setHeader(String name, String value) { headers.put(name, value); }

    void removeHeader(String name) { headers.remove(name); }

    /** The status and headers: {@code length} > 0 is the exact body length, 0 an open-ended (chunked) body, -1 no body. */
    void sendHeaders(int code, long length) {
        if (status >= 0) throw new IllegalStateException("response headers already sent");
        status = code;
        response.setStatus(code);
        for (Map.Entry<String, String> e : headers.entrySet()) response.getHeaders().add(e.getKey(), e.getValue());
        if (length > 0) response.getHeaders().put("Content-Length", Long.toString(length));
        else if (length < 0) response.getHeaders().put("Content-Length", "0");
    }

    OutputStream output() {
        if (out == null) out = Content.Sink.asOutputStream(response);
        return out;
    }

    /**
     * Whether the client has closed the connection while its request waits. Jetty reads nothing once a request's
     * body is in (so it would notice only when answering): a non-blocking read of the socket says it. A client does not
     * send more on this connection before its answer; if one does (HTTP pipelining), the byte read is lost, so the
     * connection closes after this answer.
     */
    boolean clientGone() {
        org.eclipse.jetty.io.EndPoint ep = request.getConnectionMetaData().getConnection().getEndPoint();
        if (!ep.isOpen()) return true;
        if (!(ep.getTransport() instanceof java.nio.channels.SocketChannel ch) || ch.isBlocking()) return false;
        try {
            int n = ch.read(java.nio.ByteBuffer.allocate(1));
            if (n > 0) setHeader("Connection", "close");
            return n < 0;
        } catch (IOException e) {
            return true; // reset by the peer
        }
    }

    /** Ends the exchange: flushes and closes the body (or sends an empty one) and tells Jetty it is done. */
    @Override public void close() {
        if (closed) return;
        closed = true;
        try {
            if (status < 0) {
                // every route answers or throws, and the router answers what is thrown: this is a fault in the server, said in words
                byte[] body = ChatCompletionWriter.bytes(ChatCompletionReply.ErrorReply.of("the server wrote no answer to this request (a fault "
                        + "in the server; its log says more)", "server_error", "no_answer"));
                setHeader("Content-Type", "application/json; charset=utf-8");
                sendHeaders(500, body.length);
                output().write(body);
            }
            if (out != null) out.close();
            callback.succeeded();
        } catch (IOException | RuntimeException e) {
            callback.failed(e); // the client went away; Jetty closes the connection
        }
    }
}
