package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.http.SlowModelServer;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 3: a burst of requests carrying megabytes of images, against a model server that takes 2 s to answer,
 * sent to a real {@code gam serve} in a child JVM with a small heap and the launcher's {@code gam-cli/jvm/serve.options}
 * (their periodic collection sooner).
 * Before, 100 such requests (8.4 MB images, -Xmx1g) got 30×200, 36×503, 25×500 with empty bodies and 9 dropped
 * connections, and the heap stayed at its high-water mark. Now every request is answered 200, 503 saying memory (with a
 * body and Retry-After) or 429; none 500, none dropped; the log says why each refusal was made; and once the burst is
 * over the heap's live data is small and its committed size shrinks back. The full suite sends 100 requests with 8 MB
 * images; the short mode 16 with 3 MB ones. The queue timeout is short so that some requests wait out their time and
 * are refused: the refusals are part of what is tested.
 */
class ServeMemoryBurstTest {
    @TempDir Path dir;
    private static final Map<String, String> ROWS = new LinkedHashMap<>();
    private static final String HEAP = "384m";

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| burst | result |\n|---|---|\n");
        ROWS.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n"));
        Suite.report("serve-memory", t.toString());
    }

    /** A PNG of random pixels (so it does not compress): about 3 bytes a pixel. */
    static byte[] noisePng(int side) {
        BufferedImage img = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(38);
        for (int y = 0; y < side; y++) for (int x = 0; x < side; x++) img.setRGB(x, y, r.nextInt(0x1000000));
        return new Picture("noise", img).png();
    }

    /** The launcher's options for {@code gam serve} (as ./gam reads them). */
    static List<String> serveOptions() throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(Path.of("gam-cli/jvm/serve.options"))) {
            String o = l.strip();
            if (!o.isEmpty() && !o.startsWith("#")) out.add(o);
        }
        return out;
    }

    /** The launcher's periodic collection interval (JEP 346), which the shrink after the burst relies on. */
    static final String PERIODIC_GC = "-XX:G1PeriodicGCInterval=";

    /**
     * The launcher's options with its periodic collection every 2 s instead of its 15 s: the shrink after the burst is made
     * by the same option (the test fails if the launcher drops it), only sooner, so that the test does not idle through
     * several 15 s intervals waiting for it.
     */
    static List<String> withShortPeriodicCollection(List<String> options) {
        assertThat(options).as("gam-cli/jvm/serve.options sets a periodic collection").anyMatch(o -> o.startsWith(PERIODIC_GC));
        List<String> out = new ArrayList<>(options);
        out.replaceAll(o -> o.startsWith(PERIODIC_GC) ? PERIODIC_GC + "2000" : o);
        return out;
    }

    /** {@code gam serve} in a child JVM with {@code heap}, the launcher's serve options and {@code sets}; returns it once it listens. */
    static Served serve(Path dir, String heap, String baseUrl, String... sets) throws Exception {
        List<String> cmd = CliProcess.javaCommand(CliProcess.class.getName());
        cmd.replaceAll(a -> a.startsWith("-Xmx") ? "-Xmx" + heap : a);
        cmd.addAll(1, withShortPeriodicCollection(serveOptions()));
        cmd.addAll(List.of("serve", "--port", "0", "--trace-db", dir.resolve("traces.db").toString(), "--backend", "openai",
                "--base-url", baseUrl, "--model", "m", "--retries", "0", "--max-concurrent", "16"));
        for (String s : sets) cmd.addAll(List.of("--set", s));
        Path out = dir.resolve("serve.out"), err = dir.resolve("serve.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        Pattern listening = Pattern.compile("gam serve: http://127\\.0\\.0\\.1:(\\d+)/");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            Matcher m = listening.matcher(Files.readString(out));
            if (m.find()) return new Served(p, Integer.parseInt(m.group(1)), err);
            if (!p.isAlive()) break;
            Thread.sleep(100);
        }
        p.destroyForcibly();
        throw new AssertionError("gam serve did not start; stderr:\n" + Files.readString(err));
    }

    record Served(Process process, int port, Path err) implements AutoCloseable {
        String url(String path) { return "http://127.0.0.1:" + port + path; }

        /** A /proc/PID/status field in kB (VmRSS: resident now, VmHWM: the most resident so far). */
        long procKb(String field) throws IOException {
            for (String l : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (l.startsWith(field + ":")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
            throw new AssertionError("no " + field + " in /proc/" + process.pid() + "/status");
        }

        @Override public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A gauge of the server's /metrics. */
    static long metric(HttpClient client, Served s, String name) throws Exception {
        String body = client.send(HttpRequest.newBuilder(URI.create(s.url("/metrics"))).build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String l : body.split("\n")) if (l.startsWith(name + " ")) return Long.parseLong(l.substring(name.length() + 1).strip());
        throw new AssertionError("no " + name + " in /metrics:\n" + body);
    }

    @Test void aBurstOfLargeImagesIsAnsweredOrRefusedInWordsAndTheHeapComesBack() throws Exception {
        int n = Suite.size(16, 100);
        int side = Suite.full() ? 1650 : 1000; // about 8 MB and 3 MB of PNG
        int queueTimeout = Suite.full() ? 20 : 6;
        byte[] png = noisePng(side);
        byte[] body = Json.write(Map.of("model", "single", "messages", List.of(Map.of("role", "user", "content", List.of(
                Map.of("type", "text", "text", "What colour is the noise?\nA. red\nB. blue"),
                Map.of("type", "image_url", "image_url", Map.of("url", "data:image/png;base64," + Base64.getEncoder().encodeToString(png))))))))
                .getBytes(StandardCharsets.UTF_8);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(60)).build();
        try (SlowModelServer model = new SlowModelServer(Duration.ofSeconds(2));
             Served s = serve(dir, HEAP, model.baseUrl(), "server.queue_timeout_s=" + queueTimeout)) {
            long rssBefore = s.procKb("VmRSS");
            long[] peakCommitted = {0};
            java.util.concurrent.atomic.AtomicBoolean bursting = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (bursting.get()) {
                    try {
                        peakCommitted[0] = Math.max(peakCommitted[0], metric(client, s, "gam_heap_committed_bytes"));
                        Thread.sleep(250);
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(client.sendAsync(HttpRequest.newBuilder(URI.create(s.url("/v1/chat/completions"))).timeout(Duration.ofSeconds(300))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Map<String, Integer> outcomes = new TreeMap<>();
            List<String> dropped = new ArrayList<>();
            String refusal = null;
            for (CompletableFuture<HttpResponse<String>> f : all) {
                HttpResponse<String> r;
                try {
                    r = f.get(600, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    dropped.add(String.valueOf(e.getCause()));
                    continue;
                }
                String code = r.statusCode() == 200 ? "" : Json.MAPPER.readTree(r.body().isEmpty() ? "{}" : r.body()).path("error").path("code").asText("(no body)");
                outcomes.merge(r.statusCode() + (code.isEmpty() ? "" : " `" + code + "`"), 1, Integer::sum);
                assertThat(r.statusCode()).as(r.body()).isIn(200, 429, 503);
                if (r.statusCode() == 503) {
                    JsonNode e = Json.MAPPER.readTree(r.body()).path("error");
                    assertThat(e.path("code").asText()).isEqualTo("server_out_of_memory");
                    assertThat(e.path("message").asText()).contains("memory");
                    assertThat(r.headers().firstValue("Retry-After")).isPresent();
                    refusal = e.path("message").asText();
                }
            }
            assertThat(dropped).as("connections closed without an answer").isEmpty();
            assertThat(outcomes).as("status → count").containsKey("200");
            bursting.set(false);
            sampler.join(10_000);
            long peakRssKb = s.procKb("VmHWM");
            // the burst is over: the launcher's periodic collection (G1PeriodicGCInterval) shrinks the heap while the server idles
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            long committed = peakCommitted[0], used = metric(client, s, "gam_heap_used_bytes");
            while (System.nanoTime() < end) {
                committed = metric(client, s, "gam_heap_committed_bytes");
                used = metric(client, s, "gam_heap_used_bytes");
                if (committed <= 96L << 20) break;
                Thread.sleep(1000);
            }
            long rssAfter = s.procKb("VmRSS");
            assertThat(metric(client, s, "gam_request_memory_reserved_bytes")).as("bytes still reserved after the burst").isZero();
            assertThat(used).as("heap in use once the idle server has collected").isLessThan(96L << 20);
            // 96 MB is where the shrink usually ends within the 90 s; on a machine under load 10+ (2026-12-05) it had reached
            // 100 MB of a 281 MB peak, so the bound is 128 MB: far below the burst's peak, the point of the check
            assertThat(committed).as("heap the idle server still holds from the system (peak " + (peakCommitted[0] >> 20) + " MB)").isLessThanOrEqualTo(128L << 20);
            String log = Files.readString(s.err());
            assertThat(log).as("log").doesNotContain("status=500").doesNotContain("OutOfMemoryError");
            if (outcomes.keySet().stream().anyMatch(k -> k.startsWith("503"))) {
                assertThat(log).as("the log says why requests were refused").containsPattern("status=503 .*server_out_of_memory");
            }
            String sizes = String.format(Locale.ROOT, "%d requests at once, each a %.1f MB PNG (a %.1f MB body); model answers in 2 s; "
                    + "-Xmx%s, queue timeout %d s", n, png.length / 1e6, body.length / 1e6, HEAP, queueTimeout);
            StringBuilder result = new StringBuilder();
            outcomes.forEach((k, v) -> result.append(result.length() == 0 ? "" : ", ").append(v).append("× ").append(k));
            result.append("; none 500, none dropped. RSS ").append(rssBefore >> 10).append(" MB before, peak ").append(peakRssKb >> 10)
                    .append(" MB, ").append(rssAfter >> 10).append(" MB once idle; heap committed ").append(peakCommitted[0] >> 20).append(" → ")
                    .append(committed >> 20).append(" MB, in use after ").append(used >> 20).append(" MB");
            if (refusal != null) result.append(". A refusal: ").append(refusal);
            ROWS.put(sizes, result.toString());
        }
    }
}
