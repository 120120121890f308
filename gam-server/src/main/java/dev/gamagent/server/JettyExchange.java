package dev.gamagent.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One Jetty request and response seen through the JDK's {@link HttpExchange}, so {@link GamServer}'s
 * handlers keep the shape they had on the JDK server while Jetty does the connection handling the JDK
 * server cannot (header and idle timeouts, connection limits).
 */
final class JettyExchange extends HttpExchange {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Headers requestHeaders = new Headers();
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new HashMap<>();
    private InputStream in;
    private OutputStream out;
    private int status = -1;
    private boolean closed;

    JettyExchange(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        for (HttpField f : request.getHeaders()) requestHeaders.add(f.getName(), f.getValue());
    }

    @Override public Headers getRequestHeaders() { return requestHeaders; }

    @Override public Headers getResponseHeaders() { return responseHeaders; }

    @Override public URI getRequestURI() {
        String pq = request.getHttpURI().getPathQuery();
        return URI.create(pq == null || pq.isEmpty() ? "/" : pq);
    }

    @Override public String getRequestMethod() { return request.getMethod(); }

    @Override public HttpContext getHttpContext() { return null; }

    @Override public InputStream getRequestBody() {
        if (in == null) in = Content.Source.asInputStream(request);
        return in;
    }

    @Override public OutputStream getResponseBody() {
        if (out == null) out = Content.Sink.asOutputStream(response);
        return out;
    }

    /** As the JDK's: length > 0 is the exact body length, 0 an open-ended (chunked) body, -1 no body. */
    @Override public void sendResponseHeaders(int rCode, long responseLength) {
        if (status >= 0) throw new IllegalStateException("response headers already sent");
        status = rCode;
        response.setStatus(rCode);
        for (Map.Entry<String, List<String>> e : responseHeaders.entrySet()) {
            for (String v : e.getValue()) response.getHeaders().add(e.getKey(), v);
        }
        if (responseLength > 0) response.getHeaders().put("Content-Length", Long.toString(responseLength));
        else if (responseLength < 0) response.getHeaders().put("Content-Length", "0");
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
            if (n > 0) responseHeaders.set("Connection", "close");
            return n < 0;
        } catch (IOException e) {
            return true; // reset by the peer
        }
    }

    @Override public InetSocketAddress getRemoteAddress() { return inet(request.getConnectionMetaData().getRemoteSocketAddress()); }

    @Override public InetSocketAddress getLocalAddress() { return inet(request.getConnectionMetaData().getLocalSocketAddress()); }

    private static InetSocketAddress inet(SocketAddress a) { return a instanceof InetSocketAddress i ? i : null; }

    @Override public int getResponseCode() { return status; }

    @Override public String getProtocol() { return request.getConnectionMetaData().getProtocol(); }

    @Override public Object getAttribute(String name) { return attributes.get(name); }

    @Override public void setAttribute(String name, Object value) { attributes.put(name, value); }

    @Override public void setStreams(InputStream i, OutputStream o) {
        if (i != null) in = i;
        if (o != null) out = o;
    }

    @Override public HttpPrincipal getPrincipal() { return null; }

    /** Ends the exchange: flushes and closes the body (or sends an empty one) and tells Jetty it is done. */
    @Override public void close() {
        if (closed) return;
        closed = true;
        try {
            if (status < 0) sendResponseHeaders(500, -1);
            if (out != null) out.close();
            callback.succeeded();
        } catch (IOException | RuntimeException e) {
            callback.failed(e); // the client went away; Jetty closes the connection
        }
    }
}
