package dev.gamagent.reliability;

import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 5: a benchmark file of many small rows, every one naming the first row's image (as VLMEvalKit's
 * files name a row's image by its index), given to {@code gam eval} in a child JVM with a small heap, against an
 * OpenAI-compatible server on a socket. With {@code --limit 2} the index keeps the few rows the limit needs and the
 * run is graded; without it the file is refused in one line naming its rows and the heap, never an
 * OutOfMemoryError. The short mode: 300,000 rows in 64 MB; the full one: 5,000,002 rows in 256 MB (the issue's own).
 */
class ManyRowsTest {
    @TempDir static Path dir;
    private static Path tsv;
    private static final int ROWS = Suite.size(300_000, 5_000_002);
    private static final String HEAP = Suite.full() ? "256m" : "64m";
    /** command → result */
    private static final Map<String, String> TABLE = new LinkedHashMap<>();

    @BeforeAll static void writeTheFile() throws Exception {
        BufferedImage img = new BufferedImage(16, 16, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 16; y++) for (int x = 0; x < 16; x++) img.setRGB(x, y, 0xFF0000);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(img, "png", png);
        tsv = dir.resolve("many.tsv");
        try (BufferedWriter w = Files.newBufferedWriter(tsv, StandardCharsets.UTF_8)) {
            w.write("index\timage\tquestion\tA\tB\tanswer\n");
            w.write("0\t" + Base64.getEncoder().encodeToString(png.toByteArray()) + "\tWhat colour is it?\tred\tblue\tA\n");
            for (int i = 1; i < ROWS; i++) w.write(i + "\t0\tWhat colour is it?\tred\tblue\tA\n");
        }
    }

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| file | heap | command | result |\n|---|---|---|---|\n");
        String file = String.format(Locale.ROOT, "%,d rows naming row 0's image (%.0f MB)", ROWS, size(tsv) / 1e6);
        TABLE.forEach((cmd, result) -> t.append("| ").append(file).append(" | ").append(HEAP.replace("m", " MB")).append(" | `")
                .append(cmd).append("` | ").append(result.replace("|", "\\|")).append(" |\n"));
        Suite.report("many-rows", t.toString());
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    /** {@code gam eval} on the file in a child JVM with the heap named; {@code extra} are more options. */
    private static CliProcess.Result eval(OpenAiWireServer server, String out, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand(CliProcess.class.getName()));
        cmd.replaceAll(a -> a.startsWith("-Xmx") ? "-Xmx" + HEAP : a);
        cmd.addAll(List.of("eval", "--data", tsv.toString(), "--methods", "single", "--out", dir.resolve(out).toString(),
                "--backend", "openai", "--base-url", server.baseUrl(), "--model", "m", "--retries", "0"));
        cmd.addAll(List.of(extra));
        Path o = dir.resolve(out + ".out"), e = dir.resolve(out + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile()).start();
        if (!p.waitFor(900, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("gam eval in a " + HEAP + " heap did not finish; stderr:\n" + Files.readString(e));
        }
        return new CliProcess.Result(p.exitValue(), Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
    }

    private static void noOutOfMemory(CliProcess.Result r) {
        assertThat(r.err()).doesNotContain("OutOfMemoryError").doesNotContain("\tat ").doesNotContain("Exception in thread");
    }

    @Test void withALimitTheRunIsGradedInASmallHeap() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.answer("A"));
            CliProcess.Result r = eval(server, "limited", "--limit", "2");
            noOutOfMemory(r);
            assertThat(r.code()).as(r.err()).isZero();
            List<String> lines = Files.readAllLines(dir.resolve("limited/results.jsonl"));
            assertThat(lines).hasSize(2).allSatisfy(l -> assertThat(Json.MAPPER.readTree(l).path("outcome").asText()).as(l).isEqualTo("correct"));
            assertThat(server.chatRequests()).hasSize(2);
            TABLE.put("gam eval --data many.tsv --methods single --limit 2", "exit 0, 2 of 2 graded");
        }
    }

    @Test void withoutOneTheFileIsRefusedInOneLineNamingItsRowsAndTheHeap() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.answer("A"));
            CliProcess.Result r = eval(server, "whole");
            noOutOfMemory(r);
            assertThat(r.code()).isEqualTo(1);
            List<String> errors = r.err().lines().filter(l -> l.startsWith("error:")).toList();
            assertThat(errors).as(r.err()).singleElement().satisfies(l -> assertThat(l)
                    .contains(String.format(Locale.ROOT, "its %,d rows are more than a Java heap of %s MB can index", ROWS, HEAP.replace("m", "")))
                    .contains("give Java a larger heap").contains("--limit"));
            assertThat(server.chatRequests()).as("refused before any question").isEmpty();
            String line = errors.get(0).replace(tsv.toString(), "many.tsv");
            TABLE.put("gam eval --data many.tsv --methods single", "exit 1: " + line);
        }
    }
}
