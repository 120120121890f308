package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.uncertainty.Scoring;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 39, item 5: the recipes as the paper reads — DREAM Table 3's averages in {@code dream-table1}, appendix B.2's four
 * open models, the alternative readings as named variants, Φ_gen over every generated token in every GAM-Agent recipe,
 * and a note beside two figures of one model and benchmark that come from two experiments.
 */
class RecipeReadingsTest {
    private final RecipeCatalogue catalogue = RecipeCatalogue.builtIn();

    private static Recipe.Figure figure(Recipe r, String model, String row, String column) {
        return r.figures().stream().filter(f -> f.model().equals(model) && f.row().equals(row) && f.column().equals(column)).findFirst()
                .orElseThrow(() -> new AssertionError(r.id() + " has no figure " + model + " / " + row + " / " + column));
    }

    // ---- 1. DREAM Table 3's averages ---------------------------------------------------------------------------------

    @Test void dreamTable1HasTable3sAveragesForLlmDebateAndTheFullMethod() {
        Recipe t1 = catalogue.require("dream-table1");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("Qwen2.5-VL-7B/LLM Debate", "47.0");
        expected.put("InternVL3-8B/LLM Debate", "48.9");
        expected.put("Gemma-3-4B/w/ DREAM", "45.4");
        expected.put("Qwen2.5-VL-7B/w/ DREAM", "50.2");
        expected.put("InternVL3-8B/w/ DREAM", "51.4");
        expected.forEach((key, value) -> {
            String model = key.substring(0, key.indexOf('/')), row = key.substring(key.indexOf('/') + 1);
            Recipe.Figure f = figure(t1, model, row, "Avg.");
            assertThat(f.value()).as(key).isEqualTo(value);
            assertThat(f.source().excerpt()).isEqualTo("dream-table3");
            assertThat(f.source().cell()).as("the column of Table 3 is the model's").isEqualTo(model);
            assertThat(f.source().paperRow()).isEqualTo(row.equals("w/ DREAM") ? "+ URA (Rollback)" : "Baseline (LLM Debate)");
            assertThat(f.source().lines()).containsExactly(row.equals("w/ DREAM") ? 32 : 29);
        });
        // Gemma's LLM Debate average stays Table 1's (Table 3 prints the same 43.9)
        assertThat(figure(t1, "Gemma-3-4B", "LLM Debate", "Avg.").source().excerpt()).isEqualTo("dream-table1");
        assertThat(FigureCheck.problems(t1, catalogue.excerpts())).isEmpty();
        // and Qwen2.5-VL-7B's two averages are Table 4's accuracies
        Recipe t4 = catalogue.require("dream-table4");
        assertThat(figure(t4, "Qwen2.5-VL-7B", "LLM Debate", "Accuracy (%)").value()).isEqualTo(expected.get("Qwen2.5-VL-7B/LLM Debate"));
        assertThat(figure(t4, "Qwen2.5-VL-7B", "LLM Debate w/ DREAM", "Accuracy (%)").value()).isEqualTo(expected.get("Qwen2.5-VL-7B/w/ DREAM"));
    }

    @Test void aTable3FigureReadFromAnotherModelsColumnOrAnotherRowIsCaught() {
        Recipe t1 = catalogue.require("dream-table1");
        int i = t1.figures().indexOf(figure(t1, "Qwen2.5-VL-7B", "w/ DREAM", "Avg."));
        Recipe.Figure f = t1.figures().get(i);
        // InternVL3-8B's figure said to be Qwen's: its column is another model's
        Recipe.Source internCell = new Recipe.Source("dream-table3", List.of(32), "InternVL3-8B", "+ URA (Rollback)", null);
        assertThat(FigureCheck.problems(with(t1, i, new Recipe.Figure(f.model(), f.row(), f.column(), "51.4", null, internCell)),
                catalogue.excerpts())).anyMatch(p -> p.contains("column 'InternVL3-8B' of dream-table3 is InternVL3-8B's, not Qwen2.5-VL-7B's"));
        // the middle row (adaptive threshold without rollback) is not the full method
        Recipe.Source middle = new Recipe.Source("dream-table3", List.of(31), "Qwen2.5-VL-7B", "+ URA (Rollback)", null);
        assertThat(FigureCheck.problems(with(t1, i, new Recipe.Figure(f.model(), f.row(), f.column(), "48.9", null, middle)),
                catalogue.excerpts())).anyMatch(p -> p.contains("is not the row '+ URA (Rollback)'"));
        // a wrong digit
        assertThat(FigureCheck.problems(with(t1, i, new Recipe.Figure(f.model(), f.row(), f.column(), "50.3", null, f.source())),
                catalogue.excerpts())).anyMatch(p -> p.contains("has 50.2"));
    }

