package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, items 2 and 5, and issue 38, item 12: {@code gam serve} under load. A host that sends an image's headers and then a byte a
 * second holds no question slot (images are fetched, within a whole-fetch deadline, before a slot is taken); a burst
 * larger than the slots waits in a bounded line instead of being refused; a full line, a wait past the queue timeout
 * are refused with 429 and Retry-After; a client that leaves the line frees its place; sockets trickling their headers do
 * not keep {@code /healthz} waiting, and every connection of a burst of 400 gets an answer. Real sockets throughout; the
 * backend is scripted (this is about the server, not the model). Only /healthz's latency is asserted, generously (the
 * median under 2 s, none past the header timeout, where it waited before); other waits are bounded only so that a hang
 * fails instead of blocking the build.
 */
class ServeUnderLoadTest {
    @TempDir Path dir;
    private static final Map<String, String> ROWS = new LinkedHashMap<>();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| situation | result |\n|---|---|\n");
        ROWS.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n"));
        Suite.report("serve-load", t.toString());
    }

    private GamServer server(ScriptedBackend backend, Map<String, String> set) throws IOException {
        Config config = Config.defaults().withOverrides(set);
        ServerSettings s = ServerSettings.fromConfig(config, "127.0.0.1", 0, null, dir.resolve("traces-" + ROWS.size() + "-" + System.nanoTime() + ".db"));
        GamServer g = new GamServer(s, backend, config, MethodCatalog.REGISTRY, List.of());
        g.start();
        return g;
    }

    private static String body(String imageUrl) {
        return Json.write(Map.of("model", "single", "messages", List.of(Map.of("role", "user", "content", List.of(
                Map.of("type", "text", "text", "What colour is the shape?\nA. red\nB. blue"),
                Map.of("type", "image_url", "image_url", Map.of("url", imageUrl)))))));
    }

    private static final String DATA_URL = new Picture("t", TriangleImage.draw()).dataUrl();

    private HttpResponse<String> post(GamServer g, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> postAsync(GamServer g, String body) {
        return client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> r) {
        try {
            JsonNode e = Json.MAPPER.readTree(r.body()).path("error");
            return r.statusCode() + " `" + e.path("code").asText() + "`: " + e.path("message").asText();
        } catch (IOException ex) {
            return r.statusCode() + " " + r.body();
        }
    }

    /** Waits (bounded, so a hang fails) until {@code what} holds. */
    private static void until(BooleanSupplier what, String description) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!what.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("never happened: " + description);
            Thread.sleep(20);
        }
    }

    private static int waiting(GamServer g) {
        for (String l : g.metrics().render().split("\n")) if (l.startsWith("gam_questions_waiting ")) return Integer.parseInt(l.substring(22).strip());
        throw new AssertionError("no gam_questions_waiting in /metrics");
    }

    /** An image host that sends a PNG's headers at once and then one byte a second. */
    private static final class TricklingHost implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final List<Socket> open = new java.util.concurrent.CopyOnWriteArrayList<>();

        TricklingHost() throws IOException {
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        connections.incrementAndGet();
                        open.add(s);
                        Thread w = new Thread(() -> trickle(s), "trickle");
                        w.setDaemon(true);
                        w.start();
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "trickling-host");
            t.setDaemon(true);
            t.start();
        }

        private static void trickle(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                int last = 0, c;
                while ((c = in.read()) >= 0) { // to the blank line ending the request headers
                    if (c == '\n' && last == '\n') break;
                    if (c != '\r') last = c;
                }
                OutputStream out = s.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                for (int i = 0; i < 100_000; i++) {
                    out.write(0x89);
                    out.flush();
                    Thread.sleep(1000);
                }
            } catch (IOException | InterruptedException gone) {
                // the server gave up on us: that is the point
            }
        }

        String url() { return "http://127.0.0.1:" + socket.getLocalPort() + "/slow.png"; }

        @Override public void close() throws IOException {
            socket.close();
            for (Socket s : open) s.close();
        }
    }

    @Test void aHostTricklingAnImageHoldsNoSlotAndItsFetchEndsAtTheDeadline() throws Exception {
        try (TricklingHost host = new TricklingHost();
             GamServer g = server(ScriptedBackend.text(r -> "ANSWER: A"), Map.of("server.max_in_flight", "1", "server.max_queued", "0",
                     "server.allowed_image_hosts", "[\"127.0.0.1\"]", "server.image_fetch_timeout_s", "3", "server.image_fetches_per_host", "2"))) {
            List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
            for (int i = 0; i < 3; i++) slow.add(postAsync(g, body(host.url())));
            until(() -> host.connections.get() >= 2, "the image host is sending two images");
            HttpResponse<String> other = post(g, body(DATA_URL));
            assertThat(other.statusCode()).as("another client, while the slow images arrive: " + other.body()).isEqualTo(200);
            List<String> ends = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> f : slow) {
                HttpResponse<String> r = f.get(90, TimeUnit.SECONDS);
                assertThat(r.statusCode()).as(r.body()).isIn(503, 504);
                assertThat(r.body()).contains("server.image_fetch");
                ends.add(error(r));
            }
            assertThat(host.connections.get()).as("at most 2 fetches at once from one host, and the third only after").isLessThanOrEqualTo(3);
            Map<String, Long> codes = new java.util.TreeMap<>();
            for (String e : ends) codes.merge(e.replaceAll(": .*", ""), 1L, Long::sum);
            ROWS.put("3 requests whose allowed image host sends headers, then 1 byte/s (1 slot, fetch deadline 3 s, 2 fetches per host)",
                    "another client answered 200 meanwhile; the slow ones ended: " + codes.entrySet().stream().map(e -> e.getValue() + "× " + e.getKey())
                            .collect(java.util.stream.Collectors.joining(", ")) + " — " + ends.stream().filter(e -> e.startsWith("504")).findFirst()
                            .orElse(ends.get(0)).replace(host.url(), "http://127.0.0.1:PORT/slow.png"));
        }
    }

    @Test void aBurstLargerThanTheSlotsIsQueuedAndEveryQuestionAnsweredOnTheFirstTry() throws Exception {
        int n = Suite.size(60, 200);
        AtomicInteger running = new AtomicInteger(), peak = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.text(r -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return "ANSWER: A";
        });
        try (GamServer g = server(backend, Map.of())) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            String b = body(DATA_URL);
            for (int i = 0; i < n; i++) all.add(postAsync(g, b));
            Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
            for (CompletableFuture<HttpResponse<String>> f : all) statuses.merge(f.get(300, TimeUnit.SECONDS).statusCode(), 1, Integer::sum);
            assertThat(statuses).as("status → count").containsExactly(Map.entry(200, n));
            assertThat(peak.get()).as("questions answered at once").isLessThanOrEqualTo(dev.gamagent.config.Config.defaults().integer("server.max_in_flight"));
            ROWS.put(n + " requests at once (" + dev.gamagent.config.Config.defaults().integer("server.max_in_flight") + " slots, default line of " + dev.gamagent.config.Config.defaults().integer("server.max_queued") + ")",
                    n + " answered 200 on the first try, none refused; at most " + peak.get() + " answered at once");
        }
    }

    /** A backend whose calls say they have started ({@code entered}) and answer "A" only once {@code release} opens. */
    private static ScriptedBackend blockedUntil(CountDownLatch entered, CountDownLatch release) {
        return ScriptedBackend.text(r -> {
            entered.countDown();
            try {
                release.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "ANSWER: A";
        });
    }

    @Test void aFullLineAndALongWaitAre429AndAClientThatLeavesFreesItsPlace() throws Exception {
        CountDownLatch entered = new CountDownLatch(1), release = new CountDownLatch(1);
        ScriptedBackend blocked = blockedUntil(entered, release);
        try (GamServer g = server(blocked, Map.of("server.max_in_flight", "1", "server.max_queued", "1", "server.queue_timeout_s", "60",
                "server.idle_timeout_s", "1"))) {
            String b = body(DATA_URL);
            CompletableFuture<HttpResponse<String>> first = postAsync(g, b);
            assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
            byte[] raw = b.getBytes(StandardCharsets.UTF_8);
            Socket leaving = new Socket("127.0.0.1", g.port());
            leaving.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + raw.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            leaving.getOutputStream().write(raw);
            leaving.getOutputStream().flush();
            until(() -> waiting(g) == 1, "the second question waits in line");
            HttpResponse<String> full = post(g, b);
            assertThat(full.statusCode()).isEqualTo(429);
            assertThat(full.headers().firstValue("Retry-After")).hasValue("5");
            assertThat(full.body()).contains("server.max_queued");
            leaving.close();
            until(() -> waiting(g) == 0, "the client that left is out of the line");
            CompletableFuture<HttpResponse<String>> next = postAsync(g, b);
            until(() -> waiting(g) == 1, "a new question takes the freed place");
            Thread.sleep(1500); // longer than the 1 s idle timeout: a question waiting in line keeps its connection
            release.countDown();
            assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            HttpResponse<String> queued = next.get(60, TimeUnit.SECONDS);
            assertThat(queued.statusCode()).as(queued.body()).isEqualTo(200);
            ROWS.put("1 slot busy, 1 place in line taken, a third request", error(full));
            ROWS.put("a client closes its connection while waiting in line", "its place is freed; the next request waits in it and is answered 200");
        }
    }

    /**
     * Sockets that send a request's headers one byte every 300 ms, reopened as soon as the server closes them (as a
     * slowloris client does), until {@link #close}.
     */
    private static final class Tricklers implements AutoCloseable {
        private static final byte[] HEAD = ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + "a".repeat(200) + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        final List<Socket> open = new java.util.concurrent.CopyOnWriteArrayList<>();
        final AtomicInteger reopened = new AtomicInteger();
        private final int port;
        private volatile boolean stop;
        private final Thread thread;
        private final java.util.concurrent.ExecutorService opener = java.util.concurrent.Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "trickler-opener");
            t.setDaemon(true);
            return t;
        });

        Tricklers(int port, int count) {
            this.port = port;
            for (int i = 0; i < count; i++) opener.submit(this::openOne);
            thread = new Thread(this::trickle, "tricklers");
            thread.setDaemon(true);
            thread.start();
        }

        /** Opens one socket, trying again while the server does not accept it. */
        private void openOne() {
            while (!stop) {
                try {
                    Socket s = new Socket();
                    s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5_000);
                    open.add(s);
                    return;
                } catch (IOException notAccepted) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        private void trickle() {
            for (int at = 0; !stop; at++) {
                for (Socket s : open) {
                    try {
                        s.getOutputStream().write(HEAD[at % HEAD.length]);
                    } catch (IOException closedByTheServer) {
                        open.remove(s);
                        try {
                            s.close();
                        } catch (IOException ignored) {
                            // closed already
                        }
                        reopened.incrementAndGet();
                        opener.submit(this::openOne);
                    }
                }
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        @Override public void close() throws IOException {
            stop = true;
            thread.interrupt();
            opener.shutdownNow();
            for (Socket s : open) s.close();
        }
    }

    /** GET /healthz on a new connection: its status line, or the failure. */
    private static String healthz(int port) {
        try (Socket s = new Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 60_000);
            s.setSoTimeout(60_000);
            s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String r = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return r.isEmpty() ? "closed without an answer" : r.substring(0, Math.max(0, r.indexOf("\r\n")));
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test void socketsTricklingTheirHeadersDoNotKeepHealthzWaiting() throws Exception {
        int sockets = 400;
        int probes = Suite.size(8, 30);
        int limit = 256; // below the sockets, so that the server is under pressure (the default, 1024, is above them)
        try (GamServer g = server(ScriptedBackend.text(r -> "ANSWER: A"), Map.of("server.max_connections", String.valueOf(limit)));
             Tricklers t = new Tricklers(g.port(), sockets)) {
            until(() -> t.open.size() >= limit, limit + " trickling sockets open");
            Thread.sleep(1500); // they have all begun their headers
            List<Long> millis = new ArrayList<>();
            for (int i = 0; i < probes; i++) {
                assertThat(t.open.size()).as("trickling sockets open while /healthz is asked").isGreaterThanOrEqualTo(limit / 2);
                long t0 = System.nanoTime();
                String status = healthz(g.port());
                millis.add((System.nanoTime() - t0) / 1_000_000);
                assertThat(status).as("/healthz while " + sockets + " sockets trickle").isEqualTo("HTTP/1.1 200 OK");
                Thread.sleep(Suite.full() ? 1000 : 500);
            }
            List<Long> sorted = millis.stream().sorted().toList();
            long median = sorted.get(sorted.size() / 2), max = sorted.get(sorted.size() - 1);
            // generous bounds (the machine is shared): before, /healthz waited for the 10 s header timeout to free a connection
            assertThat(median).as("median /healthz latency, ms: " + millis).isLessThan(2000);
            assertThat(max).as("slowest /healthz, ms: " + millis).isLessThan(Math.round(Config.defaults().number("server.header_timeout_s") * 1000));
            ROWS.put(sockets + " sockets sending their headers one byte every 300 ms, reopened when closed, against server.max_connections "
                    + limit + "; /healthz asked " + probes + " times meanwhile", "every /healthz answered 200: median " + median + " ms, slowest " + max + " ms (the tricklers reopened "
                    + t.reopened.get() + " connections the server closed to make room)");
        }
    }

    /** A chat request on a new connection, written whole at once: the status line that came back, or how it failed. */
    private static String ask(int port, byte[] request) {
        try (Socket s = new Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 180_000);
            s.setSoTimeout(300_000);
            s.getOutputStream().write(request);
            String r = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return r.isEmpty() ? "closed without an answer" : r.substring(0, Math.max(0, r.indexOf("\r\n")));
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test void everyConnectionOfABurstOf400GetsAnAnswer() throws Exception {
        int n = 400;
        long backendMillis = Suite.full() ? 1000 : 20;
        ScriptedBackend backend = ScriptedBackend.text(r -> {
            try {
                Thread.sleep(backendMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "ANSWER: A";
        });
        byte[] b = body(DATA_URL).getBytes(StandardCharsets.UTF_8);
        byte[] request = concat(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), b);
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(n);
        try (GamServer g = server(backend, Map.of())) {
            List<java.util.concurrent.Future<String>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) all.add(clients.submit(() -> ask(g.port(), request)));
            Map<String, Integer> outcomes = new java.util.TreeMap<>();
            for (java.util.concurrent.Future<String> f : all) outcomes.merge(f.get(600, TimeUnit.SECONDS), 1, Integer::sum);
            assertThat(outcomes.keySet()).as("how each of the " + n + " connections ended: " + outcomes)
                    .allMatch(k -> k.equals("HTTP/1.1 200 OK") || k.equals("HTTP/1.1 429 Too Many Requests"));
            StringBuilder r = new StringBuilder();
            outcomes.forEach((k, v) -> r.append(r.length() == 0 ? "" : ", ").append(v).append("× ").append(k.substring(9)));
            ROWS.put(n + " connections at once, each a question (model " + backendMillis + " ms; 4 slots, line of 256, "
                    + Config.defaults().integer("server.max_connections") + " connections)", r + "; none closed without an answer");
        } finally {
            clients.shutdownNow();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test void aQuestionWaitingLongerThanTheQueueTimeoutIs429NamingTheSetting() throws Exception {
        CountDownLatch entered = new CountDownLatch(1), release = new CountDownLatch(1);
        ScriptedBackend blocked = blockedUntil(entered, release);
        try (GamServer g = server(blocked, Map.of("server.max_in_flight", "1", "server.queue_timeout_s", "1"))) {
            CompletableFuture<HttpResponse<String>> first = postAsync(g, body(DATA_URL));
            assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> late = post(g, body(DATA_URL));
            release.countDown();
            assertThat(late.statusCode()).isEqualTo(429);
            assertThat(late.headers().firstValue("Retry-After")).hasValue("5");
            assertThat(late.body()).contains("server.queue_timeout_s");
            assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            ROWS.put("1 slot busy longer than the queue timeout (1 s)", error(late));
        }
    }
}
