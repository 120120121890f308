package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.BigPng;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, item 6: a 100-megapixel PNG with 16 bits per sample is within the limits (100 MP) but its pixels take
 * 600 MB. {@code gam eval} in a 1 GB heap reads it subsampled to the size the model gets, never allocating the full
 * image; in a heap too small even for that, the message says memory, not "truncated or corrupt". Child processes
 * with the heap sizes named, against an OpenAI-compatible server on a socket.
 */
class HugeImageTest {
    @TempDir static Path dir;
    private static Path tsv;
    /** input → {heap, result} */
    private static final Map<String, String[]> ROWS = new LinkedHashMap<>();

    @BeforeAll static void writeTheImage() throws Exception {
        BigPng.write(dir.resolve("huge.png"), 10_000, 10_000);
        tsv = Files.writeString(dir.resolve("huge.tsv"), "index\timage_path\tquestion\tA\tB\tanswer\n"
                + "1\thuge.png\tWhat colour is the left half?\tred\tblue\tA\n");
    }

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| input | heap | result |\n|---|---|---|\n");
        ROWS.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(v[0]).append(" | ").append(v[1].replace("|", "\\|")).append(" |\n"));
        Suite.report("huge-images", t.toString());
    }

    /** {@code gam eval} on the huge image in a child JVM with {@code heap} (e.g. "1g"). */
    private static CliProcess.Result eval(String heap, OpenAiWireServer server, String out) throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand(CliProcess.class.getName()));
        cmd.replaceAll(a -> a.startsWith("-Xmx") ? "-Xmx" + heap : a);
        cmd.addAll(List.of("eval", "--data", tsv.toString(), "--methods", "single", "--out", dir.resolve(out).toString(),
                "--backend", "openai", "--base-url", server.baseUrl(), "--model", "m", "--retries", "0"));
        Path o = dir.resolve(out + ".out"), e = dir.resolve(out + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile()).start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("gam eval in a " + heap + " heap did not finish; stderr:\n" + Files.readString(e));
        }
        return new CliProcess.Result(p.exitValue(), Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
    }

    /** The size of the first image the server received. */
    private static String sentSize(Received r) {
        String url = r.json().at("/messages/0/content").findValue("url").asText();
        Picture p = dev.gamagent.image.ImageLoader.fromDataUrl("sent", url);
        return p.width() + "x" + p.height();
    }

    @Test void aHundredMegapixelSixteenBitPngIsEvaluatedInAOneGigabyteHeap() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.answer("A"));
            CliProcess.Result r = eval("1g", server, "run-1g");
            assertThat(r.code()).as(r.err()).isZero();
            List<String> lines = Files.readAllLines(dir.resolve("run-1g/results.jsonl"));
            assertThat(lines).hasSize(1);
            JsonNode rec = Json.MAPPER.readTree(lines.get(0));
            assertThat(rec.path("outcome").asText()).as(lines.get(0)).isEqualTo("correct");
            assertThat(server.chatRequests()).hasSize(1);
            String sent = sentSize(server.chatRequests().get(0));
            String[] wh = sent.split("x");
            assertThat((long) Integer.parseInt(wh[0]) * Integer.parseInt(wh[1])).as("what the backend can take").isLessThanOrEqualTo(12_845_056L);
            ROWS.put("a 10000×10000 PNG, 16 bits per sample (100 MP: within the limit; 600 MB of pixels)", new String[] {"1 GB", "graded, the image sent at "
                    + sent + " (read at every 2nd pixel of every 2nd row, then downscaled to the backend's limit)"});
        }
    }

    @Test void inAHeapTooSmallEvenForThatTheMessageBlamesMemoryNotTheFile() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            CliProcess.Result r = eval("160m", server, "run-160m");
            String all = r.err() + (Files.exists(dir.resolve("run-160m/results.jsonl")) ? Files.readString(dir.resolve("run-160m/results.jsonl")) : "");
            assertThat(all).contains("not enough memory").contains("not at fault").doesNotContain("truncated or corrupt");
            String line = all.lines().filter(l -> l.contains("not enough memory")).findFirst().orElseThrow();
            line = line.replace(dir.toString() + "/", "");
            int at = line.indexOf("huge");
            ROWS.put("the same PNG", new String[] {"160 MB", (line.startsWith("skipped") ? "row skipped: " : "")
                    + (at >= 0 ? line.substring(at) : line).replaceAll("\"[,}].*", "")});
        }
    }
}
