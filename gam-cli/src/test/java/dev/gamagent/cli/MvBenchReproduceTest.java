package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.recipe.Recipe;
import dev.gamagent.eval.recipe.RecipeCatalogue;
import dev.gamagent.eval.recipe.RecipePlan;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gam-agent-main recipe's MVBench_Test column runs through the name MVBench_8frame: the snapshot in the data directory
 * (VLMEvalKit's layout, tiny videos made by ffmpeg), one gam eval of the column, graded by MVBench's rule, in the paper's table.
 */
class MvBenchReproduceTest {
    @TempDir Path dir;

    @Test void theMainRecipesMvBenchColumnRunsByNameOnAScriptedBackend() throws Exception {
        Path data = MvBenchFixture.mainBranch(dir.resolve("data"));
        Path out = dir.resolve("out");
        List<Integer> imagesPerCall = new ArrayList<>();
        ReproduceCommand cmd = new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> {
            synchronized (imagesPerCall) {
                imagesPerCall.add(req.messages().get(req.messages().size() - 1).images().size());
            }
            String t = req.messages().get(req.messages().size() - 1).text();
            return t.contains("cup") ? "(B) Sat on the sofa." : "(A)";
        }));
        CommandRun r = CommandRun.likeMain(cmd, "gam-agent-main", "--benchmarks", "MVBench_8frame", "--methods", "single", "--limit", "2",
                "--out", out.toString(), "--data-dir", data.toString(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1",
                "--model", "my-own-vlm");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("not runnable yet").contains("gam eval --data MVBench_8frame --methods single");
        // the plan sized the two questions (8 frames each) and the run sent 8 frames per call
        assertThat(r.out()).contains("MVBench_Test = MVBench_8frame (MVBench): 2 questions");
        assertThat(imagesPerCall).isNotEmpty().allSatisfy(n -> assertThat(n).isEqualTo(8));
        JsonNode summary = Json.MAPPER.readTree(out.resolve("MVBench_Test").resolve("summary.json").toFile());
        assertThat(summary.path("grading").toString()).contains("mvbench");
        assertThat(summary.path("data_file").path("name").asText()).isEqualTo("MVBench_8frame");
        List<String> outcomes = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("MVBench_Test").resolve("results.jsonl"))) {
            JsonNode rec = Json.MAPPER.readTree(line);
            outcomes.add(rec.path("category").asText() + "=" + rec.path("outcome").asText() + " " + rec.path("rule").asText());
        }
        // the first two rows in VLMEvalKit's order: Action Sequence (right), Action Antonym ("(A)" = "Pushing it away.", right)
        assertThat(outcomes).hasSize(2).allSatisfy(o -> assertThat(o).contains("=correct mvbench:"));
        JsonNode table = Json.MAPPER.readTree(out.resolve("paper-table.json").toFile());
        JsonNode cell = null;
        for (JsonNode c : table.get("cells")) if (c.get("row").asText().equals("Base model") && c.get("column").asText().equals("MVBench_Test")) cell = c;
        assertThat(cell).as(table.toString()).isNotNull();
        assertThat(cell.get("ours").asDouble()).isEqualTo(100.0);
        assertThat(cell.get("n").asInt()).isEqualTo(2);
        assertThat(cell.has("paper")).isFalse();
    }

    @Test void theColumnIsPlannedByItsNameAndHasNoTranscribedFigureBecauseTheTextHoldsNone() {
        Recipe main = RecipeCatalogue.builtIn().require("gam-agent-main");
        List<RecipePlan.EvalRun> runs = RecipePlan.runs(main, DatasetCatalogue.builtIn(), List.of("MVBench_Test"), List.of());
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).data()).isEqualTo("MVBench_8frame");
        assertThat(runs.get(0).standIn()).isNull();
        // the paper's text gives a range of gains over two benchmarks for MVBench_Test, no cell: none may be filled in
        assertThat(main.figures()).noneMatch(f -> f.column().equals("MVBench_Test"));
        assertThat(main.missing()).contains("no MMMU or MVBench cell");
        CommandRun show = CommandRun.main("reproduce", "--show", "gam-agent-main");
        assertThat(show.out()).contains("gam eval --data MVBench_8frame --methods single,dmad,chateval,mad,debunc,gam")
                .doesNotContain("MVBench_Test: not runnable yet");
    }
}
