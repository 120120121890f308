package dev.gamagent.cli;

import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's plumbing with a scripted backend (a test tool); the real demo uses the built-in local model. */
class DemoCommandTest {
    @TempDir Path dir;

    private int run(DemoCommand cmd, ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            CommandLine cl = new CommandLine(cmd);
            cl.setErr(new java.io.PrintWriter(err, true));
            cl.setExecutionExceptionHandler((ex, c, p) -> { c.getErr().println("error: " + ex.getMessage()); return 1; });
            return cl.execute(args);
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
    }

    @Test void theDemoRunsTheRegisteredMethodsAndPrintsATablePerFamily() throws Exception {
        ScriptedBackend b = ScriptedBackend.text(r -> r.messages().toString().contains("How many") ? "ANSWER: B" : "ANSWER: A");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = run(new DemoCommand((spec, cfg) -> {
            assertThat(spec.kind()).isEqualTo("local");
            return b;
        }, "/bench-test/mini.tsv"), out, err, "--out", dir.toString());
        String table = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(table).contains("method").contains("color").contains("count").contains("shape").contains("single")
                .contains("66.7%").contains("report.html");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("id=chart-cost", "id=sample-list", "id=gam-data");
        assertThat(Files.readAllLines(dir.resolve("results.jsonl"))).hasSize(3 * dev.gamagent.MethodRegistry.listed().stream()
                .filter(DemoCommand.METHODS::contains).toList().size());
    }

    @Test void theDemoAsksItsVideoQuestionFromFrameFoldersAfterItsImageQuestions() throws Exception {
        ScriptedBackend b = ScriptedBackend.text(r -> "ANSWER: A");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = run(new DemoCommand((spec, cfg) -> b, DemoCommand.RESOURCE), out, err, "--out", dir.toString());
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("61 questions (1 of them about a video)");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("video").contains("temporal");
        List<com.fasterxml.jackson.databind.JsonNode> video = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("results.jsonl"))) {
            com.fasterxml.jackson.databind.JsonNode r = dev.gamagent.util.Json.MAPPER.readTree(line);
            if (r.path("category").asText().equals("video") && r.path("method").asText().equals("single")) video.add(r);
        }
        assertThat(video).hasSize(1).allSatisfy(r -> assertThat(r.path("trace").path("question").path("images")).hasSize(8));
        assertThat(video).extracting(r -> r.path("questionId").asText()).containsExactly("60");
        assertThat(dir.resolve("demo-videos_videos/60/frame-00.png")).exists();
        assertThat(dir.resolve("demo-videos_videos/60/frame-23.png")).exists();
        // --limit keeps the first N questions of the whole demo: 60 leaves no room for the videos.
        Files.deleteIfExists(dir.resolve("results.jsonl"));
        ByteArrayOutputStream out2 = new ByteArrayOutputStream(), err2 = new ByteArrayOutputStream();
        assertThat(run(new DemoCommand((spec, cfg) -> b, DemoCommand.RESOURCE), out2, err2, "--out", dir.toString(), "--limit", "5")).isZero();
        assertThat(err2.toString(StandardCharsets.UTF_8)).contains("5 questions (0 of them about a video)");
    }

    @Test void aMissingBundledBenchmarkIsAClearError() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = run(new DemoCommand((spec, cfg) -> ScriptedBackend.text(r -> "A"), "/bench/absent.tsv"), out, err, "--out", dir.toString());
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("/bench/absent.tsv").contains("missing");
    }
}
