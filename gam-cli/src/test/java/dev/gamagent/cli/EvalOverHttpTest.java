package dev.gamagent.cli;

import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** gam eval against a real HTTP server: how many requests it keeps in flight, and what image bytes it sends. */
class EvalOverHttpTest {
    @TempDir Path dir;

    private record Run(int code, String out, String err) { }

    private static Run eval(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            CommandLine cl = new CommandLine(new EvalCommand());
            cl.setExecutionExceptionHandler((ex, c, p) -> { ex.printStackTrace(); return 1; });
            return new Run(cl.execute(args), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
    }

    private static byte[] image(String format) throws IOException {
        BufferedImage img = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(5, 5, 20, 10);
        g.dispose();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ImageIO.write(img, format, b);
        return b.toByteArray();
    }

    private Path questions(int n, byte[] image) throws IOException {
        StringBuilder sb = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        sb.append("0\t").append(Base64.getEncoder().encodeToString(image)).append("\tWhat colour is the box?\tred\tblue\tA\tcolor\n");
        for (int i = 1; i < n; i++) sb.append(i).append("\t0\tWhat colour is box ").append(i).append("?\tred\tblue\tA\tcolor\n");
        return Files.writeString(dir.resolve("q.tsv"), sb.toString());
    }

    /** Holds every reply until {@code n} requests are in flight together (or 20 s pass). */
    private static Reply gate(CountDownLatch all, Received r) {
        all.countDown();
        try {
            all.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Reply.answer("ANSWER: A");
    }

    @Test void concurrencyIsNotCappedByADefaultPerEndpointLimit() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            CountDownLatch sixteen = new CountDownLatch(16);
            java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
            // the first request goes alone (the backend learns the endpoint is up before the rest go): answer it at once
            server.respondWith(r -> seen.incrementAndGet() == 1 ? Reply.answer("ANSWER: A") : gate(sixteen, r));
            Run r = eval("--data", questions(32, image("png")).toString(), "--methods", "single", "--out", dir.resolve("run").toString(),
                    "--backend", "openai", "--base-url", server.baseUrl(), "--model", "m", "--concurrency", "16");
            assertThat(r.code()).as(r.err()).isZero();
            // before: --max-concurrent's default of 8 per endpoint silently capped --concurrency 16 at 8
            assertThat(server.peakConcurrent()).isEqualTo(16);
            assertThat(r.err()).doesNotContain("warning");
        }
    }

    @Test void aPerEndpointLimitBelowTheConcurrencyIsWarnedAbout() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            Run r = eval("--data", questions(6, image("png")).toString(), "--methods", "single", "--out", dir.resolve("run").toString(),
                    "--backend", "openai", "--base-url", server.baseUrl(), "--model", "m", "--concurrency", "6", "--max-concurrent", "2");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.err()).contains("warning: --max-concurrent 2 × 1 endpoint allows 2 requests in flight, fewer than the 6 questions");
            assertThat(server.peakConcurrent()).isLessThanOrEqualTo(2);
        }
    }

    @Test void aJpegFromTheBenchmarkFileIsSentAsStoredNotReencoded() throws Exception {
        byte[] jpeg = image("jpeg");
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            Run r = eval("--data", questions(2, jpeg).toString(), "--methods", "single", "--out", dir.resolve("run").toString(),
                    "--backend", "openai", "--base-url", server.baseUrl(), "--model", "m");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(server.chatRequests()).hasSize(2).allSatisfy(req -> assertThat(req.body())
                    .contains("\"data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg) + "\"")
                    .doesNotContain("data:image/png"));
        }
    }
}
