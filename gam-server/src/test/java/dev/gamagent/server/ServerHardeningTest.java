package dev.gamagent.server;

import dev.gamagent.api.Method;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.Pngs;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, items 5–7 on the server side: slow clients are cut off, a foreign Host or Origin and
 * non-JSON POSTs are refused, CORS is off unless configured, one request cannot decode unbounded pixels,
 * and a key typed into a question is not stored in the trace database. Requests go over raw sockets so the
 * test controls every header (Host included) and every byte's timing. Settings come through
 * {@link ServerSettings#fromConfig}, the path {@code gam serve} takes.
 */
class ServerHardeningTest {
    @TempDir Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach void closeAll() throws Exception {
        for (AutoCloseable c : open) c.close();
    }

    private ServerFixture start(String key, String... sets) throws Exception {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (String s : sets) overrides.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        ServerSettings settings = ServerSettings.fromConfig(Config.defaults().withOverrides(overrides), "127.0.0.1", 0, key,
                dir.resolve("traces.db"));
        ServerFixture f = new ServerFixture(settings, ScriptedBackend.text(r -> "A"), Map.<String, Supplier<Method>>of(),
                key == null ? List.of() : List.of(key));
        open.add(f);
        return f;
    }

    private static int port(ServerFixture f) { return f.server.port(); }

    /** A raw HTTP/1.1 exchange; returns the status line and headers and body as text. */
    private static String raw(int port, String head, byte[] body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) out.write(body);
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String post(int port, String host, String contentType, String origin, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + host + "\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + (origin == null ? "" : "Origin: " + origin + "\r\n")
                + "Content-Length: " + b.length + "\r\nConnection: close\r\n\r\n";
        return raw(port, head, b);
    }

    private static String question() {
        return Json.write(ServerFixture.request("single", "What colour?\nA. red\nB. blue", false, ServerFixture.dataUrl()));
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    // ---- item 6: Host allow-list, Origin and JSON-only POSTs, CORS off unless configured -----------------------

    @Test void aForeignHostIsRefusedAndLoopbackNamesAreServed() throws Exception {
        ServerFixture f = start(null);
        String evil = raw(port(f), "GET /v1/models HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", null);
        assertThat(status(evil)).as(evil).isEqualTo(403);
        assertThat(evil).contains("Host 'evil.example' is not allowed").contains("server.allowed_hosts");
        String rebinding = post(port(f), "evil.example:" + port(f), "application/json", null, question());
        assertThat(status(rebinding)).isEqualTo(403);
        for (String host : List.of("127.0.0.1:" + port(f), "localhost:" + port(f), "[::1]:" + port(f), "LOCALHOST")) {
            String ok = raw(port(f), "GET /v1/models HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n", null);
            assertThat(status(ok)).as(host).isEqualTo(200);
        }
    }

    @Test void configuredHostsAreServedAndOthersStillRefused() throws Exception {
        ServerFixture f = start(null, "server.allowed_hosts=gam.internal,.lab.example");
        assertThat(status(raw(port(f), "GET /healthz HTTP/1.1\r\nHost: gam.internal:8080\r\nConnection: close\r\n\r\n", null))).isEqualTo(200);
        assertThat(status(raw(port(f), "GET /healthz HTTP/1.1\r\nHost: box.lab.example\r\nConnection: close\r\n\r\n", null))).isEqualTo(200);
        assertThat(status(raw(port(f), "GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", null))).isEqualTo(403);
    }

    @Test void aCrossSiteTextPlainPostIsRefusedAndSoIsAForeignOriginWithJson() throws Exception {
        ServerFixture f = start(null);
        String host = "127.0.0.1:" + port(f);
        // what a form or fetch(..., {mode: 'no-cors'}) on another site can send without a preflight
        String csrf = post(port(f), host, "text/plain", "https://evil.example", question());
        assertThat(status(csrf)).as(csrf).isIn(403, 415);
        String plain = post(port(f), host, "text/plain;charset=UTF-8", null, question());
        assertThat(status(plain)).isEqualTo(415);
        assertThat(plain).contains("Content-Type: application/json");
        String foreign = post(port(f), host, "application/json", "https://evil.example", question());
        assertThat(status(foreign)).isEqualTo(403);
        assertThat(foreign).contains("https://evil.example").contains("server.cors_origins");
        // the server's own page (same origin) and clients without an Origin (curl, SDKs) are served
        assertThat(status(post(port(f), host, "application/json", "http://" + host, question()))).isEqualTo(200);
        assertThat(status(post(port(f), host, "application/json; charset=utf-8", null, question()))).isEqualTo(200);
    }

    @Test void corsIsOffByDefaultAndAnsweredOnlyForConfiguredOrigins() throws Exception {
        String preflight = "OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: %s\r\nOrigin: https://app.example\r\n"
                + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n";
        ServerFixture off = start(null);
        String refused = raw(port(off), String.format(preflight, "127.0.0.1:" + port(off)), null);
        assertThat(status(refused)).isEqualTo(403);
        assertThat(refused.toLowerCase()).doesNotContain("access-control-allow-origin");

        ServerFixture on = start(null, "server.cors_origins=https://app.example");
        String allowed = raw(port(on), String.format(preflight, "127.0.0.1:" + port(on)), null);
        assertThat(status(allowed)).isEqualTo(204);
        assertThat(allowed).containsIgnoringCase("Access-Control-Allow-Origin: https://app.example")
                .containsIgnoringCase("Access-Control-Allow-Headers: Authorization, Content-Type");
        String call = post(port(on), "127.0.0.1:" + port(on), "application/json", "https://app.example", question());
        assertThat(status(call)).isEqualTo(200);
        assertThat(call).containsIgnoringCase("Access-Control-Allow-Origin: https://app.example");
    }

    // ---- item 6: slow clients -------------------------------------------------------------------------------------

    /**
     * Sends {@code head}, then {@code bytes} one every 100 ms; returns true when the server answered or closed
     * the connection before the last byte was sent (it stopped waiting for the client).
     */
    private static boolean trickleIsCutOff(int port, byte[] head, byte[] bytes) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(head);
            out.flush();
            s.setSoTimeout(100);
            for (int i = 0; i < bytes.length; i++) {
                try {
                    out.write(bytes[i]);
                    out.flush();
                } catch (SocketException closed) {
                    return true;
                }
                try {
                    in.read(); // a byte of an answer, or -1: the server is done with this connection
                    return i < bytes.length - 1;
                } catch (java.net.SocketTimeoutException stillWaiting) {
                    // the server is still reading; send the next byte
                } catch (SocketException reset) {
                    return true;
                }
            }
            return false;
        }
    }

    @Test void aClientSendingItsHeadersOneByteAtATimeIsCutOff() throws Exception {
        ServerFixture f = start(null, "server.header_timeout_s=1");
        // 300 header bytes at one per 100 ms would take 30 s; the server gives the headers 1 s
        byte[] slow = ("X-Padding: " + "p".repeat(300) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(trickleIsCutOff(port(f), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.ISO_8859_1), slow))
                .as("the connection was closed before the headers were complete").isTrue();
        // a normal client is still served
        assertThat(status(raw(port(f), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", null))).isEqualTo(200);
    }

    @Test void aClientSendingItsBodyOneByteAtATimeGets408() throws Exception {
        ServerFixture f = start(null, "server.read_timeout_s=1");
        byte[] body = question().getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        assertThat(trickleIsCutOff(port(f), head.getBytes(StandardCharsets.ISO_8859_1), java.util.Arrays.copyOf(body, 300)))
                .as("the server stopped waiting for the body").isTrue();
    }

    // ---- item 5: pixels per request --------------------------------------------------------------------------------

    @Test void manyLargeImagesInOneRequestAreRefusedFromTheirHeadersBeforeAnyIsDecoded() throws Exception {
        ServerFixture f = start(null);
        // five 6000² PNGs: complete files on the outside, 36 MP each by their headers, a few bytes on the wire
        String url = "data:image/png;base64," + Base64.getEncoder().encodeToString(Pngs.claiming(6000, 6000));
        String[] urls = {url, url, url, url, url};
        var r = f.post("/v1/chat/completions", ServerFixture.request("single", "What colour?\nA. red\nB. blue", false, urls));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(ServerFixture.json(r).at("/error/message").asText())
                .contains("more than 100.0 megapixels together").contains("server.max_request_megapixels");
        assertThat(f.server.metrics().render()).doesNotContain("status=\"500\"");
    }

    @Test void imagesAreKeptNoLargerThanTheBackendCanUse() throws Exception {
        Map<String, String> none = Map.of();
        ServerSettings settings = ServerSettings.fromConfig(Config.defaults().withOverrides(none), "127.0.0.1", 0, null, dir.resolve("t.db"));
        ScriptedBackend small = new ScriptedBackend("small", new dev.gamagent.backend.Capabilities(true, false, 0, true, true, 10_000),
                req -> ScriptedBackend.result("A", List.of()));
        ServerFixture f = new ServerFixture(settings, small, Map.of(), List.of());
        open.add(f);
        String big = new Picture("big", ServerFixture.image(400, 300)).dataUrl();
        var r = f.post("/v1/chat/completions", ServerFixture.request("single", "What colour?\nA. red\nB. blue", false, big));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        var sent = small.requests.get(0).messages().stream().flatMap(m -> m.parts().stream())
                .filter(p -> p instanceof dev.gamagent.backend.ChatMessage.Image).map(p -> ((dev.gamagent.backend.ChatMessage.Image) p).picture())
                .toList();
        assertThat(sent).isNotEmpty().allSatisfy(p -> assertThat(p.pixels()).isLessThanOrEqualTo(10_000));
    }

    // ---- item 7: a key typed into a question does not reach the trace database --------------------------------------

    @Test void aKeyTypedIntoTheQuestionIsRedactedInTheTraceDatabase() throws Exception {
        String key = "sk-server-key-0123456789abcdef";
        ServerFixture f = start(key);
        f.bearer = key;
        var r = f.post("/v1/chat/completions", ServerFixture.request("single", "my key is " + key + ", what colour?\nA. red\nB. blue",
                false, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        f.close();
        open.remove(f);
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("traces.db")); var s = c.createStatement();
             var rs = s.executeQuery("SELECT question, json FROM traces")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).doesNotContain(key).contains("[redacted]");
            assertThat(rs.getString(2)).doesNotContain(key);
        }
    }
}
