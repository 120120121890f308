package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.report.QuestionHashes;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * gam report compares like with like: runs of `gam eval` are paired only within one benchmark and only on questions
 * asked with the same content (text, options, answer, image), whatever their ids.
 */
class ReportPairsAcrossRunsTest {
    @TempDir Path dir;

    static String run(Callable<Integer> cmd, String... args) {
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

    /** One TSV row: index, a small image of one colour, question, options apple/sky/grass, answer. */
    record Row(String index, Color color, String question, String answer) { }

    static String png(Color c) throws Exception {
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < 8; x++) for (int y = 0; y < 8; y++) img.setRGB(x, y, c.getRGB());
        var bytes = new ByteArrayOutputStream();
        ImageIO.write(img, "png", bytes);
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    static Path bench(Path file, List<Row> rows) throws Exception {
        StringBuilder b = new StringBuilder("index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n");
        for (Row r : rows) b.append(r.index()).append('\t').append(png(r.color())).append('\t').append(r.question())
                .append("\tapple\tsky\tgrass\t").append(r.answer()).append("\tcolor\n");
        Files.createDirectories(file.getParent());
        return Files.writeString(file, b.toString());
    }

    /** Ten questions q1..q10; the red ones' answer is A. */
    static List<Row> ten() {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= 10; i++) rows.add(new Row(Integer.toString(i), i % 2 == 0 ? Color.RED : Color.BLUE, "Question " + i + ": which fits?", i % 2 == 0 ? "A" : "B"));
        return rows;
    }

    /** A model that always answers {@code option}'s text. */
    static ScriptedBackend always(String text) { return ScriptedBackend.text(r -> text); }

    static Path eval(Path data, Path out, String method, String answer) {
        run(new EvalCommand((s, c) -> always(answer)), "--data", data.toString(), "--methods", method, "--out", out.toString(), "--no-circular");
        return out;
    }

    static JsonNode pageData(Path html) throws Exception {
        String page = Files.readString(html);
        int at = page.indexOf("type=\"application/json\">") + 24;
        return Json.MAPPER.readTree(page.substring(at, page.indexOf("</script>", at)));
    }

    @Test void evalRecordsAHashPerQuestionThatFollowsItsContentNotItsId() throws Exception {
        Path a = eval(bench(dir.resolve("x/bench.tsv"), ten()), dir.resolve("a"), "single", "apple");
        List<Row> renumbered = new ArrayList<>();
        for (Row r : ten()) renumbered.add(new Row("1" + r.index(), r.color(), r.question(), r.answer()));
        Path b = eval(bench(dir.resolve("y/bench.tsv"), renumbered), dir.resolve("b"), "single", "apple");
        Map<String, String> ha = QuestionHashes.read(Json.MAPPER.readTree(a.resolve("summary.json").toFile()));
        Map<String, String> hb = QuestionHashes.read(Json.MAPPER.readTree(b.resolve("summary.json").toFile()));
        assertThat(ha).hasSize(10);
        assertThat(hb.get("13")).isEqualTo(ha.get("3"));
        assertThat(ha.get("3")).isNotEqualTo(ha.get("5"));
        // the records are unchanged: no key was added to results.jsonl
        assertThat(Files.readString(a.resolve("results.jsonl"))).doesNotContain("hash");
    }

    @Test void runsOnTheSameFileArePairedOnEveryCommonQuestion() throws Exception {
        Path data = bench(dir.resolve("bench.tsv"), ten());
        Path a = eval(data, dir.resolve("a"), "single", "apple"), b = eval(data, dir.resolve("b"), "vote", "sky");
        Path html = dir.resolve("cmp.html");
        String table = run(new ReportCommand(), a.toString(), b.toString(), "--out", html.toString());
        // single right on the 5 red (A), vote (always B) right on the 5 blue: 5 vs 5 on all 10 questions
        String pair = table.lines().filter(l -> l.startsWith("b / vote vs a / single")).findFirst().orElseThrow();
        assertThat(pair).contains(" 10 ", "5 vs 5");
        assertThat(table).doesNotContain("warning:");
        JsonNode p = pageData(html).at("/pairs/pairs/0");
        assertThat(p.path("n").asInt()).isEqualTo(10);
        assertThat(p.path("family").asText()).isEqualTo("bench.tsv");
        assertThat(Files.readString(html)).doesNotContain("id=pairing-warnings")
                // each run's header: model and backend, configuration digest, commit (these tests run in a git checkout), date
                .containsPattern("<b>a</b>: model [^;<]+ on [^;<]+; configuration [0-9a-f]{12}; commit [0-9a-f]{12}; 20\\d\\d-\\d\\d-\\d\\dT[^;]+Z; bench.tsv; ");
    }

