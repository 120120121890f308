package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39, item 5, as a user sees it: {@code gam reproduce --list} and {@code --show} print the variants (other readings of
 * a passage, each with the passage), Table 3's averages, B.2's four open models, {@code --set gam.scoring=all} in every
 * GAM-Agent recipe's commands and the note beside 86.53 and 89.02; {@code --variant NAME} runs a variant and records it;
 * an unknown one is refused naming the recipe's.
 */
class ReproduceReadingsTest {
    @TempDir Path dir;

    @Test void listNamesEachRecipesVariantsWithWhatTheyChange() {
        CommandRun r = CommandRun.main("reproduce", "--list");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("variant kmax10 (--variant kmax10): --set gam.max_rounds=10 for GAM-Agent; calls GAM-Agent 3–63",
                "variant fixed-rounds (--variant fixed-rounds): --set gam.ablation.fixed_rounds=true for GAM-Agent (3 rounds)",
                "published figures in our text: 75 of 168 cells", "published figures in our text: 8 of 8 cells");
    }

    @Test void showPrintsTheReadingsWithTheirPassagesAndAVariantsCommands() {
        CommandRun main = CommandRun.main("reproduce", "--show", "gam-agent-main");
        assertThat(main.code()).as(main.err()).isZero();
        assertThat(main.out()).contains("Readings: the recipe's default (shown here), or one of its variants (--variant NAME):",
                "  kmax10 — K_max = 10", "reads gam-agent-termination line 77: \"achieved natural convergence before reaching the preset maximum "
                        + "number of debate rounds ($K_{\\mathrm{max}}=10$)\"",
                "in place of the default reading, K_max = 3, section H's base configuration",
                "gam-agent-experiments line 159: \"88.80% accuracy is achieved by the default InternVL3-14B configuration on MMBench_TEST_V11 with N = 3 and Kmax = 3\"",
                "gam reproduce --show gam-agent-main --variant kmax10 prints its commands",
                "--out runs/gam-agent-main/MMBench_V11_Test --set gam.scoring=all");
        assertThat(main.out()).doesNotContain("gam.max_rounds=10 --set");

        CommandRun k10 = CommandRun.main("reproduce", "--show", "gam-agent-main", "--variant", "kmax10");
        assertThat(k10.code()).as(k10.err()).isZero();
        assertThat(k10.out()).contains("Read as variant kmax10: rows GAM-Agent run with --set gam.max_rounds=10", "kmax10 (shown here) — ",
                "Run it all: gam reproduce gam-agent-main --variant kmax10 --out runs/gam-agent-main-kmax10 [backend flags]",
                "gam eval --data VStarBench --methods single,dmad,chateval,mad,debunc,gam --out runs/gam-agent-main-kmax10/V_Bench "
                        + "--set gam.max_rounds=10 --set gam.scoring=all");

        CommandRun fixed = CommandRun.main("reproduce", "--show", "gam-agent-debate-rounds", "--variant", "fixed-rounds");
        assertThat(fixed.out()).contains("reads gam-agent-debate-cost line 27: \"GAM-Agent achieves superior accuracy (e.g., +1.7 percentage points "
                        + "for InternVL3-78B after 3 rounds) for a defined number of debate cycles\"",
                "(gam-agent-debate-cost line 27: \"aims to terminate debates earlier if consensus is reached\")",
                "--out runs/gam-agent-debate-rounds-fixed-rounds/MMBench_V11_Test --set gam.scoring=all --set gam.ablation.fixed_rounds=true");
    }