    private static Recipe with(Recipe r, int i, Recipe.Figure f) {
        List<Recipe.Figure> figs = new ArrayList<>(r.figures());
        figs.set(i, f);
        return r.withFigures(figs);
    }

    // ---- 2. appendix B.2's models ------------------------------------------------------------------------------------

    @Test void theAppendixB2RecipeHasTheFourOpenModelsItsPassageNames() {
        Recipe r = catalogue.require("gam-agent-debate-rounds");
        List<String> models = r.models().stream().map(Recipe.Model::name).toList();
        assertThat(models).containsExactlyInAnyOrder("InternVL3-78B", "Qwen2.5VL-72B", "Qwen2.5VL-7B", "InternVL3-14B");
        // every model has both rows in the passage, and the passage names it
        String line = catalogue.excerpts().get("gam-agent-debate-cost").lines().get(27);
        for (String m : models) {
            assertThat(r.figures()).as(m).filteredOn(f -> f.model().equals(m)).hasSize(2);
            assertThat(line).as(m).contains(m);
        }
        assertThat(line).doesNotContain("GPT-4o");
        assertThat(r.cells()).isEqualTo(r.figures().size());
    }

    // ---- 3. variants -------------------------------------------------------------------------------------------------

    @Test void theAlternativeReadingsAreNamedVariantsAndTheDefaultReadingStaysTheDefault() {
        Recipe main = catalogue.require("gam-agent-main");
        assertThat(main.reading()).isNull();
        assertThat(main.method("GAM-Agent").settings().get("gam.max_rounds").asInt()).isEqualTo(3);
        Recipe.Variant kmax10 = main.variants().stream().filter(v -> v.name().equals("kmax10")).findFirst().orElseThrow();
        assertThat(kmax10.passage().quote()).contains("$K_{\\mathrm{max}}=10$");
        assertThat(kmax10.defaultPassage().quote()).contains("Kmax = 3");
        Recipe read = main.withVariant("kmax10");
        assertThat(read.reading()).isEqualTo(kmax10);
        assertThat(read.method("GAM-Agent").settings().get("gam.max_rounds").asInt()).isEqualTo(10);
        assertThat(read.method("GAM-Agent").settings().get("gam.theta_term").asDouble()).isEqualTo(0.15);
        assertThat(read.method("DebUnc").settings()).isEqualTo(main.method("DebUnc").settings());

        Recipe rounds = catalogue.require("gam-agent-debate-rounds");
        Recipe fixed = rounds.withVariant("FIXED-ROUNDS");
        assertThat(fixed.method("GAM-Agent (3 rounds)").settings().get("gam.ablation.fixed_rounds").asBoolean()).isTrue();
        assertThat(rounds.method("GAM-Agent (3 rounds)").settings()).doesNotContainKey("gam.ablation.fixed_rounds");
        assertThat(fixed.reading().passage().quote()).contains("for a defined number of debate cycles");
        assertThat(fixed.reading().defaultPassage().quote()).contains("terminate debates earlier if consensus is reached");

        // the commands: the variant's setting, in a directory of its own
        List<RecipePlan.Step> steps = RecipePlan.steps(read, DatasetCatalogue.builtIn(), Config.defaults(), "runs");
        assertThat(steps).filteredOn(s -> s.command() != null).allSatisfy(s -> assertThat(s.command())
                .contains("--out runs/gam-agent-main-kmax10/", "--set gam.max_rounds=10"));
        assertThat(RecipePlan.steps(main, DatasetCatalogue.builtIn(), Config.defaults(), "runs")).filteredOn(s -> s.command() != null)
                .allSatisfy(s -> assertThat(s.command()).contains("--out runs/gam-agent-main/").doesNotContain("gam.max_rounds=10"));
        // a --set at the variant's value is no override of it; the default reading's 3 is
        List<RecipePlan.EvalRun> runs = RecipePlan.runs(read, DatasetCatalogue.builtIn());
        assertThat(RecipePlan.overrides(runs, Map.of("gam.max_rounds", "10"))).isEmpty();
        assertThat(RecipePlan.overrides(RecipePlan.runs(main, DatasetCatalogue.builtIn()), Map.of("gam.max_rounds", "10"))).hasSize(1);
        // every variant's passages are on their lines
        for (Recipe r : catalogue.recipes()) assertThat(FigureCheck.problems(r, catalogue.excerpts())).as(r.id()).isEmpty();
    }

    @Test void anUnknownVariantIsRefusedNamingTheRecipesVariants() {
        assertThatThrownBy(() -> catalogue.require("gam-agent-main").withVariant("kmax9"))
                .hasMessage("recipe gam-agent-main has no variant 'kmax9'; its variants: [kmax10] ('gam reproduce --show gam-agent-main')");
        assertThatThrownBy(() -> catalogue.require("dream-table4").withVariant("kmax10"))
                .hasMessageContaining("recipe dream-table4 has no variant 'kmax10'; it has none");
        assertThat(catalogue.require("dream-table4").withVariant(null).reading()).isNull();
    }

