package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 3: the heap running out inside a request, and a request whose bytes do not fit. The first is answered
 * 503 with a body that says memory (an event of the stream when the answer was already streaming), never a 500 with an
 * empty body, and the server answers the next request; the second waits, then is refused with 503 and Retry-After, and
 * the refusal reaches a client that is still sending its body (its connection is not reset under it).
 */
class ServerMemoryTest {
    @TempDir Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach void closeAll() throws Exception {
        for (AutoCloseable c : open) c.close();
    }

    /** A method whose run exhausts the heap, as a large image's copies once did. */
    static final class Exhausting implements Method {
        @Override public String name() { return "exhausting"; }

        @Override public Answer run(Question question, RunContext context) {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    private ServerFixture start(ServerSettings settings, ScriptedBackend backend) throws Exception {
        ServerFixture f = new ServerFixture(settings, backend, Map.<String, Supplier<Method>>of("exhausting", Exhausting::new), List.of());
        open.add(f);
        return f;
    }

    @Test void aRequestDuringWhichTheHeapRunsOutIs503SayingMemoryAndTheServerGoesOn() throws Exception {
        ServerFixture f = start(ServerFixture.settings(dir), ScriptedBackend.text(r -> "A"));
        HttpResponse<String> r = f.post("/v1/chat/completions", ServerFixture.request("exhausting", "What colour?\nA. red\nB. blue", false,
                ServerFixture.dataUrl()));
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("5");
        JsonNode e = ServerFixture.json(r).path("error");
        assertThat(e.path("code").asText()).isEqualTo("server_out_of_memory");
        assertThat(e.path("message").asText()).contains("ran out of memory", "heap of", "-Xmx");

        HttpResponse<String> s = f.post("/v1/chat/completions", ServerFixture.request("exhausting", "What colour?\nA. red\nB. blue", true,
                ServerFixture.dataUrl()));
        assertThat(s.statusCode()).as("a stream's headers are sent before the method runs").isEqualTo(200);
        assertThat(s.body()).contains("\"code\":\"server_out_of_memory\"").contains("data: [DONE]");

        HttpResponse<String> next = f.post("/v1/chat/completions", ServerFixture.request("single", "What colour?\nA. red\nB. blue", false,
                ServerFixture.dataUrl()));
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(f.get("/metrics").body()).contains("gam_questions_total{method=\"exhausting\",backend=\"scripted\",status=\"503\"} 2");
    }

    /** A PNG of {@code side}² random pixels: about 3 bytes a pixel. */
    private static byte[] noisePng(int side) {
        BufferedImage img = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(38);
        for (int y = 0; y < side; y++) for (int x = 0; x < side; x++) img.setRGB(x, y, r.nextInt(0x1000000));
        return new Picture("noise", img).png();
    }

    @Test void aBodyThatDoesNotFitWaitsThenIsRefusedWith503AndTheClientStillSendingItReadsWhy() throws Exception {
        // a budget of 16 MB; one request waits at the model holding its images' share, then an 8 MB body arrives
        double fraction = 16.0 * (1 << 20) / Runtime.getRuntime().maxMemory();
        Config config = Config.defaults().withOverrides(Map.of("server.request_memory_fraction", String.format(Locale.ROOT, "%.6f", fraction),
                "server.queue_timeout_s", "1"));
        ServerSettings settings = ServerSettings.fromConfig(config, "127.0.0.1", 0, null, dir.resolve("traces.db"));
        CountDownLatch entered = new CountDownLatch(1), release = new CountDownLatch(1);
        ServerFixture f = start(settings, ScriptedBackend.text(r -> {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "A";
        }));
        // 1500² pixels kept at 8 bytes each: more than the whole budget, so it runs alone and holds all of it
        String held = new Picture("flat", ServerFixture.image(1500, 1500)).dataUrl();
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return f.post("/v1/chat/completions", ServerFixture.request("single", "What colour?\nA. red\nB. blue", false, held));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();

        byte[] body = Json.write(ServerFixture.request("single", "What colour?\nA. red\nB. blue", false,
                "data:image/png;base64," + Base64.getEncoder().encodeToString(noisePng(1700)))).getBytes(StandardCharsets.UTF_8);
        String answer;
        try (Socket s = new Socket("127.0.0.1", f.server.port())) {
            s.setSoTimeout(60_000);
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            InputStream in = s.getInputStream();
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            sending.get(60, TimeUnit.SECONDS); // the whole body was taken: the client saw no reset
        }
        release.countDown();
        assertThat(answer).startsWith("HTTP/1.1 503").contains("Retry-After: 5").contains("\"code\":\"server_out_of_memory\"")
                .contains("not enough memory for this request's body").contains("server.request_memory_fraction");
        assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
}
