package dev.gamagent.cli;

import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.Callable;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/** gam eval, report and sweep through picocli, with a scripted backend (a test tool). */
class EvalReportSweepCommandsTest {
    @TempDir Path dir;

    private String run(Callable<Integer> cmd, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            CommandLine cl = new CommandLine(cmd);
            cl.setExecutionExceptionHandler((ex, c, p) -> { ex.printStackTrace(); return 1; });
            code = cl.execute(args);
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    private Path bench(String name) throws Exception {
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        var bytes = new ByteArrayOutputStream();
        ImageIO.write(img, "png", bytes);
        String b64 = Base64.getEncoder().encodeToString(bytes.toByteArray());
        return Files.writeString(dir.resolve(name), "index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n"
                + "1\t" + b64 + "\tWhich is red?\tapple\tsky\tgrass\tA\tcolor\n"
                + "2\t1\tWhich is blue?\tapple\tsky\tgrass\tB\tcolor\n"
                + "3\t1\tWhich is green?\tapple\tsky\tgrass\tC\tshape\n");
    }

    /** Answers with the option text the question asks for, so every rotation is right. */
    private static ScriptedBackend knowing() {
        return ScriptedBackend.text(r -> {
            String t = r.messages().get(r.messages().size() - 1).text();
            return t.contains("red") ? "apple" : t.contains("blue") ? "sky" : "grass";
        });
    }

    @Test void evalOnAnMmbenchFileIsCircularByDefaultAndReportComparesRuns() throws Exception {
        Path data = bench("MMBench_mini.tsv");
        String out1 = run(new EvalCommand((s, c) -> knowing()), "--data", data.toString(), "--methods", "single", "--out", dir.resolve("a").toString());
        assertThat(out1).contains("100.0%");
        var summary = Json.MAPPER.readTree(dir.resolve("a/summary.json").toFile());
        assertThat(summary.path("circular").asBoolean()).isTrue();
        assertThat(Files.readAllLines(dir.resolve("a/results.jsonl"))).hasSize(9); // 3 questions × 3 rotations

        // the model's replies name no option; the judge (a named backend of the config) maps each to A
        ScriptedBackend judge = ScriptedBackend.text(r -> "A");
        run(new EvalCommand((s, c) -> "j".equals(s.model()) ? judge : ScriptedBackend.text(r -> "hmm, hard to tell")),
                "--data", data.toString(), "--methods", "single", "--out", dir.resolve("b").toString(), "--no-circular",
                "--category", "color", "--limit", "5", "--set", "backends.judge.kind=openai", "--set", "backends.judge.model=j",
                "--judge-backend", "judge");
        assertThat(judge.requests).hasSize(2);
        var b = Json.MAPPER.readTree(dir.resolve("b/summary.json").toFile());
        assertThat(b.path("circular").asBoolean()).isFalse();
        assertThat(b.path("questions").asInt()).isEqualTo(2);
        assertThat(b.path("metrics").path("single").path("accuracy").asDouble()).isEqualTo(0.5);

        Files.delete(dir.resolve("b/summary.json")); // as if killed before the end: the report reads results.db
        Path html = dir.resolve("cmp.html");
        String table = run(new ReportCommand(), dir.resolve("a").toString(), dir.resolve("b").toString(), "--out", html.toString());
        assertThat(table).contains("a / single").contains("b / single").contains("100.0%").contains("50.0%");
        String page = Files.readString(html);
        assertThat(page).contains("a / single").contains("b / single").contains("id=chart-cost").contains("id=sample-list");
        // the page carries both runs' answers (b's read from its results.db) for its sample list and trace viewer
        var embedded = dev.gamagent.util.Json.MAPPER.readTree(page.substring(page.indexOf("type=\"application/json\">") + 24,
                page.indexOf("</script>", page.indexOf("type=\"application/json\">"))));
        assertThat(embedded.path("runs")).hasSize(2);
        int ofB = 0;
        for (var row : embedded.at("/answers/rows")) if (row.get(1).asInt() == 1) ofB++;
        assertThat(ofB).as("rows of run b (run index 1) in the answer list").isGreaterThan(0);
    }

    @Test void sweepReDecidesStoredDebatesAndPrintsOneRowPerSetting() throws Exception {
        Path run = dir.resolve("g");
        try (ResultStore s = new ResultStore(run)) {
            s.put(dev.gamagent.eval.replay.SweepFixtures.recordedDebate());
        }
        String out = run(new SweepCommand(), run.toString(), "--theta-term", "0.15,0.35", "--theta-u", "0.5");
        assertThat(out.lines().filter(l -> l.matches("\\s*0\\.\\d+ .*"))).hasSize(2);
        assertThat(out).contains("0.000").contains("1.000");
    }
}
