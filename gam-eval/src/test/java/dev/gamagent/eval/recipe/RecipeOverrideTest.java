package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 9: a {@code --set} that changes a recipe's own setting is an override of the rows that set it; a
 * setting given at the recipe's value is none; the table keeps the paper's figure beside ours but withholds Δ for
 * the rows that ran another setting, and says which.
 */
class RecipeOverrideTest {
    private final RecipeCatalogue recipes = RecipeCatalogue.builtIn();

    private List<RecipePlan.Override> overrides(String recipe, Map<String, String> sets) {
        return RecipePlan.overrides(RecipePlan.runs(recipes.require(recipe), DatasetCatalogue.builtIn()), sets);
    }

    @Test void aSetThatChangesARecipesSettingNamesTheRowsThatSetIt() {
        List<RecipePlan.Override> o = overrides("dream-table1", Map.of("dream.rho", "0.7"));
        assertThat(o).singleElement().satisfies(x -> {
            assertThat(x.key()).isEqualTo("dream.rho");
            assertThat(x.value()).isEqualTo("0.7");
            assertThat(x.recipeValues()).containsExactly("0.5");
            assertThat(x.rows()).containsExactly("w/ DREAM");
            assertThat(x.describe()).isEqualTo("--set dream.rho=0.7 replaces the recipe's dream.rho=0.5 (the paper's setting) for row w/ DREAM");
        });
        // every row of Table 4 with DREAM sets it
        assertThat(overrides("dream-table4", Map.of("dream.rho", "1")).get(0).rows())
                .containsExactly("Div-MAD w/ DREAM", "LLM Debate w/ DREAM", "DMAD w/ DREAM");
    }

    @Test void aSettingGivenAtTheRecipesOwnValueOrOneTheRecipeDoesNotSetIsNoOverride() {
        assertThat(overrides("dream-table1", Map.of("dream.rho", "0.50"))).isEmpty();
        assertThat(overrides("gam-agent-main", Map.of("gam.max_rounds", "3.0", "gam.theta_term", "\"0.15\"",
                "gam.experts", "[\"scene\",\"ocr\",\"relational\"]"))).isEmpty();
        assertThat(overrides("gam-agent-main", Map.of("gam.theta_u", "0.7"))).isEmpty();
        // the experts in another order are another panel
        assertThat(overrides("gam-agent-main", Map.of("gam.experts", "[\"ocr\",\"scene\",\"relational\"]"))).singleElement()
                .satisfies(x -> assertThat(x.rows()).containsExactly("GAM-Agent"));
    }

    @Test void aSweepsRowsHaveTheRecordedRunsSettings() {
        // K_max = 0 … 9 are re-decided from one recorded run of 9 rounds: a run of 5 changes them all
        List<RecipePlan.Override> o = overrides("gam-agent-kmax", Map.of("gam.max_rounds", "5"));
        assertThat(o).singleElement().satisfies(x -> {
            assertThat(x.recipeValues()).containsExactly("9");
            assertThat(x.rows()).hasSize(10);
        });
        assertThat(overrides("gam-agent-kmax", Map.of("gam.theta_term", "0.15"))).isEmpty();
    }

    @Test void theTableWithholdsDeltaForTheRowsThatRanAnotherSettingAndSaysWhich() {
        Recipe r = recipes.require("gam-agent-debate-rounds");
        Map<String, Map<String, PaperTable.Measured>> m = new LinkedHashMap<>();
        for (String row : List.of("Base-Debate (3 rounds)", "GAM-Agent (3 rounds)")) {
            m.put(row, Map.of("MMBench_V11_Test", new PaperTable.Measured(80, 100, 1000, 100, 100, 100)));
        }
        List<RecipePlan.Override> o = overrides("gam-agent-debate-rounds", Map.of("self_debate.rounds", "2"));
        Recipe.Model qwen = PaperTable.matchModel(r, "Qwen2.5VL-7B");
        PaperTable t = PaperTable.build(r, "openai:Qwen/Qwen2.5-VL-7B-Instruct", qwen, null, m, Map.of(), Map.of(), o);
        PaperTable.Cell base = cell(t, "Base-Debate (3 rounds)"), gam = cell(t, "GAM-Agent (3 rounds)");
        assertThat(base.ours()).isEqualTo(80.0);
        assertThat(base.paper()).isEqualTo("86.50");
        assertThat(base.delta()).isNull();
        assertThat(base.deltaWithheld()).isEqualTo("ran with --set self_debate.rounds=2 for the recipe's 3, not the paper's setting");
        assertThat(gam.delta()).as("a row that does not set it keeps its Δ").isNotNull();
        assertThat(gam.deltaWithheld()).isNull();
        String md = t.markdown();
        assertThat(md.lines().filter(l -> l.startsWith("| Base-Debate (3 rounds) |")).findFirst().orElseThrow())
                .endsWith("| 86.50 | withheld |");
        assertThat(md.lines().filter(l -> l.startsWith("| GAM-Agent (3 rounds) |")).findFirst().orElseThrow()).endsWith(" | -9.02 |");
        assertThat(md).contains("- Settings other than the recipe's: --set self_debate.rounds=2 replaces the recipe's self_debate.rounds=3 "
                + "(the paper's setting) for row Base-Debate (3 rounds); Δ against the paper is withheld for it");
        JsonNode json = Json.MAPPER.valueToTree(t);
        assertThat(json.get("overrides").get(0).get("key").asText()).isEqualTo("self_debate.rounds");
        assertThat(json.get("overrides").get(0).get("rows").get(0).asText()).isEqualTo("Base-Debate (3 rounds)");
        assertThat(json.get("cells").get(0).has("delta")).isFalse();
        assertThat(json.get("cells").get(0).get("deltaWithheld").asText()).contains("self_debate.rounds=2");
        // without overrides, the same figures have their Δ
        assertThat(cell(PaperTable.build(r, "x", qwen, null, m, Map.of()), "Base-Debate (3 rounds)").delta()).isCloseTo(80 - 86.50,
                org.assertj.core.data.Offset.offset(1e-9));
    }

    private static PaperTable.Cell cell(PaperTable t, String row) {
        return t.cells().stream().filter(c -> c.row().equals(row)).findFirst().orElseThrow();
    }
}
