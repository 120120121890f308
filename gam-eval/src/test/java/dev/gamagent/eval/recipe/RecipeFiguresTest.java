package dev.gamagent.eval.recipe;

import dev.gamagent.MethodRegistry;
import dev.gamagent.config.Config;
import dev.gamagent.config.internal.ConfigSchema;
import dev.gamagent.eval.data.DatasetCatalogue;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23 item 2: every published figure in a recipe is what the excerpt it cites prints (table cell,
 * quote or stated arithmetic), and the excerpts are the papers' lines verbatim.
 */
class RecipeFiguresTest {
    private final RecipeCatalogue catalogue = RecipeCatalogue.builtIn();

    @Test void everyRecipeCellIsWhatItsExcerptPrints() {
        List<String> problems = new ArrayList<>();
        for (Recipe r : catalogue.recipes()) problems.addAll(FigureCheck.problems(r, catalogue.excerpts()));
        assertThat(problems).isEmpty();
        assertThat(catalogue.recipes().stream().mapToInt(r -> r.figures().size()).sum()).isEqualTo(75 + 15 + 9 + 2 + 8);
    }

    private static Recipe withFigure(Recipe r, int i, Recipe.Figure f) {
        List<Recipe.Figure> figs = new ArrayList<>(r.figures());
        figs.set(i, f);
        return r.withFigures(figs);
    }

    @Test void aMistranscribedCellIsCaught() {
        Recipe t1 = catalogue.require("dream-table1");
        Recipe.Figure f = t1.figures().get(0); // Gemma-3-4B / IO / MME = 79.3
        assertThat(f.value()).isEqualTo("79.3");
        assertThat(FigureCheck.problems(withFigure(t1, 0, new Recipe.Figure(f.model(), f.row(), f.column(), "79.8", null, f.source())),
                catalogue.excerpts())).singleElement().asString().contains("has 79.3");
        // the same number under another column
        assertThat(FigureCheck.problems(withFigure(t1, 0, new Recipe.Figure(f.model(), f.row(), "MVt", "79.3", null, f.source())),
                catalogue.excerpts())).isEmpty(); // the cell names the column read: MME
        Recipe.Source wrongCell = new Recipe.Source(f.source().excerpt(), f.source().lines(), "MVt", f.source().paperRow(), null);
        assertThat(FigureCheck.problems(withFigure(t1, 0, new Recipe.Figure(f.model(), f.row(), "MVt", "79.3", null, wrongCell)),
                catalogue.excerpts())).isNotEmpty();
        // another model's row
        assertThat(FigureCheck.problems(withFigure(t1, 0, new Recipe.Figure("LLaVA-Next-7B", f.row(), f.column(), "79.3", null, f.source())),
                catalogue.excerpts())).anyMatch(p -> p.contains("belong to Gemma-3-4B"));
        // another row's line
        Recipe.Source cot = new Recipe.Source(f.source().excerpt(), List.of(13), f.column(), "IO", null);
        assertThat(FigureCheck.problems(withFigure(t1, 0, new Recipe.Figure(f.model(), f.row(), f.column(), "80.2", null, cot)),
                catalogue.excerpts())).anyMatch(p -> p.contains("is not the row 'IO'"));
    }

    @Test void aQuoteOrArithmeticThatDoesNotHoldIsCaught() {
        Recipe main = catalogue.require("gam-agent-main");
        Recipe.Figure gam = main.figures().get(0);
        assertThat(gam.value()).isEqualTo("90.15");
        assertThat(FigureCheck.problems(withFigure(main, 0, new Recipe.Figure(gam.model(), gam.row(), gam.column(), "90.51", null, gam.source())),
                catalogue.excerpts())).anyMatch(p -> p.contains("not in the quote"));
        Recipe.Source edited = new Recipe.Source(gam.source().excerpt(), gam.source().lines(), null, null, "90.15% is achieved by GAM-Agent");
        assertThat(FigureCheck.problems(withFigure(main, 0, new Recipe.Figure(gam.model(), gam.row(), gam.column(), "90.15", null, edited)),
                catalogue.excerpts())).anyMatch(p -> p.contains("quote is not on line"));
        Recipe.Figure base = main.figures().get(2);
        assertThat(base.value()).isEqualTo("83.54");
        assertThat(FigureCheck.problems(withFigure(main, 2, new Recipe.Figure(base.model(), base.row(), base.column(), "83.45", base.derived(),
                base.source())), catalogue.excerpts())).anyMatch(p -> p.contains("subtract"));
    }

