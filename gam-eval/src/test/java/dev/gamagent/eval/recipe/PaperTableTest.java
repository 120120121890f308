package dev.gamagent.eval.recipe;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 23: the paper's layout — models matched by alias, Δ, Wilson intervals, DREAM's average and Table 4's ratio. */
class PaperTableTest {
    private final RecipeCatalogue recipes = RecipeCatalogue.builtIn();

    @Test void aServersNameForThePapersModelIsMatchedByAliasAndNothingElseIs() {
        Recipe r = recipes.require("dream-table1");
        assertThat(PaperTable.matchModel(r, "Qwen/Qwen2.5-VL-7B-Instruct").name()).isEqualTo("Qwen2.5-VL-7B");
        assertThat(PaperTable.matchModel(r, "openai:qwen/qwen2.5-vl-7b-instruct").name()).isEqualTo("Qwen2.5-VL-7B");
        assertThat(PaperTable.matchModel(r, "qwen2.5vl:7b").name()).isEqualTo("Qwen2.5-VL-7B");
        assertThat(PaperTable.matchModel(r, "Gemma-3-4B").name()).isEqualTo("Gemma-3-4B");
        assertThat(PaperTable.matchModel(r, "Qwen/Qwen2.5-VL-72B-Instruct")).isNull();
        assertThat(PaperTable.matchModel(r, "gam-perception")).isNull();
        assertThat(PaperTable.matchModel(r, null)).isNull();
    }

