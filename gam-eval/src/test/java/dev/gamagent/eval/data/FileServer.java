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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP server on 127.0.0.1 (ephemeral port) serving files from memory as a mirror does: whole files,
 * byte ranges ({@code Range: bytes=N-}), and on request a misbehaving answer (a body cut short after the
 * full length was announced, a server that ignores ranges, a body that never ends, one that trickles, a
 * redirect). Records every request; each is answered on its own thread, so an endless one holds no other.
 */
public final class FileServer implements AutoCloseable {
    /**
     * How the next requests for a path are answered: as a mirror does, cut off halfway (once), ignoring ranges, with a
     * body that never ends (no length announced), with a length of 1 TB announced, or 1 KB every 50 ms forever.
     */
    public enum Mode { NORMAL, BREAK_OFF_HALFWAY, IGNORE_RANGES, ENDLESS, ANNOUNCE_TERABYTE, TRICKLE }

    /** One request: path and Range header (null when none). */
    public record Request(String path, String range) { }

    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-");
    private final HttpServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, Mode> modes = new ConcurrentHashMap<>();
    private final Map<String, String> redirects = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "file-server");
        t.setDaemon(true);
        return t;
    });
    /** Body bytes written, over every request. */
    public final AtomicLong sent = new AtomicLong();

    public FileServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
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

    /** Answers requests for {@code path} with 302 to {@code location}. */
    public FileServer redirect(String path, String location) {
        redirects.put(path.startsWith("/") ? path : "/" + path, location);
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
            String location = redirects.get(path);
            if (location != null) {
                ex.getResponseHeaders().add("Location", location);
                ex.sendResponseHeaders(302, -1);
                return;
            }
            if (mode == Mode.ENDLESS || mode == Mode.ANNOUNCE_TERABYTE || mode == Mode.TRICKLE) {
                endless(ex, mode);
                return;
            }
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

    /** Writes until the client hangs up. */
    private void endless(HttpExchange ex, Mode mode) throws IOException {
        ex.sendResponseHeaders(200, mode == Mode.ANNOUNCE_TERABYTE ? 1L << 40 : 0);
        byte[] chunk = "index\tquestion\n".repeat(mode == Mode.TRICKLE ? 64 : 4096).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        OutputStream out = ex.getResponseBody();
        try {
            while (true) {
                out.write(chunk);
                out.flush();
                sent.addAndGet(chunk.length);
                if (mode == Mode.TRICKLE) Thread.sleep(50);
            }
        } catch (IOException | InterruptedException hungUp) {
            // the client stopped reading
        }
    }

    @Override public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
