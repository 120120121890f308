package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code gam reproduce --import-scores}: the official MMBench test scores, in VLMEvalKit's {@code *_acc.csv} layout, take
 * the dev stand-in's place in the paper's table, labelled as imported, with Δ against the paper's figure.
 */
class ReproduceImportScoresTest {
    @TempDir Path dir;

    private Path data() {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", "4", "--seed", "77", "--out", data.resolve("MMBench_DEV_EN_V11.tsv").toString())).isZero();
        return data;
    }

    private CommandRun run(Path data, Path out, String... extra) {
        String[] base = {"gam-agent-main", "--benchmarks", "MMBench_V11_Test", "--methods", "Base model", "--out", out.toString(),
                "--data-dir", data.toString(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "OpenGVLab/InternVL3-14B"};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return CommandRun.likeMain(new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A")), args);
    }

    @Test void theServersScoresReplaceTheStandInLabelledAsImported() throws Exception {
        Path data = data();
        // VLMEvalKit names the accuracy of <model>_<dataset>.xlsx <model>_<dataset>_acc.csv; gam's submission file is <method>_<dataset>.xlsx
        // the categories the generated stand-in holds (gam bench generate's), as VLMEvalKit's report_acc would name them
        Path scores = Files.writeString(dir.resolve("single_MMBench_TEST_EN_V11_acc.csv"),
                "\"split\",\"Overall\",\"color\",\"count\"\n\"test\",\"0.8512\",\"0.80\",\"0.9\"\n");
        Path out = dir.resolve("out");
        CommandRun r = run(data, out, "--import-scores", scores.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("the official test score 85.12 % imported from " + scores);
        JsonNode table = Json.MAPPER.readTree(out.resolve("paper-table.json").toFile());
        JsonNode cell = null;
        for (JsonNode c : table.get("cells")) if (c.get("row").asText().equals("Base model") && c.get("column").asText().startsWith("MMBench_V11_Test")) cell = c;
        assertThat(cell).isNotNull();
        assertThat(cell.get("ours").asDouble()).isCloseTo(85.12, within(1e-9));
        assertThat(cell.get("imported").asText()).isEqualTo(scores.toString());
        assertThat(cell.has("ci")).isFalse();
        assertThat(cell.get("paper").asText()).isEqualTo("83.54*");
        assertThat(cell.get("delta").asDouble()).isCloseTo(85.12 - 83.54, within(1e-9));
        assertThat(cell.get("note").asText()).contains("imported: the official score of the test split").contains("the dev stand-in gave");
        assertThat(r.out()).contains("85.12 (imported, official test)").contains("figures marked 'imported' are the test split's official scores");

        // without the import the same cell is the dev stand-in's, with its interval
        CommandRun plain = run(data, dir.resolve("plain"));
        JsonNode t2 = Json.MAPPER.readTree(dir.resolve("plain").resolve("paper-table.json").toFile());
        for (JsonNode c : t2.get("cells")) {
            if (c.get("row").asText().equals("Base model") && c.get("column").asText().startsWith("MMBench_V11_Test")) {
                assertThat(c.has("imported")).isFalse();
                assertThat(c.has("ci")).isTrue();
            }
        }
        assertThat(plain.out()).doesNotContain("imported");
    }

    @Test void aFileThatSaysNoRowOrIsNotTheLayoutIsRefusedBeforeAnythingRuns() throws Exception {
        Path data = data();
        Path anon = Files.writeString(dir.resolve("scores.csv"), "split,Overall\ntest,0.85\n");
        CommandRun r = run(data, dir.resolve("a"), "--import-scores", anon.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("say which row it is (ROW=FILE)", "<method>_MMBench_TEST_EN_V11_acc.csv");
        assertThat(dir.resolve("a").resolve("MMBench_V11_Test")).doesNotExist();
        CommandRun ok = run(data, dir.resolve("b"), "--import-scores", "Base model=" + anon);
        assertThat(ok.code()).as(ok.err()).isZero();
        Path xlsxLike = Files.writeString(dir.resolve("single_MMBench_TEST_EN_V11_acc.csv"), "index,prediction\n1,A\n");
        CommandRun bad = run(data, dir.resolve("c"), "--import-scores", xlsxLike.toString());
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.err()).contains("not VLMEvalKit's <model>_<dataset>_acc.csv");
    }

    /**
     * Issue 41 item 4: the official MMBench sample questions (realdata/mmbench-samples, one per category) stand in as
     * MMBench_DEV_EN_V11; an accuracy file with CCBench's categories (as CCBench's samples name them) and VLMEvalKit's
     * split "none" is refused naming them, while one with MMBench's own categories and split "none" is taken and shown as
     * split none, not as the official test score.
     */
    @Test void anotherBenchmarksCategoriesAreRefusedAndASplitOtherThanTestIsShownAsItIs() throws Exception {
        Path data = Files.createDirectories(dir.resolve("LMUData"));
        Files.copy(Path.of(getClass().getResource("/realdata/mmbench-samples/MMBench_EN_samples.tsv").toURI()), data.resolve("MMBench_DEV_EN_V11.tsv"));
        java.util.Set<String> cc = dev.gamagent.eval.recipe.ImportedScores.categoriesOf(
                Path.of(getClass().getResource("/realdata/mmbench-samples/CCBench_subset.tsv").toURI()));
        assertThat(cc).isNotEmpty();
        StringBuilder ccbench = new StringBuilder("\"split\",\"Overall\"");
        for (String c : cc) ccbench.append(",\"").append(c).append('"');
        ccbench.append("\n\"none\",\"0.41\"").append(",\"0.4\"".repeat(cc.size())).append('\n');
        Path wrong = Files.writeString(dir.resolve("single_MMBench_TEST_EN_V11_acc.csv"), ccbench);
        CommandRun r = run(data, dir.resolve("cc"), "--import-scores", wrong.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("--import-scores " + wrong + ": " + cc.size() + " of its " + cc.size() + " categories are not MMBench_TEST_EN_V11's: '"
                + cc.iterator().next() + "'", "(from MMBench_DEV_EN_V11.tsv) are 'Action Recognition'", "is it another benchmark's accuracy file?");
        assertThat(dir.resolve("cc").resolve("MMBench_V11_Test")).doesNotExist();

        Path none = Files.writeString(Files.createDirectories(dir.resolve("none")).resolve("single_MMBench_TEST_EN_V11_acc.csv"),
                "\"split\",\"Overall\",\"Coarse Perception\",\"Image Style\"\n\"none\",\"0.7\",\"0.8\",\"0.6\"\n");
        Path out = dir.resolve("ok");
        CommandRun ok = run(data, out, "--import-scores", none.toString());
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.err()).contains("the score of the file's split 'none' (not 'test'; shown as such) 70.00 %");
        assertThat(ok.out()).contains("70.00 (imported, split none)", "Imported figures marked 'split …' come from a file whose row is another split")
                .doesNotContain("(imported, official test)");
    }
}
