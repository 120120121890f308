package dev.gamagent.eval;

import dev.gamagent.backend.BackendException;
import dev.gamagent.cli.BackendSource;
import dev.gamagent.cli.EvalCommand;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.load.TestImages;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.Pngs;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, items 1–4 and the eval half of 8: `gam eval` through picocli over files a hostile but fair
 * user might hand it (huge, truncated and corrupt images, a stray Latin-1 byte, a multiple-choice row that
 * lost its options), a resume into another run's directory, and a dead backend. Black-box on purpose:
 * each test only uses the command line, so it ran (and failed) against the code before the fix.
 */
class EvalInputRobustnessTest {
    @TempDir Path dir;

    private static CommandRun eval(BackendSource backends, String... args) { return CommandRun.likeMain(new EvalCommand(backends), args); }

    /** Counts calls; answers "ANSWER: A". */
    private static final class Counting implements BackendSource {
        final AtomicInteger calls = new AtomicInteger();

        @Override public dev.gamagent.backend.Backend create(dev.gamagent.backend.BackendSpec spec, dev.gamagent.config.Config config) {
            return ScriptedBackend.text(r -> {
                calls.incrementAndGet();
                return "ANSWER: A";
            });
        }
    }

    private static String tsv(String... rows) {
        StringBuilder sb = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        for (String r : rows) sb.append(r).append('\n');
        return sb.toString();
    }

    private static String row(String index, String image, String question, String a, String b, String answer) {
        return String.join("\t", index, image, question, a, b, answer, "c");
    }

    private static String img() { return TestImages.base64(8, 8, Color.RED); }