    @Test void runsOnDifferentFilesAreShownSideBySideAndNeverPaired() throws Exception {
        Path a = eval(bench(dir.resolve("one.tsv"), ten()), dir.resolve("a"), "single", "apple");
        // the same ids, even the same content: another benchmark file is another benchmark
        Path b = eval(bench(dir.resolve("two.tsv"), ten()), dir.resolve("b"), "single", "sky");
        Path html = dir.resolve("cmp.html");
        String table = run(new ReportCommand(), a.toString(), b.toString(), "--out", html.toString());
        assertThat(table).contains("a / single", "b / single").doesNotContain(" vs ");
        assertThat(table).contains("warning: different benchmarks: one.tsv (a); two.tsv (b)");
        assertThat(pageData(html).at("/pairs/pairs")).isEmpty();
        String page = Files.readString(html);
        assertThat(page).contains("id=pairing-warnings", "different benchmarks", "id=no-pairs").doesNotContain("id=pairs-table");
    }

    @Test void theSameIdWithOtherContentIsNeverPairedAndIsCounted() throws Exception {
        Path a = eval(bench(dir.resolve("x/bench.tsv"), ten()), dir.resolve("a"), "single", "apple");
        List<Row> changed = new ArrayList<>(ten());
        changed.set(0, new Row("1", Color.BLUE, "Question 1: which fits best?", "B")); // other text
        changed.set(1, new Row("2", Color.GREEN, "Question 2: which fits?", "A"));     // other image
        changed.set(2, new Row("3", Color.BLUE, "Question 3: which fits?", "C"));      // other answer
        Path b = eval(bench(dir.resolve("y/bench.tsv"), changed), dir.resolve("b"), "single", "sky");
        String table = run(new ReportCommand(), a.toString(), b.toString(), "--out", dir.resolve("cmp.html").toString());
        String pair = table.lines().filter(l -> l.startsWith("b / single vs a / single")).findFirst().orElseThrow();
        assertThat(pair).contains(" 7 ");
        assertThat(table).contains("warning: a and b: 3 questions have the same id but not the same content");
    }

    @Test void aRunWithoutHashesIsNotPairedAndSaysHowToAddThem() throws Exception {
        Path data = bench(dir.resolve("bench.tsv"), ten());
        Path a = eval(data, dir.resolve("a"), "single", "apple"), b = eval(data, dir.resolve("b"), "single", "sky");
        // b as written before hashes were recorded
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(b.resolve("summary.json").toFile());
        tree.remove(QuestionHashes.FIELD);
        Files.writeString(b.resolve("summary.json"), Json.write(tree));
        String table = run(new ReportCommand(), a.toString(), b.toString(), "--out", dir.resolve("cmp.html").toString());
        assertThat(table).doesNotContain("b / single vs a / single").contains("warning: b: its summary.json has no question hashes");
        // rerunning its command (nothing is answered again) writes them
        eval(data, b, "single", "sky");
        assertThat(run(new ReportCommand(), a.toString(), b.toString(), "--out", dir.resolve("cmp.html").toString()))
                .contains("b / single vs a / single").doesNotContain("warning:");
    }

    @Test void bootstrapIntervalsAreAvailableAndSaySo() throws Exception {
        Path data = bench(dir.resolve("bench.tsv"), ten());
        Path a = eval(data, dir.resolve("a"), "single", "apple"), b = eval(data, dir.resolve("b"), "single", "sky");
        String table = run(new ReportCommand(), a.toString(), b.toString(), "--out", dir.resolve("b.html").toString(), "--interval", "bootstrap");
        assertThat(table).contains("percentile bootstrap, 2000 resamples").contains("paired percentile bootstrap");
    }
}