    @Test void cellsCarryOursWithAWilsonIntervalThePapersFigureAndDelta() {
        Recipe r = recipes.require("dream-table1");
        Map<String, Map<String, PaperTable.Measured>> m = new LinkedHashMap<>();
        Map<String, PaperTable.Measured> io = new LinkedHashMap<>();
        String[] cols = {"MME", "MVt", "MVs", "PVQA", "MME-R", "VP"};
        for (int i = 0; i < cols.length; i++) io.put(cols[i], new PaperTable.Measured(40 + i, 100, 1000, 100, 100, 100));
        m.put("IO", io);
        PaperTable t = PaperTable.build(r, "openai:google/gemma-3-4b-it", r.models().get(0), null, m, Map.of());
        PaperTable.Cell mme = cell(t, "IO", "MME");
        assertThat(mme.ours()).isEqualTo(40.0);
        assertThat(mme.ci().lo()).isBetween(30.0, 40.0);
        assertThat(mme.ci().hi()).isBetween(40.0, 51.0);
        assertThat(mme.paper()).isEqualTo("79.3");
        assertThat(mme.delta()).isCloseTo(40.0 - 79.3, org.assertj.core.data.Offset.offset(1e-9));
        // the average of the six when all six ran; without an interval
        PaperTable.Cell avg = cell(t, "IO", "Avg.");
        assertThat(avg.ours()).isCloseTo(42.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(avg.ci()).isNull();
        assertThat(avg.paper()).isEqualTo("33.5");
        // a row not run is empty but keeps the paper's figure
        assertThat(cell(t, "CoT", "MME").ours()).isNull();
        assertThat(cell(t, "CoT", "MME").paper()).isEqualTo("80.2");
        assertThat(t.markdown()).contains("| IO | 40.00 (30.", "| 79.3 | -39.30 |", "paper, Gemma-3-4B");
        // one column missing: no average
        io.remove("VP");
        assertThat(cell(PaperTable.build(r, "x", r.models().get(0), null, m, Map.of()), "IO", "Avg.").ours()).isNull();
    }

    @Test void tableFourComparesTheRatioToTheBareDebateNotTheTotals() {
        Recipe r = recipes.require("dream-table4");
        Map<String, Map<String, PaperTable.Measured>> m = new LinkedHashMap<>();
        m.put("LLM Debate", Map.of("MME", new PaperTable.Measured(47, 100, 1_000_000, 1, 900, 100),
                "MVt", new PaperTable.Measured(40, 100, 1_000_000, 1, 900, 100)));
        m.put("LLM Debate w/ DREAM", Map.of("MME", new PaperTable.Measured(50, 100, 1_300_000, 1, 1200, 100),
                "MVt", new PaperTable.Measured(45, 100, 1_300_000, 1, 1200, 100)));
        PaperTable t = PaperTable.build(r, "vllm", r.models().get(0), null, m, Map.of());
        PaperTable.Cell ratio = cell(t, "LLM Debate w/ DREAM", "Tokens ÷ bare debate");
        assertThat(ratio.ours()).isCloseTo(1.3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ratio.paper()).isEqualTo("1.299*");
        assertThat(ratio.delta()).isCloseTo(0.001, org.assertj.core.data.Offset.offset(1e-9));
        PaperTable.Cell tokens = cell(t, "LLM Debate w/ DREAM", "Prompt Tokens (M)");
        assertThat(tokens.ours()).isCloseTo(2.6, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(tokens.delta()).isNull();
        PaperTable.Cell acc = cell(t, "LLM Debate w/ DREAM", "Accuracy (%)");
        assertThat(acc.ours()).isCloseTo(47.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(acc.n()).isEqualTo(200);
        assertThat(cell(t, "LLM Debate", "Tokens ÷ bare debate").ours()).isNull();
    }

    @Test void aStandInAndAModelThatIsNotThePapersAreSaidInTheTable() {
        Recipe r = recipes.require("gam-agent-debate-rounds");
        Map<String, Map<String, PaperTable.Measured>> m = Map.of("GAM-Agent (3 rounds)",
                Map.of("MMBench_V11_Test", new PaperTable.Measured(9, 10, 1, 1, 1, 40)));
        PaperTable t = PaperTable.build(r, "the built-in model", PaperTable.matchModel(r, "Qwen2.5-VL-7B"), "the built-in model", m,
                Map.of("MMBench_V11_Test", "MMBench_V11_Test has no public answers: its dev split MMBench_DEV_EN_V11 stands in for it"));
        assertThat(t.columns()).containsExactly("MMBench_V11_Test†");
        assertThat(t.paperIsModelRun()).isFalse();
        String md = t.markdown();
        assertThat(md).contains("‡ Paper column: paper, Qwen2.5VL-7B — NOT the model run here (the built-in model)", "| paper ‡ | Δ |",
                "† MMBench_V11_Test has no public answers", "| GAM-Agent (3 rounds) | 90.00 (59.6–98.2, n=10) | 89.02 | +0.98 |");
        PaperTable none = PaperTable.build(r, "openai:my-vlm", null, null, m, Map.of());
        assertThat(none.markdown()).contains("| paper | Δ |", "The paper reports no figures for openai:my-vlm");
        assertThat(cell(none, "GAM-Agent (3 rounds)", "MMBench_V11_Test").paper()).isNull();
    }

    @Test void aColumnNoOneKnowsHowToMeasureIsRefusedNamingIt() {
        Recipe t4 = recipes.require("dream-table4");
        Recipe odd = new Recipe(t4.id(), t4.paper(), t4.paperFile(), t4.table(), t4.title(), t4.metric(), t4.unit(), t4.compare(), t4.benchmarks(),
                java.util.List.of("Latency (s)"), t4.methods(), t4.models(), java.util.List.of(), null, t4.missing(), java.util.List.of(), null);
        assertThatThrownBy(() -> PaperTable.build(odd, "x", null, null, Map.of("LLM Debate", Map.of("MME", new PaperTable.Measured(1, 2, 3, 4, 5, 2))), Map.of()))
                .hasMessageContaining("no way to measure its column 'Latency (s)'");
    }

    private static PaperTable.Cell cell(PaperTable t, String row, String column) {
        return t.cells().stream().filter(c -> c.row().equals(row) && c.column().replace("†", "").equals(column)).findFirst().orElseThrow();
    }
}
