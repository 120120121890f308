package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.data.FileServer;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23 item 1 on the command line: {@code gam eval --data NAME} and {@code gam data list|fetch|verify}
 * against a mirror on 127.0.0.1 (the mirror is a setting: the code path is the official one's).
 */
class BenchmarkByNameTest {
    @TempDir Path dir;
    private FileServer mirror;
    private Path data;

    @BeforeEach void start() throws IOException {
        mirror = new FileServer();
        data = Files.createDirectories(dir.resolve("LMUData"));
    }

    @AfterEach void stop() { mirror.close(); }

    /** A VLMEvalKit TSV of one question about the triangle; {@code open} leaves out the options. */
    static byte[] tsv(boolean open) throws IOException {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(TriangleImage.draw(), "png", png);
        String img = Base64.getEncoder().encodeToString(png.toByteArray());
        String text = open
                ? "index\tquestion\tanswer\tcategory\timage\n0\tWhat colour is the triangle?\tred\tcolor\t" + img + "\n"
                : "index\tquestion\tA\tB\tanswer\tcategory\timage\n0\tWhat colour is the triangle?\tred\tgreen\tA\tcolor\t" + img + "\n";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private CommandRun eval(String name, Path out) {
        return CommandRun.main("eval", "--data", name, "--methods", "single", "--out", out.toString(), "--limit", "1",
                "--data-dir", data.toString(), "--data-mirror", mirror.base());
    }

    private static JsonNode summary(Path out) throws IOException { return Json.MAPPER.readTree(out.resolve("summary.json").toFile()); }

    @Test void aFileAlreadyInTheDataDirectoryIsUsedWithoutAnyNetworkAndAnotherMd5IsSaidAndRecorded() throws IOException {
        Files.write(data.resolve("MMStar.tsv"), tsv(false));
        Path out = dir.resolve("run");
        CommandRun r = eval("MMStar", out);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(mirror.requests()).isEmpty();
        assertThat(r.err()).contains("warning: MMStar", "md5 differs from the published e1ecd2140806c1b1bbf54b43372efb9e", "not the official file");
        JsonNode d = summary(out).get("data_file");
        assertThat(d.get("name").asText()).isEqualTo("MMStar");
        assertThat(d.get("official").asBoolean()).isFalse();
        assertThat(d.get("md5").asText()).hasSize(32).isNotEqualTo("e1ecd2140806c1b1bbf54b43372efb9e");
        assertThat(d.get("published_md5").asText()).isEqualTo("e1ecd2140806c1b1bbf54b43372efb9e");
        assertThat(d.get("catalogue").asText()).contains("VLMEvalKit e8e78f05");
        // the summary stays readable by everything that reads summaries (gam report)
        assertThat(dev.gamagent.eval.report.RunSummary.read(out.resolve("summary.json")).data()).isEqualTo("MMStar.tsv");
    }

    @Test void aFileGamDoesNotKnowIsReadOnceByTheLoaderAndItsSha256Recorded() throws Exception {
        Path own = Files.write(dir.resolve("my-bench.tsv"), tsv(false));
        Path out = dir.resolve("own");
        CommandRun r = eval(own.toString(), out);
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode d = summary(out).get("data_file");
        assertThat(d.get("check").asText()).isEqualTo("unknown");
        // not hashed ahead of the loader (a second read of the whole file): no md5, the index pass's sha256
        assertThat(d.get("md5").isNull()).isTrue();
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(tsv(false)));
        assertThat(d.get("sha256").asText()).isEqualTo(sha);
        assertThat(d.get("bytes").asLong()).isEqualTo(tsv(false).length);
    }

    @Test void aDirectoryGivenAsDataIsToldWhatItLacksNotThatItDoesNotExist() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("downloads"));
        Files.write(folder.resolve("MMStar.tsv"), tsv(false));
        CommandRun r = eval(folder.toString(), dir.resolve("run"));
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).doesNotContain("does not exist").contains(folder + " is a directory, not a benchmark file",
                "MVBench: json/", "it holds MMStar.tsv: pass one of them, e.g. --data " + folder.resolve("MMStar.tsv"));
    }

    @Test void aNameWithoutAPublishedMd5DownloadsOnceRecordsItsSha256AndTheSecondRunDoesNotDownload() throws IOException {
        mirror.put("/PathVQA_VAL.tsv", tsv(true));
        CommandRun first = eval("PathVQA_VAL", dir.resolve("a"));
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.err()).contains("downloading PathVQA_VAL.tsv", "(100%)", "sha256", "recorded now");
        assertThat(Files.readAllBytes(data.resolve("PathVQA_VAL.tsv"))).isEqualTo(tsv(true));
        assertThat(summary(dir.resolve("a")).get("data_file").get("check").asText()).isEqualTo("recorded_now");

        CommandRun second = eval("PathVQA_VAL", dir.resolve("b"));
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(mirror.requests()).hasSize(1);
        assertThat(second.err()).doesNotContain("downloading");
        JsonNode d = summary(dir.resolve("b")).get("data_file");
        assertThat(d.get("check").asText()).isEqualTo("same_as_first");
        assertThat(d.get("official").isNull()).isTrue();
        assertThat(d.get("first_sha256").asText()).isEqualTo(d.get("sha256").asText());
    }

    @Test void aMirrorsCopyWhoseMd5IsNotThePublishedOneIsKeptWithAWarningAsACopyInTheDataDirectoryIs() throws IOException {
        mirror.put("/MMStar.tsv", tsv(false));
        CommandRun r = CommandRun.main("data", "fetch", "MMStar", "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("warning: MMStar", "md5 differs from the published e1ecd2140806c1b1bbf54b43372efb9e", "not the official file");
        assertThat(r.out()).contains("fetched MMStar", "not the official file");
        assertThat(Files.readAllBytes(data.resolve("MMStar.tsv"))).isEqualTo(tsv(false));
        CommandRun viaEval = eval("MMStar", dir.resolve("run"));
        assertThat(viaEval.code()).as(viaEval.err()).isZero();
        assertThat(mirror.requests()).as("the kept copy is used, not downloaded again").hasSize(1);
        assertThat(viaEval.err()).contains("md5 differs from the published");
        assertThat(summary(dir.resolve("run")).get("data_file").get("check").asText()).isEqualTo("differs");
    }

    @Test void fetchOfSeveralNamesFetchesAllItCanAndEndsWithASummary() throws IOException {
        mirror.put("/MMStar.tsv", tsv(false)).put("/PathVQA_VAL.tsv", tsv(true));
        CommandRun r = CommandRun.main("data", "fetch", "MMStar", "NoSuchBench", "POPE", "MVBench_8frame", "PathVQA_VAL",
                "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(r.code()).as("a failure makes the exit status non-zero").isEqualTo(1);
        assertThat(Files.exists(data.resolve("PathVQA_VAL.tsv"))).as("the names after a failure are fetched").isTrue();
        String out = r.out();
        String summary = out.substring(out.indexOf("summary of 5 name(s):"));
        assertThat(summary).contains("fetched (2):", "MMStar (warning: md5 differs from the published md5: not the official file)", "PathVQA_VAL",
                "failed (2):", "NoSuchBench: 'NoSuchBench' is neither a file nor a benchmark gam knows",
                "POPE: ", "needs a manual step (1):", "MVBench_8frame: MVBench_8frame is a snapshot of the Hugging Face dataset repository");
        assertThat(out).contains("note: MVBench_8frame: ", "NTU RGB+D", "rose1.ntu.edu.sg");

        CommandRun again = CommandRun.main("data", "fetch", "MMStar", "PathVQA_VAL", "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(again.code()).as(again.out()).isZero();
        assertThat(again.out()).contains("already present (2):");
    }

    @Test void fetchAndVerifyOfAnM3madNameBothPointToGamDataBuild() {
        CommandRun fetch = CommandRun.main("data", "fetch", "M3MAD_MME", "--data-dir", data.toString());
        assertThat(fetch.code()).isEqualTo(1);
        assertThat(fetch.err()).contains("needs a manual step: M3MAD_MME: gam data build M3MAD_MME").doesNotContain("data verify");
        assertThat(fetch.out()).contains("needs a manual step (1):", "M3MAD_MME: gam data build M3MAD_MME").doesNotContain("data verify");
        CommandRun verify = CommandRun.main("data", "verify", "M3MAD_MME", "--data-dir", data.toString());
        assertThat(verify.code()).isEqualTo(1);
        assertThat(verify.out()).contains("('gam data build M3MAD_MME')").doesNotContain("data fetch");
        CommandRun reasoning = CommandRun.main("data", "fetch", "M3MAD_MME-reasoning", "--data-dir", data.toString());
        assertThat(reasoning.out()).contains("note: M3MAD_MME-reasoning: built from VLMEvalKit's MME-Reasoning file");
    }

    @Test void listFetchAndVerifyReportWhatTheDataDirectoryHolds() throws IOException {
        Files.write(data.resolve("MMStar.tsv"), tsv(false));
        CommandRun list = CommandRun.main("data", "list", "--data-dir", data.toString());
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains(data.toString(), "MMBench_DEV_EN_V11", "M3MAD_MME", "no (build)")
                .containsPattern("MMStar +md5 differs");
        CommandRun verify = CommandRun.main("data", "verify", "MMStar", "--data-dir", data.toString());
        assertThat(verify.code()).isEqualTo(1);
        assertThat(verify.out()).contains("DIFFERS", "MMStar");
        CommandRun missing = CommandRun.main("data", "verify", "RealWorldQA", "--data-dir", data.toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.out()).contains("missing: RealWorldQA");
        CommandRun unknown = CommandRun.main("data", "fetch", "MMStarr", "--data-dir", data.toString());
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("did you mean MMStar");
    }

    @Test void mmeIsGradedByVlmEvalKitsYesNoRuleAndScoredWithAccPlus() throws IOException {
        String img = tsvImage();
        String text = "index\tquestion\tanswer\tcategory\timage_path\timage\n"
                + "0\tIs the triangle red? Please answer yes or no.\tYes\tcolor\tcolor/1.png\t" + img + "\n"
                + "1\tIs the triangle green? Please answer yes or no.\tNo\tcolor\tcolor/1.png\t0\n"
                + "2\tIs there a triangle? Please answer yes or no.\tYes\texistence\texistence/1.png\t0\n"
                + "3\tIs there a \"\"circle\"\"? Please answer yes or no.\tNo\texistence\texistence/1.png\t0\n";
        Files.writeString(data.resolve("MME.tsv"), text);
        Path out = dir.resolve("mme");
        CommandRun r = CommandRun.main("eval", "--data", "MME", "--methods", "single", "--out", out.toString(),
                "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(mirror.requests()).isEmpty();
        java.util.List<JsonNode> records = Files.readAllLines(out.resolve("results.jsonl")).stream().map(l -> {
            try { return Json.MAPPER.readTree(l); } catch (IOException e) { throw new java.io.UncheckedIOException(e); }
        }).toList();
        assertThat(records).hasSize(4).allSatisfy(n -> assertThat(n.get("rule").asText()).startsWith("yes-no:"));
        JsonNode score = summary(out).get("benchmark_score");
        assertThat(score.get("rows_in_file").asInt()).isEqualTo(4);
        JsonNode single = score.get("methods").get("single");
        assertThat(single.get("complete").asBoolean()).isTrue();
        // acc × 100 + acc+ × 100 per category, from the records themselves
        for (String cat : java.util.List.of("color", "existence")) {
            java.util.List<Boolean> right = records.stream().filter(n -> n.get("category").asText().equals(cat))
                    .map(n -> n.get("outcome").asText().equals("correct")).toList();
            double expected = right.stream().filter(b -> b).count() * 100.0 / 2 + (right.get(0) && right.get(1) ? 100.0 : 0.0);
            assertThat(single.get("scores").get(cat).asDouble()).as(cat).isEqualTo(expected);
        }
        assertThat(single.get("scores").has("perception")).as("perception needs all ten categories").isFalse();
        assertThat(r.out()).contains("MME score (VLMEvalKit's MME_rating) single", "perception -", "2 of its 14 categories");
        assertThat(r.out()).as(records.toString()).contains("grading: yes-no");
    }

    private static String tsvImage() throws IOException {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(TriangleImage.draw(), "png", png);
        return Base64.getEncoder().encodeToString(png.toByteArray());
    }

    /**
     * MMBench's test split has no answers: every row is asked, its answer kept as 'ungraded' (never wrong), and the
     * submission file is VLMEvalKit's prediction layout (the file's columns but image, plus prediction), with where to submit.
     */
    @Test void aTestSplitWithoutPublicAnswersWritesTheSubmissionFileAndNamesWhereToSubmitIt() throws IOException {
        String img = tsvImage();
        String text = "index\tquestion\thint\tA\tB\tcategory\tl2-category\tsplit\timage\n"
                + "7\tWhat colour is the triangle?\tnan\tred\tgreen\tcolor\tperception\ttest\t" + img + "\n"
                + "9\tWhat shape is drawn?\tnan\tcircle\ttriangle\tshape\tperception\ttest\t" + img + "\n";
        Files.writeString(data.resolve("MMBench_TEST_EN_V11.tsv"), text);
        Path out = dir.resolve("run");
        CommandRun r = CommandRun.main("eval", "--data", "MMBench_TEST_EN_V11", "--methods", "single,gam", "--out", out.toString(),
                "--no-circular", "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(mirror.requests()).isEmpty();
        assertThat(r.err()).contains("MMBench_TEST_EN_V11 has no public answers", "--data MMBench_DEV_EN_V11");
        Path single = out.resolve("submission").resolve("single_MMBench_TEST_EN_V11.xlsx");
        assertThat(r.out()).contains("no public answers: 4 answers kept as 'ungraded'", single.toString(), "2 of 2 rows answered",
                "submit it at https://mmbench.opencompass.org.cn/mmbench-submission");
        for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
            assertThat(Json.MAPPER.readTree(line).get("outcome").asText()).isEqualTo("ungraded");
        }
        dev.gamagent.eval.grade.PredictionFile f = dev.gamagent.eval.grade.PredictionFile.read(single);
        assertThat(f.columns()).containsExactly("index", "question", "hint", "A", "B", "category", "l2-category", "split", "prediction");
        assertThat(f.rows()).extracting(m -> m.get("index")).containsExactly("7", "9");
        assertThat(f.rows()).allSatisfy(m -> assertThat(m.get("prediction")).isNotBlank());
        assertThat(f.rows().get(1).get("question")).isEqualTo("What shape is drawn?");
        assertThat(Files.exists(out.resolve("submission").resolve("gam_MMBench_TEST_EN_V11.xlsx"))).isTrue();
        JsonNode s = summary(out);
        assertThat(s.at("/no_public_answers/ungraded_records").asInt()).isEqualTo(4);
        assertThat(s.at("/no_public_answers/submit_to").asText()).isEqualTo("https://mmbench.opencompass.org.cn/mmbench-submission");
        assertThat(s.at("/no_public_answers/submission_files").size()).isEqualTo(2);
        // not one of them counted as wrong: no accuracy at all
        assertThat(s.toString()).doesNotContain("\"accuracy\":0.0");
    }

    /** A row whose answer is empty in a file that has answers is still a broken row, not an ungraded one. */
    @Test void anEmptyAnswerOutsideATestSplitIsStillRefused() throws IOException {
        String img = tsvImage();
        Files.writeString(data.resolve("MMStar.tsv"), "index\tquestion\tA\tB\tanswer\tcategory\timage\n"
                + "0\tWhat colour is the triangle?\tred\tgreen\t\tcolor\t" + img + "\n");
        CommandRun r = eval("MMStar", dir.resolve("run"));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("empty 'answer'");
    }
}
