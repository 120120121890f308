package dev.gamagent.cli;

import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.recipe.ImportedScores;
import dev.gamagent.eval.recipe.Recipe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Which cell of a recipe's table each {@code gam reproduce --import-scores} file fills. */
final class ScoreImports {
    private ScoreImports() { }

    /**
     * {@code --import-scores}: row → column → the official scores each file holds. The column is the recipe's column whose
     * dataset has no public answers and whose name ends the file's name ({@code <method>_<dataset>_acc.csv}; the only such
     * column otherwise), the row is {@code ROW=} or the method the file's name starts with. Read before anything is asked,
     * so a wrong file stops the command at once.
     */
    static Map<String, Map<String, ImportedScores>> of(Recipe r, List<String> importScores) {
        Map<String, Map<String, ImportedScores>> out = new LinkedHashMap<>();
        if (importScores.isEmpty()) return out;
        DatasetCatalogue catalogue = DatasetCatalogue.builtIn();
        List<Recipe.Benchmark> closed = r.benchmarks().stream().filter(b -> b.data() != null && catalogue.find(b.data()) != null
                && !catalogue.find(b.data()).answers()).toList();
        if (closed.isEmpty()) {
            throw new IllegalArgumentException("--import-scores: recipe " + r.id() + " has no column whose split lacks public answers; "
                    + "imported scores take the place of a stand-in (e.g. gam-agent-main's MMBench_V11_Test)");
        }
        for (String given : importScores) {
            String rowName = null, path = given;
            int eq = given.indexOf('=');
            if (eq > 0 && !Files.exists(Path.of(given))) {
                rowName = given.substring(0, eq);
                path = given.substring(eq + 1);
            }
            Path file = Path.of(path);
            if (!Files.exists(file)) throw new IllegalArgumentException("--import-scores " + given + ": " + file + " does not exist");
            String[] named = ImportedScores.methodAndDataset(file, closed.stream().map(Recipe.Benchmark::data).toList());
            Recipe.Benchmark column;
            if (named != null) {
                column = closed.stream().filter(b -> b.data().equalsIgnoreCase(named[1])).findFirst().orElseThrow();
                if (rowName == null) rowName = named[0];
            } else if (closed.size() == 1) {
                column = closed.get(0);
            } else {
                throw new IllegalArgumentException("--import-scores " + given + ": the file's name does not say which column it is (name it "
                        + "<method>_<dataset>_acc.csv with one of " + closed.stream().map(Recipe.Benchmark::data).toList() + ")");
            }
            if (rowName == null) {
                throw new IllegalArgumentException("--import-scores " + given + ": say which row it is (ROW=FILE), or name the file "
                        + "<method>_" + column.data() + "_acc.csv as VLMEvalKit names its accuracy file");
            }
            String want = rowName.strip();
            List<Recipe.MethodRow> rows = r.methods().stream().filter(m -> m.row().equalsIgnoreCase(want)).toList();
            if (rows.isEmpty()) rows = r.methods().stream().filter(m -> want.equalsIgnoreCase(m.method())).toList();
            if (rows.size() != 1) {
                throw new IllegalArgumentException("--import-scores " + given + ": '" + want + "' " + (rows.isEmpty() ? "is no row or method"
                        : "matches rows " + rows.stream().map(Recipe.MethodRow::row).toList() + "; give one as ROW=FILE") + " of recipe " + r.id()
                        + " (its rows: " + r.methods().stream().map(m -> m.row() + (m.method() != null ? " (" + m.method() + ")" : "")).toList() + ")");
            }
            ImportedScores scores = ImportedScores.read(file);
            out.computeIfAbsent(rows.get(0).row(), k -> new LinkedHashMap<>()).put(column.column(), scores);
            System.err.printf(Locale.ROOT, "note: %s / %s: %s %.2f %% imported from %s (%s), in place of the dev stand-in%n",
                    column.column(), rows.get(0).row(), scores.isTest() ? "the official test score" : "the score of the file's split '" + scores.split()
                            + "' (not 'test'; shown as such)", scores.overall(), file, scores.fractions() ? "fractions" : "percentages");
        }
        return out;
    }

    /**
     * Each imported file's categories against its column's benchmark: the categories of the file the column runs (its stand-in,
     * whose categories are the test split's). Checked once the files are at hand, before anything is asked; a file of another
     * benchmark is refused in one line naming what differs.
     */
    static void checkCategories(Map<String, Map<String, ImportedScores>> imported, List<ReproduceBill.Planned> plan) {
        for (var byColumn : imported.values()) {
            for (var e : byColumn.entrySet()) {
                ReproduceBill.Planned p = plan.stream().filter(x -> x.run().benchmark().column().equals(e.getKey())).findFirst().orElse(null);
                if (p == null || !Files.isRegularFile(p.file()) || !p.file().getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".tsv")) continue;
                e.getValue().checkCategories(p.run().benchmark().data(), ImportedScores.categoriesOf(p.file()), p.file().getFileName().toString());
            }
        }
    }
}