    @Test void anUnknownVariantOrAVariantWithoutARecipeIsRefusedInOneLine() {
        CommandRun unknown = CommandRun.main("reproduce", "--show", "gam-agent-main", "--variant", "kmax9");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("recipe gam-agent-main has no variant 'kmax9'; its variants: [kmax10]");
        CommandRun none = CommandRun.main("reproduce", "dream-table1", "--variant", "kmax10", "--out", dir.toString(), "--dry-run");
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.err()).contains("recipe dream-table1 has no variant 'kmax10'; it has none");
        CommandRun list = CommandRun.main("reproduce", "--list", "--variant", "kmax10");
        assertThat(list.code()).isEqualTo(1);
        assertThat(list.err()).contains("--variant goes with a RECIPE to run or with --show RECIPE");
    }

    @Test void showPrintsTable3sAveragesB2sFourModelsAndTheNoteBesideEachExperimentsFigure() {
        CommandRun t1 = CommandRun.main("reproduce", "--show", "dream-table1");
        assertThat(t1.code()).as(t1.err()).isZero();
        assertThat(rowOf(t1.out(), "Gemma-3-4B", "w/ DREAM")).endsWith(" 45.4");
        assertThat(rowOf(t1.out(), "Qwen2.5-VL-7B", "LLM Debate")).endsWith(" 47.0");
        assertThat(rowOf(t1.out(), "Qwen2.5-VL-7B", "w/ DREAM")).endsWith(" 50.2");
        assertThat(rowOf(t1.out(), "InternVL3-8B", "LLM Debate")).endsWith(" 48.9");
        assertThat(rowOf(t1.out(), "InternVL3-8B", "w/ DREAM")).endsWith(" 51.4");
        assertThat(rowOf(t1.out(), "LLaVA-Next-7B", "w/ DREAM")).endsWith(" ·");
        assertThat(t1.out()).contains("Table 3's last row, '+ URA (Rollback)': the full method");

        CommandRun b2 = CommandRun.main("reproduce", "--show", "gam-agent-debate-rounds");
        assertThat(b2.out()).doesNotContain("GPT-4o").contains("InternVL3-78B", "Qwen2.5VL-72B", "Qwen2.5VL-7B", "InternVL3-14B",
                "Beside the figures:", "89.02 (Qwen2.5VL-7B, GAM-Agent (3 rounds), MMBench_V11_Test): Another experiment than section 3's "
                        + "debate-length ablation, which gives 86.53");
        CommandRun kmax = CommandRun.main("reproduce", "--show", "gam-agent-kmax");
        assertThat(kmax.out()).contains("86.53 (Qwen2.5VL-7B, K_max = 3, MMBench_V11_Test): Another experiment than appendix B.2's 89.02",
                "--set gam.max_rounds=9 --set gam.record_full=true --set gam.scoring=all");
    }

    /** The line of {@code row} in {@code model}'s block of {@code --show}'s figures. */
    private static String rowOf(String out, String model, String row) {
        List<String> lines = out.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(model + " ")) { start = i; break; }
        assertThat(start).as("a block for " + model).isNotNegative();
        for (int i = start + 1; i < lines.size() && !lines.get(i).isBlank(); i++) {
            if (lines.get(i).startsWith("  " + row + " ")) return lines.get(i).stripTrailing();
        }
        throw new AssertionError("no row " + row + " under " + model + " in\n" + out);
    }

    @Test void aVariantRunsWithItsSettingsAndIsRecordedInThePlanAndThePapersTable() throws IOException {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", "2", "--seed", "39", "--out", data.resolve("MMBench_DEV_EN_V11.tsv").toString())).isZero();
        Path out = dir.resolve("fixed");
        // a test tool standing in for a served Qwen2.5-VL-7B, the paper's model: it always answers A
        ReproduceCommand cmd = new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "ANSWER: A"));
        CommandRun r = CommandRun.likeMain(cmd, "gam-agent-debate-rounds", "--variant", "fixed-rounds", "--methods", "GAM-Agent (3 rounds)",
                "--out", out.toString(), "--data-dir", data.toString(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1",
                "--model", "Qwen/Qwen2.5-VL-7B-Instruct");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("note: recipe gam-agent-debate-rounds read as variant fixed-rounds ('after 3 rounds' as three debate rounds",
                "rows GAM-Agent (3 rounds) run with --set gam.ablation.fixed_rounds=true");
        assertThat(r.out()).contains("Plan: gam-agent-debate-rounds as variant fixed-rounds");
        JsonNode plan = Json.MAPPER.readTree(out.resolve("plan.json").toFile());
        assertThat(plan.get("variant").get("name").asText()).isEqualTo("fixed-rounds");
        assertThat(plan.path("variant").path("passage").path("lines").path(0).asInt()).isEqualTo(27);
        assertThat(plan.path("variant").path("settings").path("gam.ablation.fixed_rounds").asBoolean()).isTrue();
        JsonNode table = Json.MAPPER.readTree(out.resolve("paper-table.json").toFile());
        assertThat(table.get("variant").asText()).isEqualTo("fixed-rounds");
        assertThat(Files.readString(out.resolve("paper-table.md"))).contains("Read as variant fixed-rounds (see below).",
                "- Variant fixed-rounds (rows GAM-Agent (3 rounds), --set gam.ablation.fixed_rounds=true)",
                "- Paper's 89.02 (GAM-Agent (3 rounds), MMBench_V11_Test): Another experiment than section 3's debate-length ablation");
        // the run's own traces carry the variant's setting and all-token scoring
        for (String line : Files.readAllLines(out.resolve("MMBench_V11_Test").resolve("results.jsonl"))) {
            JsonNode config = Json.MAPPER.readTree(line).path("trace").path("config");
            if (config.isMissingNode()) continue;
            assertThat(config.path("ablation").path("fixed_rounds").asBoolean()).as(line).isTrue();
            assertThat(config.path("scoring").asText()).as(line).isEqualTo("all");
        }
        assertThat(Files.readAllLines(out.resolve("MMBench_V11_Test").resolve("results.jsonl"))).isNotEmpty()
                .anyMatch(l -> l.contains("\"fixed_rounds\":true"));
    }
}