    @Test void aVariantIsCheckedWhenTheRecipeIsRead() throws IOException {
        ObjectNode ok = recipeJson("gam-agent-main");
        assertThat(RecipeCatalogue.parse(ok, "gam-agent-main").variants()).hasSize(1);
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> ((ArrayNode) v.get("rows")).set(0, "GAM")), "gam-agent-main"))
                .hasMessageContaining("variant 'kmax10': no row 'GAM'; rows: [Base model, DMAD, DMPL");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> ((ArrayNode) v.get("rows")).set(0, "DMPL")), "gam-agent-main"))
                .hasMessageContaining("row 'DMPL' has no method to run");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> ((ObjectNode) v.get("settings")).put("gam.max_rounds", 3)), "gam-agent-main"))
                .hasMessageContaining("are row 'GAM-Agent''s own: it changes nothing");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> v.remove("passage")), "gam-agent-main"))
                .hasMessageContaining("variant 'kmax10': needs 'passage'");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> ((ObjectNode) v.get("default_passage")).remove("quote")), "gam-agent-main"))
                .hasMessageContaining("its passages quote the text they read");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> v.put("name", "K max 10")), "gam-agent-main"))
                .hasMessageContaining("a name is lower-case letters, digits and '-'");
        assertThatThrownBy(() -> RecipeCatalogue.parse(edited(ok, v -> v.put("reading", "x")), "gam-agent-main"))
                .hasMessageContaining("variant kmax10: unknown field 'reading'");
        ObjectNode twice = ok.deepCopy();
        ((ArrayNode) twice.get("variants")).add(twice.get("variants").get(0).deepCopy());
        assertThatThrownBy(() -> RecipeCatalogue.parse(twice, "gam-agent-main")).hasMessageContaining("the name is taken twice");
        // a passage quoted wrongly is caught by the figure check
        Recipe wrong = RecipeCatalogue.parse(edited(ok, v -> ((ObjectNode) v.get("passage")).put("quote", "(K_max=10)")), "gam-agent-main");
        assertThat(FigureCheck.problems(wrong, catalogue.excerpts()))
                .containsExactly("gam-agent-main: variant kmax10: its passage: the quote is not on line 77 of gam-agent-termination");
    }

    private static ObjectNode recipeJson(String id) throws IOException {
        try (InputStream in = RecipeReadingsTest.class.getResourceAsStream("/recipes/" + id + ".json")) {
            return (ObjectNode) Json.MAPPER.readTree(in);
        }
    }

    private static ObjectNode edited(ObjectNode recipe, java.util.function.Consumer<ObjectNode> onFirstVariant) {
        ObjectNode copy = recipe.deepCopy();
        onFirstVariant.accept((ObjectNode) copy.get("variants").get(0));
        return copy;
    }

    // ---- 4. Φ_gen over every generated token -------------------------------------------------------------------------

    @Test void everyGamAgentRecipeScoresEveryGeneratedToken() {
        int rows = 0;
        for (Recipe r : catalogue.recipes()) {
            for (Recipe.MethodRow m : r.methods()) {
                if (!"gam".equals(m.method())) continue;
                rows++;
                JsonNode s = m.settings().get("gam.scoring");
                assertThat(s).as(r.id() + " " + m.row()).isNotNull();
                assertThat(Scoring.parse(s.asText())).as(r.id() + " " + m.row()).isEqualTo(Scoring.ALL);
            }
            if (r.run() != null && "gam".equals(r.run().method())) {
                assertThat(Scoring.parse(r.run().settings().get("gam.scoring").asText())).as(r.id() + " recorded run").isEqualTo(Scoring.ALL);
            }
        }
        assertThat(rows).as("GAM-Agent's row in gam-agent-main and gam-agent-debate-rounds, K_max = 0 … 9").isEqualTo(12);
        // gam's default is content, so the commands say it
        assertThat(Scoring.parse(Config.defaults().string("gam.scoring"))).isEqualTo(Scoring.CONTENT);
        for (String id : List.of("gam-agent-main", "gam-agent-kmax", "gam-agent-debate-rounds")) {
            assertThat(RecipePlan.steps(catalogue.require(id), DatasetCatalogue.builtIn(), Config.defaults(), "runs"))
                    .as(id).anyMatch(s -> s.command() != null && s.command().contains("--methods") && s.command().contains("--set gam.scoring=all"));
        }
    }

    // ---- 5. two experiments, one model and benchmark -----------------------------------------------------------------

    @Test void theTwoExperimentsFiguresForOneModelAndBenchmarkEachSaySo() {
        Recipe kmax = catalogue.require("gam-agent-kmax"), rounds = catalogue.require("gam-agent-debate-rounds");
        Recipe.Figure k3 = figure(kmax, "Qwen2.5VL-7B", "K_max = 3", "MMBench_V11_Test");
        Recipe.Figure b2 = figure(rounds, "Qwen2.5VL-7B", "GAM-Agent (3 rounds)", "MMBench_V11_Test");
        assertThat(k3.value()).isEqualTo("86.53");
        assertThat(b2.value()).isEqualTo("89.02");
        assertThat(k3.note()).contains("89.02", "gam-agent-debate-rounds", "Another experiment");
        assertThat(b2.note()).contains("86.53", "gam-agent-kmax", "Another experiment");
        assertThat(FigureCheck.conflicts(catalogue.recipes())).isEmpty();
        // without the note the check names both
        int i = kmax.figures().indexOf(k3);
        Recipe bare = with(kmax, i, new Recipe.Figure(k3.model(), k3.row(), k3.column(), k3.value(), k3.derived(), k3.source(), null));
        List<Recipe> recipes = new ArrayList<>(catalogue.recipes());
        recipes.set(recipes.indexOf(kmax), bare);
        assertThat(FigureCheck.conflicts(recipes)).singleElement().asString()
                .startsWith("gam-agent-kmax: Qwen2.5VL-7B / K_max = 3 / MMBench_V11_Test = 86.53: gam-agent-debate-rounds: Qwen2.5VL-7B / "
                        + "GAM-Agent (3 rounds) / MMBench_V11_Test = 89.02 is the same model, benchmark and configuration");

        // the paper's table prints it beside the figure, for the model that has it
        Map<String, Map<String, PaperTable.Measured>> m = Map.of("K_max = 3", Map.of("MMBench_V11_Test",
                new PaperTable.Measured(85, 100, 1000, 100, 100, 100)));
        Recipe.Model qwen = PaperTable.matchModel(kmax, "Qwen/Qwen2.5-VL-7B-Instruct");
        assertThat(PaperTable.build(kmax, "openai:Qwen/Qwen2.5-VL-7B-Instruct", qwen, null, m, Map.of()).markdown())
                .contains("- Paper's 86.53 (K_max = 3, MMBench_V11_Test): Another experiment than appendix B.2's 89.02");
        Recipe.Model b2qwen = PaperTable.matchModel(rounds, "qwen2.5vl:7b");
        assertThat(PaperTable.build(rounds, "ollama:qwen2.5vl:7b", b2qwen, null, Map.of(), Map.of()).markdown())
                .contains("- Paper's 89.02 (GAM-Agent (3 rounds), MMBench_V11_Test): Another experiment than section 3's debate-length ablation, "
                        + "which gives 86.53");
        Recipe.Model intern = PaperTable.matchModel(rounds, "OpenGVLab/InternVL3-78B");
        assertThat(PaperTable.build(rounds, "openai:OpenGVLab/InternVL3-78B", intern, null, Map.of(), Map.of()).markdown())
                .doesNotContain("Paper's 89.02");
    }

    @Test void thePaperTableSaysWhichReadingTheRowsRan() {
        Recipe fixed = catalogue.require("gam-agent-debate-rounds").withVariant("fixed-rounds");
        Recipe.Model qwen = PaperTable.matchModel(fixed, "Qwen2.5VL-7B");
        Map<String, Map<String, PaperTable.Measured>> m = Map.of("GAM-Agent (3 rounds)", Map.of("MMBench_V11_Test",
                new PaperTable.Measured(90, 100, 1000, 100, 100, 100)));
        PaperTable t = PaperTable.build(fixed, "openai:Qwen/Qwen2.5-VL-7B-Instruct", qwen, null, m, Map.of());
        assertThat(t.variant()).isEqualTo("fixed-rounds");
        assertThat(t.markdown()).contains("Model run: openai:Qwen/Qwen2.5-VL-7B-Instruct. Read as variant fixed-rounds (see below).",
                "- Variant fixed-rounds (rows GAM-Agent (3 rounds), --set gam.ablation.fixed_rounds=true): 'after 3 rounds' as three debate rounds",
                "reading gam-agent-debate-cost line 27, \"GAM-Agent achieves superior accuracy",
                "the recipe's default reading: K_max = 3 with GAM-Agent's adaptive stop");
        assertThat(Json.MAPPER.valueToTree(t).get("variant").asText()).isEqualTo("fixed-rounds");
        PaperTable plain = PaperTable.build(catalogue.require("gam-agent-debate-rounds"), "x", qwen, null, m, Map.of());
        assertThat(plain.variant()).isNull();
        assertThat(plain.markdown()).doesNotContain("variant");
        assertThat(Json.MAPPER.valueToTree(plain).has("variant")).isFalse();
    }
}