    @Test void theIssuesRecipesAreThereWithTheirEmptyRowsAndTheKmaxSweep() {
        Recipe main = catalogue.require("gam-agent-main");
        assertThat(main.method("DMPL").method()).isNull();
        assertThat(main.method("GAM-Agent").settings()).containsKey("gam.max_rounds");
        Recipe kmax = catalogue.require("gam-agent-kmax");
        assertThat(kmax.run().how()).isEqualTo("sweep");
        assertThat(kmax.run().settings().get("gam.record_full").asBoolean()).isTrue();
        assertThat(kmax.run().settings().get("gam.max_rounds").asInt()).isEqualTo(9);
        assertThat(kmax.run().sweep().get("max_rounds")).hasSize(10);
        assertThat(catalogue.require("dream-table1").methods()).extracting(Recipe.MethodRow::method)
                .contains("single", "cot", "sc", "dwi", "debate", "dream+debate");
        Recipe t4 = catalogue.require("dream-table4");
        assertThat(t4.compare()).contains("ratio");
        assertThat(t4.figures()).filteredOn(f -> f.derived() != null).extracting(Recipe.Figure::value).containsExactly("1.584", "1.299", "1.104");
    }

    @Test void everyBenchmarkMethodAndSettingIsOneGamKnows() {
        DatasetCatalogue data = DatasetCatalogue.builtIn();
        Config config = Config.defaults();
        for (Recipe r : catalogue.recipes()) {
            for (Recipe.Benchmark b : r.benchmarks()) {
                if (b.data() != null) assertThat(data.find(b.data())).as(r.id() + " " + b.column()).isNotNull();
                if (b.standIn() != null) assertThat(data.find(b.standIn())).as(r.id() + " " + b.column()).isNotNull();
                if (b.data() == null) assertThat(b.aggregate() != null || b.note() != null).as(r.id() + " " + b.column() + " says why it is empty").isTrue();
            }
            for (Recipe.MethodRow m : r.methods()) {
                if (m.method() == null) {
                    assertThat(m.note()).as(r.id() + " " + m.row()).isNotBlank();
                    continue;
                }
                assertThat(MethodRegistry.create(m.method())).as(r.id() + " " + m.row()).isNotNull();
                for (String key : m.settings().keySet()) assertThat(ConfigSchema.of(config.tree()).typeOf(key)).as(r.id() + " " + key).isNotNull();
            }
            if (r.run() != null) for (String key : r.run().settings().keySet()) assertThat(ConfigSchema.of(config.tree()).typeOf(key)).as(key).isNotNull();
        }
    }

    @Test void theIndexListsEveryRecipeFile() throws IOException, URISyntaxException {
        Path dir = Path.of(RecipeFiguresTest.class.getResource("/recipes").toURI());
        try (Stream<Path> s = Files.list(dir)) {
            List<String> files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json") && !n.equals("index.json"))
                    .map(n -> n.substring(0, n.length() - 5)).sorted().toList();
            assertThat(catalogue.recipes().stream().map(Recipe::id).sorted().toList()).isEqualTo(files);
        }
    }

    /** Where the papers' text is on the machine that transcribed them; elsewhere this check is skipped. */
    @Test void everyExcerptLineIsThePapersLineVerbatim() throws IOException {
        Path papers = Path.of(System.getProperty("gam.papers.dir", "/work/shared/papers"));
        Assumptions.assumeTrue(Files.isDirectory(papers), "no papers at " + papers + " (-Dgam.papers.dir=DIR)");
        for (Map.Entry<String, Excerpt> e : catalogue.excerpts().entrySet()) {
            List<String> lines = List.of(Files.readString(papers.resolve(e.getValue().sourceFile()), StandardCharsets.UTF_8).split("\n", -1));
            for (Map.Entry<Integer, String> l : e.getValue().lines().entrySet()) {
                assertThat(l.getValue()).as(e.getKey() + " line " + l.getKey()).isEqualTo(lines.get(l.getKey() - 1));
            }
        }
    }
}
