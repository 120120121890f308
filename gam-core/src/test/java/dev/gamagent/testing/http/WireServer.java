package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A real HTTP/1.1 server on 127.0.0.1 (port 0) speaking one model-server wire format, for tests.
 * Written on a plain socket so it can also misbehave exactly: truncate a body, drop a connection, stall.
 *
 * <p>API shared by all formats:
 * <ul>
 *   <li>{@link #baseUrl()} — what to pass as {@code --base-url};</li>
 *   <li>{@link #enqueue(Reply...)} — replies used in order for the next requests, then
 *       {@link #respondWith(Function)}'s responder (default: answer "A", certain);</li>
 *   <li>{@link #requests()} — every request received; {@link #violations()} — requests that broke the
 *       wire format (each got a 400 naming the problem); {@link #assertNoViolations()} fails the test
 *       when there were any; {@link #peakConcurrent()} — the most requests handled at once.</li>
 * </ul>
 * Subclasses validate requests, serve side paths (model lists) and render {@link Reply.Answer}s.
 */
public abstract class WireServer implements AutoCloseable {
    private final ServerSocket socket;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, getClass().getSimpleName());
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final List<Received> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final java.util.concurrent.atomic.AtomicInteger active = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger peak = new java.util.concurrent.atomic.AtomicInteger();
    private volatile Function<Received, Reply> responder = r -> Reply.answer("A");

    protected WireServer() {
        try {
            socket = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a test server socket on 127.0.0.1", e);
        }
        pool.submit(this::acceptLoop);
    }

    public int port() { return socket.getLocalPort(); }

    /** The root URL, e.g. {@code http://127.0.0.1:PORT}. */
    public String rootUrl() { return "http://127.0.0.1:" + port(); }

    /** What a backend takes as its base URL for this wire format. */
    public abstract String baseUrl();

    /** Replies for the next requests, in order. */
    public WireServer enqueue(Reply... replies) {
        queue.addAll(List.of(replies));
        return this;
    }

    /** The responder used when the queue is empty. */
    public WireServer respondWith(Function<Received, Reply> f) {
        this.responder = f;
        return this;
    }

    public List<Received> requests() { synchronized (requests) { return List.copyOf(requests); } }

    /** Requests to the model endpoint only (not model lists). */
    public List<Received> chatRequests() { return requests().stream().filter(r -> r.method().equals("POST")).toList(); }

    /** The most requests this server was answering at the same time. */
    public int peakConcurrent() { return peak.get(); }

    public List<String> violations() { synchronized (violations) { return List.copyOf(violations); } }

    public void assertNoViolations() {
        List<String> v = violations();
        if (!v.isEmpty()) throw new AssertionError(getClass().getSimpleName() + " received malformed requests: " + v);
    }

    /** Problems with a request (empty = valid). */
    protected abstract List<String> validate(Received r);

    /** A reply for side paths (e.g. GET /v1/models), or null for the model endpoint. */
    protected abstract Reply sidePath(Received r);

    /** A server-specific refusal of a valid request (e.g. log-probs not supported), or null. */
    protected Reply refusal(Received r) { return null; }

    /** The JSON body of an answer in this wire format. */
    protected abstract String render(Reply.Answer a, Received r);

    @Override public void close() {
        try { socket.close(); } catch (IOException ignored) { /* closing anyway */ }
        pool.shutdownNow();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                pool.submit(() -> handle(s));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void handle(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            String head = readHead(in);
            if (head == null) return;
            String[] lines = head.split("\r\n");
            String[] first = lines[0].split(" ");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int c = lines[i].indexOf(':');
                if (c > 0) headers.put(lines[i].substring(0, c).strip().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).strip());
            }
            byte[] body = readBody(in, headers);
            String text = new String(body, StandardCharsets.UTF_8);
            JsonNode json = null;
            try { if (!text.isBlank()) json = Json.MAPPER.readTree(text); } catch (IOException notJson) { json = null; }
            Received r = new Received(first[0], first.length > 1 ? first[1] : "/", headers, text, json);
            requests.add(r);
            peak.accumulateAndGet(active.incrementAndGet(), Math::max);
            // the request stops counting as in flight just before its last bytes leave: a client that gets its answer
            // and sends the next request at once must not be counted twice (peakConcurrent raced under load)
            java.util.concurrent.atomic.AtomicBoolean left = new java.util.concurrent.atomic.AtomicBoolean();
            Runnable leave = () -> { if (left.compareAndSet(false, true)) active.decrementAndGet(); };
            try {
                write(s, reply(r), r, leave);
            } finally {
                leave.run();
            }
        } catch (SocketException closed) {
            // the client gave up (timeout test) or the server is closing
        } catch (IOException | InterruptedException e) {
            if (!socket.isClosed()) e.printStackTrace();
        }
    }

    private Reply reply(Received r) {
        Reply side = sidePath(r);
        if (side != null) return side;
        List<String> problems = validate(r);
        if (!problems.isEmpty()) {
            violations.add(r.method() + " " + r.path() + ": " + String.join("; ", problems));
            return Reply.status(400, errorJson(String.join("; ", problems)));
        }
        Reply refused = refusal(r);
        if (refused != null) return refused;
        Reply next = queue.poll();
        return next != null ? next : responder.apply(r);
    }

    protected static String errorJson(String message) {
        var o = Json.MAPPER.createObjectNode();
        o.putObject("error").put("message", message).put("type", "invalid_request_error");
        return Json.write(o);
    }

    private void write(Socket s, Reply reply, Received r, Runnable leave) throws IOException, InterruptedException {
        OutputStream out = s.getOutputStream();
        if (reply instanceof Reply.Delayed d) {
            Thread.sleep(d.delay().toMillis());
            write(s, d.then(), r, leave);
            return;
        }
        leave.run();
        if (reply instanceof Reply.Drop) {
            s.close();
        } else if (reply instanceof Reply.Answer a) {
            send(out, 200, "application/json", render(a, r), Map.of(), 0);
        } else if (reply instanceof Reply.Status st) {
            send(out, st.status(), "application/json", st.body(), st.headers(), 0);
        } else if (reply instanceof Reply.Raw raw) {
            send(out, raw.status(), raw.contentType(), raw.body(), Map.of(), 0);
        } else if (reply instanceof Reply.Truncated t) {
            send(out, 200, "application/json", t.body(), Map.of(), t.missingBytes());
        } else if (reply instanceof Reply.Reset t) {
            send(out, 200, "application/json", t.body(), Map.of(), t.missingBytes());
            s.setSoLinger(true, 0); // close with RST instead of FIN: "connection reset" mid-body
            s.close();
        }
    }

    private static void send(OutputStream out, int status, String type, String body, Map<String, String> headers, int missing) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        h.append("Content-Type: ").append(type).append("\r\n");
        h.append("Content-Length: ").append(b.length + missing).append("\r\n");
        h.append("Connection: close\r\n");
        headers.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
        h.append("\r\n");
        out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(b);
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK"; case 400 -> "Bad Request"; case 401 -> "Unauthorized"; case 404 -> "Not Found";
            case 408 -> "Request Timeout"; case 429 -> "Too Many Requests"; case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable"; default -> "Status";
        };
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c, state = 0;
        while ((c = in.read()) != -1) {
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) ? state + 1 : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) return b.toString(StandardCharsets.ISO_8859_1);
        }
        return null;
    }

    private static byte[] readBody(InputStream in, Map<String, String> headers) throws IOException {
        String len = headers.get("content-length");
        if (len != null) return in.readNBytes(Integer.parseInt(len.strip()));
        if ("chunked".equalsIgnoreCase(headers.getOrDefault("transfer-encoding", ""))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                StringBuilder line = new StringBuilder();
                int c;
                while ((c = in.read()) != -1 && c != '\n') if (c != '\r') line.append((char) c);
                int size = Integer.parseInt(line.toString().split(";")[0].strip(), 16);
                if (size == 0) { in.read(); in.read(); return out.toByteArray(); }
                out.write(in.readNBytes(size));
                in.read(); in.read();
            }
        }
        return new byte[0];
    }

    // ---- validation helpers shared by the formats ----

    /** A problem if {@code s} is not valid standard base64 of a PNG, JPEG, GIF or WebP image. */
    protected static String base64ImageProblem(String where, JsonNode n) {
        if (n == null || !n.isTextual()) return where + " must be a base64 string";
        String s = n.asText();
        if (s.startsWith("data:")) return where + " must be raw base64, not a data URL";
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            return where + " is not valid base64: " + e.getMessage();
        }
        if (!isImage(bytes)) return where + " does not decode to a PNG/JPEG/GIF/WebP image";
        return null;
    }

    protected static String dataUrlProblem(String where, JsonNode n) {
        if (n == null || !n.isTextual()) return where + " must be a string";
        String s = n.asText();
        var m = java.util.regex.Pattern.compile("^data:(image/(?:png|jpeg|gif|webp));base64,(.+)$", java.util.regex.Pattern.DOTALL).matcher(s);
        if (!m.matches()) return where + " must be a base64 data URL (data:image/png;base64,...), got " + abbreviate(s);
        return base64ImageProblem(where, Json.MAPPER.getNodeFactory().textNode(m.group(2)));
    }

    private static boolean isImage(byte[] b) {
        if (b.length < 12) return false;
        boolean png = (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G';
        boolean jpeg = (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xD8;
        boolean gif = b[0] == 'G' && b[1] == 'I' && b[2] == 'F';
        boolean webp = b[0] == 'R' && b[1] == 'I' && b[2] == 'F' && b[3] == 'F' && b[8] == 'W' && b[9] == 'E';
        return png || jpeg || gif || webp;
    }

    protected static void requireType(List<String> problems, JsonNode parent, String field, String type, boolean required) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            if (required) problems.add("'" + field + "' is required");
            return;
        }
        boolean ok = switch (type) {
            case "string" -> n.isTextual() && !n.asText().isBlank();
            case "number" -> n.isNumber();
            case "integer" -> n.isIntegralNumber();
            case "boolean" -> n.isBoolean();
            case "object" -> n.isObject();
            case "array" -> n.isArray();
            default -> throw new IllegalArgumentException(type);
        };
        if (!ok) problems.add("'" + field + "' must be a " + (type.equals("string") ? "non-empty string" : type) + ", got " + abbreviate(n.toString()));
    }

    protected static String abbreviate(String s) { return s.length() <= 80 ? s : s.substring(0, 80) + "..."; }

    /** Log-prob as written on the wire: finite numbers as is. */
    protected static double wireLogprob(double lp) { return Double.isFinite(lp) ? lp : -9999.0; }

    /** The alternatives to render for a token given the top-k the request asked for. */
    protected static List<TokenLogprob.Alternative> topK(TokenLogprob t, int k) {
        return t.top().subList(0, Math.min(k, t.top().size()));
    }

    /** UTF-8 bytes of a token as a JSON array node. */
    protected static com.fasterxml.jackson.databind.node.ArrayNode bytes(String token) {
        var a = Json.MAPPER.createArrayNode();
        for (byte x : token.getBytes(StandardCharsets.UTF_8)) a.add(x & 0xff);
        return a;
    }
}
