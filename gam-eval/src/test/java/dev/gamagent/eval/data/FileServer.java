package dev.gamagent.eval.data;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP server on 127.0.0.1 (ephemeral port) serving files from memory as a mirror does: whole files,
 * byte ranges ({@code Range: bytes=N-}), and on request a misbehaving answer (a body cut short after the
 * full length was announced, a server that ignores ranges). Records every request.
 */
public final class FileServer implements AutoCloseable {
    /** How the next requests for a path are answered. */
    public enum Mode { NORMAL, BREAK_OFF_HALFWAY, IGNORE_RANGES }

    /** One request: path and Range header (null when none). */
    public record Request(String path, String range) { }

    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-");
    private final HttpServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, Mode> modes = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public FileServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public FileServer put(String path, byte[] content) {
        files.put(path.startsWith("/") ? path : "/" + path, content);
        return this;
    }

    public FileServer mode(String path, Mode mode) {
        modes.put(path.startsWith("/") ? path : "/" + path, mode);
        return this;
    }

    public String base() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    public List<Request> requests() { return List.copyOf(requests); }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String range = ex.getRequestHeaders().getFirst("Range");
        requests.add(new Request(path, range));
        byte[] body = files.get(path);
        Mode mode = modes.getOrDefault(path, Mode.NORMAL);
        try (ex) {
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            int from = 0;
            Matcher m = range == null ? null : RANGE.matcher(range);
            if (m != null && m.matches() && mode != Mode.IGNORE_RANGES) {
                from = Integer.parseInt(m.group(1));
                if (from >= body.length) {
                    ex.getResponseHeaders().add("Content-Range", "bytes */" + body.length);
                    ex.sendResponseHeaders(416, -1);
                    return;
                }
                ex.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + (body.length - 1) + "/" + body.length);
                ex.sendResponseHeaders(206, body.length - from);
            } else {
                ex.sendResponseHeaders(200, body.length);
            }
            OutputStream out = ex.getResponseBody();
            if (mode == Mode.BREAK_OFF_HALFWAY) {
                modes.remove(path); // the next attempt goes through
                out.write(body, from, (body.length - from) / 2);
                out.flush();
                throw new IOException("cut off on purpose");
            }
            out.write(body, from, body.length - from);
        } catch (IOException e) {
            if (!"cut off on purpose".equals(e.getMessage())) throw e;
        }
    }

    @Override public void close() { server.stop(0); }
}