    private List<String> outcomes(Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l : Files.readAllLines(out.resolve("results.jsonl"))) {
            var n = Json.MAPPER.readTree(l);
            lines.add(n.path("questionId").asText() + ":" + n.path("outcome").asText());
        }
        return lines;
    }

    // ---- item 1: a huge image is refused from its header, naming the row and the limit ---------------------------

    @Test void aSixteenThousandSquareImageIsSkippedAtLoadNamingTheRowAndTheLimit() throws Exception {
        String huge = Base64.getEncoder().encodeToString(Pngs.claiming(16_000, 16_000));
        Path data = Files.writeString(dir.resolve("big.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "A"),
                row("2", huge, "Q two?", "red", "blue", "A"), row("3", huge, "Q three?", "red", "blue", "A")));
        CommandRun r = eval(new Counting(), "--data", data.toString(), "--methods", "single", "--out", dir.resolve("run").toString(),
                "--concurrency", "4");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("skipped big.tsv row 2 (line 3): 16000x16000 pixels (256.0 megapixels) is larger than the limit of 100.0 megapixels");
        assertThat(r.err()).contains("skipped big.tsv row 3 (line 4):");
        assertThat(outcomes(dir.resolve("run"))).containsExactly("1:correct");
    }

    // ---- item 2: a resume with another model or file is refused, saying what differs ----------------------------

    @Test void resumingWithAnotherModelOrDataFileIsRefusedSayingWhatDiffers() throws Exception {
        Path data = Files.writeString(dir.resolve("a.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "A"), row("2", "1", "Q two?", "red", "blue", "B")));
        Path other = Files.writeString(dir.resolve("b.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "B"), row("2", "1", "Q two?", "red", "blue", "B")));
        Path out = dir.resolve("run");
        Counting backend = new Counting();
        assertThat(eval(backend, "--data", data.toString(), "--methods", "single", "--out", out.toString(), "--model", "m1").code()).isZero();
        int calls = backend.calls.get();

        CommandRun otherModel = eval(backend, "--data", data.toString(), "--methods", "single", "--out", out.toString(), "--model", "m2");
        assertThat(otherModel.code()).isEqualTo(1);
        assertThat(otherModel.err()).contains("model: m1 → m2").contains("--force-new").contains("another --out");
        CommandRun otherFile = eval(backend, "--data", other.toString(), "--methods", "single", "--out", out.toString(), "--model", "m1");
        assertThat(otherFile.code()).isEqualTo(1);
        assertThat(otherFile.err()).contains("data file: a.tsv").contains("→ b.tsv");
        CommandRun otherSetting = eval(backend, "--data", data.toString(), "--methods", "single", "--out", out.toString(), "--model", "m1",
                "--set", "single.max_tokens=64");
        assertThat(otherSetting.code()).isEqualTo(1);
        assertThat(otherSetting.err()).contains("setting single.max_tokens: 256 → 64");
        assertThat(backend.calls.get()).as("no call was made for a refused resume").isEqualTo(calls);
        assertThat(RunSummary.read(out.resolve("summary.json")).data()).isEqualTo("a.tsv");

        // the same run resumes without calls; --force-new starts over and keeps the old results aside
        assertThat(eval(backend, "--data", data.toString(), "--methods", "single", "--out", out.toString(), "--model", "m1").code()).isZero();
        assertThat(backend.calls.get()).isEqualTo(calls);
        CommandRun fresh = eval(backend, "--data", other.toString(), "--methods", "single", "--out", out.toString(), "--model", "m2", "--force-new");
        assertThat(fresh.code()).as(fresh.err()).isZero();
        assertThat(backend.calls.get()).isEqualTo(2 * calls);
        assertThat(RunSummary.read(out.resolve("summary.json")).data()).isEqualTo("b.tsv");
        try (var s = Files.list(out)) {
            Path aside = s.filter(p -> p.getFileName().toString().startsWith("discarded-")).findFirst().orElseThrow();
            assertThat(aside.resolve("results.db")).exists();
            assertThat(RunSummary.read(aside.resolve("summary.json")).data()).isEqualTo("a.tsv");
        }
    }

    // ---- item 3: one byte that is not UTF-8 skips its row, naming row, offset and line -------------------------

    @Test void aLatin1ByteSkipsOnlyItsRowNamingOffsetAndLine() throws Exception {
        byte[] good = tsv(row("1", img(), "Q one?", "red", "blue", "A"), row("2", "1", "Q caf_?", "red", "blue", "A"),
                row("3", "1", "Q three?", "red", "blue", "A")).getBytes(StandardCharsets.UTF_8);
        int at = indexOf(good, "caf_".getBytes(StandardCharsets.US_ASCII)) + 3;
        good[at] = (byte) 0xE9; // 'é' in Latin-1
        Path data = Files.write(dir.resolve("latin.tsv"), good);
        CommandRun r = eval(new Counting(), "--data", data.toString(), "--methods", "single", "--out", dir.resolve("run").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("skipped latin.tsv row 2 (line 3): byte 0xE9 at offset " + at + " (line 3) is not valid UTF-8");
        assertThat(outcomes(dir.resolve("run"))).containsExactlyInAnyOrder("1:correct", "3:correct");
    }

    // ---- item 4: broken rows are skipped, not stored as errors that fail on every rerun --------------------------

    @Test void truncatedAndCorruptImagesAreSkippedRowsNotErrorsRetriedForever() throws Exception {
        byte[] full = TestImages.png(40, 30, Color.BLUE);
        String truncated = Base64.getEncoder().encodeToString(Arrays.copyOf(full, full.length / 2));
        // a complete file (signature, header, end chunk) whose compressed pixels are garbage: only decoding finds out
        String corrupt = Base64.getEncoder().encodeToString(Pngs.withPixelData(40, 30, "garbage, not zlib data at all".getBytes(StandardCharsets.US_ASCII)));
        Path data = Files.writeString(dir.resolve("broken.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "A"),
                row("2", truncated, "Q two?", "red", "blue", "A"), row("3", corrupt, "Q three?", "red", "blue", "A")));
        Path out = dir.resolve("run");
        Counting backend = new Counting();
        for (int attempt = 0; attempt < 2; attempt++) {
            CommandRun r = eval(backend, "--data", data.toString(), "--methods", "single,vote", "--out", out.toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.err()).contains("skipped broken.tsv row 2 (line 3): truncated PNG").contains("skipped broken.tsv row 3 (line 4): truncated or corrupt PNG");
            assertThat(r.err()).doesNotContain("failed");
            assertThat(outcomes(out)).containsExactlyInAnyOrder("1:correct", "1:correct");
            RunSummary s = RunSummary.read(out.resolve("summary.json"));
            assertThat(s.skipped()).extracting(SkippedRow::index).containsExactlyInAnyOrder("2", "3");
            assertThat(s.metrics().get("single").errors()).isZero();
        }
        assertThat(backend.calls.get()).as("row 1 ran once per method (vote: 3 agents); nothing was retried").isEqualTo(1 + 3);
    }

    @Test void aMultipleChoiceRowWithoutOptionsIsSkippedNotGradedAsOpen() throws Exception {
        Path data = Files.writeString(dir.resolve("mc.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "A"),
                row("2", "1", "Which colour?", "", "", "A"), row("3", "1", "How many dots?", "", "", "3")));
        CommandRun r = eval(new Counting(), "--data", data.toString(), "--methods", "single", "--out", dir.resolve("run").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("skipped mc.tsv row 2 (line 3): no options (columns A, B, ... are empty) but the answer 'A' names an option");
        // an open question mixed into the file (an answer that is not a letter) is still asked
        assertThat(outcomes(dir.resolve("run"))).containsExactlyInAnyOrder("1:correct", "3:wrong");
    }

    // ---- item 8: every pair failing is a failed run ---------------------------------------------------------------

    @Test void evalExitsNonZeroWhenEveryPairFailed() throws Exception {
        Path data = Files.writeString(dir.resolve("d.tsv"), tsv(row("1", img(), "Q one?", "red", "blue", "A"), row("2", "1", "Q two?", "red", "blue", "B")));
        BackendSource dead = (spec, config) -> ScriptedBackend.text(req -> {
            throw new BackendException.ConnectionFailed("cannot connect to http://127.0.0.1:9/v1 (is the server running?)", null);
        });
        CommandRun r = eval(dead, "--data", data.toString(), "--methods", "single", "--out", dir.resolve("run").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("error: all 2 question × method pairs failed").contains("cannot connect to http://127.0.0.1:9/v1");
        assertThat(dir.resolve("run/summary.json")).exists();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        throw new AssertionError("not found");
    }
}
