package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.gamagent.eval.report.Provenance;
import dev.gamagent.eval.stats.Interval;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A recipe's grid in the paper's layout — rows methods, columns benchmarks — with our figure and its 95 % interval
 * (Wilson, from the statistics module), the paper's figure for the model run when the paper reports that model, and
 * Δ = ours − paper. A recipe with columns of its own (DREAM Table 4) is compared as they say: prompt tokens
 * (totals, not comparable: Δ left out), accuracy over all its benchmarks, and the ratio of a "w/ DREAM" row's prompt
 * tokens to its bare debate's.
 *
 * @param paperModel the paper's name of the model whose figures are in the paper column (null: none)
 * @param paperLabel how the paper column is labelled: the model's name, or a warning that it is not the model run
 * @param variant    the reading the rows ran ({@code --variant}), or null: the recipe's default reading
 * @param servedModels what the server said it serves and its replies said they were, when that is not {@code --model} alone
 *                     (empty otherwise)
 * @param provenance   per column run, where its figures come from ({@link Provenance}: file, md5 check, questions run, stand-in,
 *                     grading, judge)
 * @param notes      stand-ins, empty cells, marks and what the figures are
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PaperTable(String recipe, String paper, String table, String title, String unit, String modelRun, String paperModel,
                         String paperLabel, boolean paperIsModelRun, List<String> servedModels, List<String> columns, List<String> rows,
                         List<Cell> cells, List<RecipePlan.Override> overrides, String variant, List<Provenance> provenance, List<String> notes) {

    /**
     * Who answered and where each column's figures come from: the model names the server and its replies gave when they are
     * not {@code --model} alone (empty: none said otherwise), and each column's {@link Provenance} (a column not run has none).
     */
    public record Sources(List<String> servedModels, Map<String, Provenance> provenance) {
        public static final Sources NONE = new Sources(List.of(), Map.of());

        public Sources {
            servedModels = List.copyOf(servedModels);
            provenance = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(provenance));
        }
    }

    /** What we measured for one row on one benchmark: {@code right} of {@code n} graded items and what the answers cost. */
    public record Measured(int right, int n, double promptTokens, double completionTokens, double calls, int answers) {
        Measured plus(Measured o) {
            return new Measured(right + o.right, n + o.n, promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                    calls + o.calls, answers + o.answers);
        }
    }

    /**
     * One cell: ours (null: not run), its interval and items, the paper's figure as printed (null: none for this model), Δ;
     * {@code imported}: the file ours was read from when it is the official score of a test split ({@link ImportedScores}), else null;
     * {@code deltaWithheld}: why Δ is not given although both figures are (the row ran with settings other than the recipe's), else null.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Cell(String row, String column, Double ours, Interval ci, Integer n, String paper, Double delta, String note, String imported,
                       String deltaWithheld, String importedSplit, List<String> marks) {
        public Cell(String row, String column, Double ours, Interval ci, Integer n, String paper, Double delta, String note, String imported,
                    String deltaWithheld) {
            this(row, column, ours, ci, n, paper, delta, note, imported, deltaWithheld, null, null);
        }

        public Cell(String row, String column, Double ours, Interval ci, Integer n, String paper, Double delta, String note, String imported) {
            this(row, column, ours, ci, n, paper, delta, note, imported, null);
        }

        public Cell(String row, String column, Double ours, Interval ci, Integer n, String paper, Double delta, String note) {
            this(row, column, ours, ci, n, paper, delta, note, null, null);
        }

        /** This cell without its Δ, saying why. */
        Cell withoutDelta(String why) { return new Cell(row, column, ours, ci, n, paper, null, note, imported, why, importedSplit, marks); }

        /** This cell with the marks of where its figure comes from ({@link Provenance#marks}); none: as it is. */
        Cell withMarks(List<String> m) {
            return m.isEmpty() || ours == null ? this : new Cell(row, column, ours, ci, n, paper, delta, note, imported, deltaWithheld, importedSplit, List.copyOf(m));
        }
    }

    /**
     * Builds the table. {@code measured}: row → column → what we measured; {@code standIns}: column → why another split
     * was run; {@code paperModel} the matched model (null: the paper's column stays empty); {@code notPaperModel} why
     * the model run is not the paper's even so (the built-in model, the simulator), else null.
     */
    public static PaperTable build(Recipe r, String modelRun, Recipe.Model paperModel, String notPaperModel,
                                   Map<String, Map<String, Measured>> measured, Map<String, String> standIns) {
        return build(r, modelRun, paperModel, notPaperModel, measured, standIns, Map.of());
    }

    /**
     * As above, with {@code imported}: row → column → the official scores of the column's test split, read back from the
     * evaluation server's reply ({@code --import-scores}); each takes its cell's place of the dev stand-in's figure,
     * labelled as imported, the stand-in's figure kept in the cell's note.
     */
    public static PaperTable build(Recipe r, String modelRun, Recipe.Model paperModel, String notPaperModel,
                                   Map<String, Map<String, Measured>> measured, Map<String, String> standIns,
                                   Map<String, Map<String, ImportedScores>> imported) {
        return build(r, modelRun, paperModel, notPaperModel, measured, standIns, imported, List.of());
    }

    /**
     * As above, with {@code overrides}: the command line's settings that replace the recipe's for some rows
     * ({@link RecipePlan#overrides}); those rows ran another setting than the paper's, so their Δ is withheld (the paper's
     * figure stays beside ours), and the table says which setting, with which value, in place of which.
     */
    public static PaperTable build(Recipe r, String modelRun, Recipe.Model paperModel, String notPaperModel,
                                   Map<String, Map<String, Measured>> measured, Map<String, String> standIns,
                                   Map<String, Map<String, ImportedScores>> imported, List<RecipePlan.Override> overrides) {
        return build(r, modelRun, paperModel, notPaperModel, measured, standIns, imported, overrides, Sources.NONE);
    }

    /**
     * As above, with {@code sources}: the models the server and its replies named (said under the table when they are not
     * {@code --model}), and each column's provenance, printed under the table; a figure from a file that is not the official
     * one, from part of the benchmark, or graded otherwise than the paper's harness grades it is marked ({@code [u]},
     * {@code [p]}, {@code [g]}) with the note saying why.
     */
    public static PaperTable build(Recipe r, String modelRun, Recipe.Model paperModel, String notPaperModel,
                                   Map<String, Map<String, Measured>> measured, Map<String, String> standIns,
                                   Map<String, Map<String, ImportedScores>> imported, List<RecipePlan.Override> overrides, Sources sources) {
        List<String> notes = new ArrayList<>();
        boolean own = !r.columns().isEmpty();
        List<String> columns = own ? r.columns() : r.benchmarks().stream().map(Recipe.Benchmark::column).toList();
        List<String> rows = r.methods().stream().map(Recipe.MethodRow::row).toList();
        Map<String, String> header = new LinkedHashMap<>();
        for (String c : columns) header.put(c, c);
        standIns.forEach((column, why) -> {
            if (header.containsKey(column)) header.put(column, column + "†");
            boolean any = imported.values().stream().anyMatch(byColumn -> byColumn.containsKey(column));
            notes.add("† " + why + (any ? "; figures marked 'imported' are the test split's official scores read back with --import-scores "
                    + "(no interval: the server gives none), every other figure in that column is the stand-in's." : "; every figure in that column is the stand-in's."));
        });
        List<Cell> cells = new ArrayList<>();
        for (Recipe.MethodRow m : r.methods()) {
            Map<String, Measured> mine = measured.getOrDefault(m.row(), Map.of());
            List<String> changed = overrides.stream().filter(o -> o.rows().contains(m.row()))
                    .map(o -> "--set " + o.key() + "=" + o.value() + " for the recipe's " + String.join(", ", o.recipeValues())).toList();
            String withheld = changed.isEmpty() ? null : "ran with " + String.join("; ", changed) + ", not the paper's setting";
            for (String c : columns) {
                String paper = null;
                if (paperModel != null) {
                    for (Recipe.Figure f : r.figures()) {
                        if (f.model().equals(paperModel.name()) && f.row().equals(m.row()) && f.column().equals(c)) {
                            paper = f.value() + (f.derived() != null ? "*" : "");
                        }
                    }
                }
                Cell cell = own ? ownColumn(r, m, c, measured, paper) : benchmarkColumn(r, m.row(), c, mine, measured, paper);
                ImportedScores official = imported.getOrDefault(m.row(), Map.of()).get(c);
                if (official != null && !own) {
                    String standIn = cell.ours() == null ? "" : String.format(Locale.ROOT, "; the dev stand-in gave %.2f (n=%d)", cell.ours(), cell.n());
                    Cell im = new Cell(cell.row(), header.get(c), official.overall(), null, null, paper, delta(official.overall(), paper),
                            (official.isTest() ? "imported: the official score of the test split, from " : "imported: the score of the file's split '"
                                    + official.split() + "' (not 'test'), from ") + official.file() + standIn,
                            official.file().toString(), null, official.split(), null);
                    cells.add(withheld != null && im.delta() != null ? im.withoutDelta(withheld) : im);
                    continue;
                }
                Cell out = new Cell(cell.row(), header.get(c), cell.ours(), cell.ci(), cell.n(), cell.paper(), cell.delta(), cell.note())
                        .withMarks(marks(r, c, own, sources.provenance()));
                cells.add(withheld != null && out.delta() != null ? out.withoutDelta(withheld) : out);
            }
            if (m.method() == null) notes.add(m.row() + ": no method (" + m.note() + "): an empty row.");
        }
        String label;
        if (paperModel == null) {
            label = "paper";
            notes.add("The paper reports no figures for " + (modelRun == null ? "the model run" : modelRun) + " (its models: "
                    + String.join(", ", r.models().stream().map(Recipe.Model::name).toList()) + "; aliases in the recipe): the paper column is empty"
                    + (notPaperModel != null ? " (--paper-model NAME sets one of them beside ours, labelled as not the model run)." : "."));
        } else if (notPaperModel != null) {
            label = "paper, " + paperModel.name() + " — NOT the model run here (" + notPaperModel + ")";
            notes.add("The paper column holds " + paperModel.name() + "'s figures for reference only: " + notPaperModel + ", not "
                    + paperModel.name() + "; Δ compares different models.");
        } else {
            label = "paper, " + paperModel.name();
        }
        if (!sources.servedModels().isEmpty()) {
            notes.add("Who answered: the server (GET /models) and its replies (each reply's model) named " + String.join(", ", sources.servedModels())
                    + "; the run asked for " + (modelRun == null ? "the server's own model" : modelRun) + ".");
        }
        for (var e : sources.provenance().entrySet()) notes.add("Data, " + e.getKey() + ": " + e.getValue().describe() + ".");
        for (String mark : List.of(Provenance.UNOFFICIAL, Provenance.PARTIAL, Provenance.NOT_COMPARABLE)) {
            for (Provenance p : sources.provenance().values()) {
                if (p.marks().contains(mark)) notes.add("[" + mark + "] " + p.meaning(mark) + ".");
            }
        }
        boolean importedOther = imported.values().stream().flatMap(x -> x.values().stream()).anyMatch(x -> !x.isTest());
        if (importedOther) {
            notes.add("Imported figures marked 'split …' come from a file whose row is another split than 'test' (VLMEvalKit writes 'none' "
                    + "when its data had no split column): shown as what they are, not as the official test score.");
        }
        if (r.reading() != null) notes.add(reading(r.reading()));
        if (paperModel != null) {
            // a figure that must not be read alone (another experiment's for the same model and benchmark), as the recipe says
            for (Recipe.Figure f : r.figures()) {
                if (f.model().equals(paperModel.name()) && f.note() != null && rows.contains(f.row()) && columns.contains(f.column())) {
                    notes.add("Paper's " + f.value() + " (" + f.row() + ", " + f.column() + "): " + f.note() + ".");
                }
            }
        }
        for (RecipePlan.Override o : overrides) {
            notes.add("Settings other than the recipe's: " + o.describe() + "; Δ against the paper is withheld for "
                    + (o.rows().size() > 1 ? "them" : "it") + " (the paper ran its own setting; a setting given at the recipe's value changes nothing).");
        }
        notes.add("ours: " + (own ? "each column as its header says; accuracy" : r.metric() + (r.unit() != null ? " (" + r.unit() + ")" : ""))
                + " with its 95 % interval (" + IntervalMethod.WILSON.label() + ") over the graded items (a circular group counts once); Δ = ours − paper."
                + " Paper figures marked * are derived (the recipe says how). Missing in the paper's text: " + r.missing());
        return new PaperTable(r.id(), r.paper(), r.table(), r.title(), r.unit(), modelRun, paperModel == null ? null : paperModel.name(), label,
                paperModel != null && notPaperModel == null, sources.servedModels(), columns.stream().map(header::get).toList(), rows, cells,
                List.copyOf(overrides), r.reading() == null ? null : r.reading().name(), List.copyOf(sources.provenance().values()), notes);
    }

    /**
     * The marks of a cell's figure: its column's run's; an average or a total over benchmarks carries those of every column
     * it is made from.
     */
    private static List<String> marks(Recipe r, String column, boolean own, Map<String, Provenance> provenance) {
        Recipe.Benchmark b = r.benchmarks().stream().filter(x -> x.column().equals(column)).findFirst().orElse(null);
        List<Provenance> from = new ArrayList<>();
        if (own || b != null && b.aggregate() != null) {
            for (Recipe.Benchmark o : r.benchmarks()) {
                if (o.aggregate() == null && !RecipePlan.ownColumn(o) && provenance.containsKey(o.column())) from.add(provenance.get(o.column()));
            }
        } else if (provenance.containsKey(column)) {
            from.add(provenance.get(column));
        }
        java.util.TreeSet<String> all = new java.util.TreeSet<>(java.util.Comparator.comparingInt(
                m -> List.of(Provenance.UNOFFICIAL, Provenance.PARTIAL, Provenance.NOT_COMPARABLE).indexOf(m)));
        for (Provenance p : from) all.addAll(p.marks());
        return List.copyOf(all);
    }

    /** What a variant's rows ran, and in place of what: the reading, its passage and the default's. */
    static String reading(Recipe.Variant v) {
        return "Variant " + v.name() + " (rows " + String.join(", ", v.rows()) + ", " + v.setFlags() + "): " + v.reads() + " — reading "
                + v.passage().excerpt() + " line " + v.passage().lines().get(0) + ", \"" + v.passage().quote() + "\"; the recipe's default reading: "
                + v.defaultReading() + " (" + v.defaultPassage().excerpt() + " line " + v.defaultPassage().lines().get(0) + "). Δ is against the "
                + "paper's figure under this reading.";
    }

    private static Cell benchmarkColumn(Recipe r, String row, String column, Map<String, Measured> mine, Map<String, Map<String, Measured>> all,
                                        String paper) {
        Recipe.Benchmark b = r.benchmarks().stream().filter(x -> x.column().equals(column)).findFirst().orElse(null);
        if (b != null && b.aggregate() != null) {
            // the paper's average of the other columns: ours when every one of them was run
            List<Double> parts = new ArrayList<>();
            for (Recipe.Benchmark o : r.benchmarks()) {
                if (o.aggregate() != null || RecipePlan.ownColumn(o)) continue;
                Measured m = mine.get(o.column());
                if (m == null || m.n() == 0) return new Cell(row, column, null, null, null, paper, null, b.aggregate() + ": needs every column");
                parts.add(100.0 * m.right() / m.n());
            }
            double mean = parts.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            return new Cell(row, column, mean, null, null, paper, delta(mean, paper), b.aggregate());
        }
        Measured m = mine.get(column);
        if (m == null || m.n() == 0) return new Cell(row, column, null, null, null, paper, null, b != null && b.data() == null ? "not runnable yet" : null);
        return accuracy(row, column, m, paper);
    }

    private static Cell accuracy(String row, String column, Measured m, String paper) {
        Interval ci = IntervalMethod.WILSON.proportion(m.right(), m.n(), Pairwise.LEVEL);
        double ours = 100.0 * m.right() / m.n();
        return new Cell(row, column, ours, new Interval(100 * ci.lo(), 100 * ci.hi()), m.n(), paper, delta(ours, paper), null);
    }

    /** DREAM Table 4's columns: over all the benchmarks run. */
    private static Cell ownColumn(Recipe r, Recipe.MethodRow m, String column, Map<String, Map<String, Measured>> all, String paper) {
        Measured total = sum(all.get(m.row()));
        if (total == null) return new Cell(m.row(), column, null, null, null, paper, null, null);
        String c = column.toLowerCase(Locale.ROOT);
        if (c.contains("accuracy")) return total.n() == 0 ? new Cell(m.row(), column, null, null, null, paper, null, null) : accuracy(m.row(), column, total, paper);
        if (c.contains("tokens (m)")) {
            return new Cell(m.row(), column, total.promptTokens() / 1e6, null, total.answers(), paper, null,
                    "a total over our questions and tokenizer: not comparable with the paper's (compare the ratio)");
        }
        if (c.contains("÷")) {
            String bare = m.row().replace(" w/ DREAM", "");
            if (bare.equals(m.row())) return new Cell(m.row(), column, null, null, null, paper, null, null);
            Measured base = sum(all.get(bare));
            if (base == null || base.promptTokens() == 0) return new Cell(m.row(), column, null, null, null, paper, null, bare + " not run");
            double ratio = total.promptTokens() / base.promptTokens();
            return new Cell(m.row(), column, ratio, null, total.answers(), paper, delta(ratio, paper), "prompt tokens ÷ " + bare + "'s");
        }
        throw new IllegalArgumentException("recipe " + r.id() + ": no way to measure its column '" + column + "'");
    }

    private static Measured sum(Map<String, Measured> byColumn) {
        if (byColumn == null || byColumn.isEmpty()) return null;
        Measured t = null;
        for (Measured m : byColumn.values()) t = t == null ? m : t.plus(m);
        return t;
    }

    private static Double delta(double ours, String paper) {
        if (paper == null) return null;
        return ours - Double.parseDouble(paper.replace("*", ""));
    }

    /**
     * The paper's model that {@code model} (as given to {@code --model}, or a server's name for it) is: its name or one of its
     * aliases, ignoring case and a {@code kind:} prefix; null when the paper does not report it.
     */
    public static Recipe.Model matchModel(Recipe r, String model) {
        if (model == null || model.isBlank()) return null;
        String m = model.strip().toLowerCase(Locale.ROOT);
        for (int pass = 0; pass < 2; pass++) {
            for (Recipe.Model x : r.models()) {
                if (x.name().equalsIgnoreCase(m)) return x;
                for (String a : x.aliases()) if (a.equalsIgnoreCase(m)) return x;
            }
            int colon = m.indexOf(':');
            // "openai:Qwen/Qwen2.5-VL-7B-Instruct" → the model part; an ollama tag ("qwen2.5vl:7b") was tried whole first
            if (colon < 0) break;
            m = m.substring(colon + 1);
        }
        return null;
    }

    /** The table as markdown: a row per method, for each column ours (95 % interval), the paper's figure, Δ. */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(recipe).append(": ").append(title).append("\n\n");
        sb.append(paper).append(", ").append(table).append(". Model run: ").append(modelRun == null ? "(the server's own)" : modelRun)
                .append(variant == null ? "" : ". Read as variant " + variant + " (see below)").append(".\n\n");
        String paperHeader = paperLabel;
        if (paperModel != null && !paperIsModelRun) {
            // the warning once above the table; each paper column points to it
            sb.append("‡ Paper column: ").append(paperLabel).append(".\n\n");
            paperHeader = "paper ‡";
        }
        sb.append("| row |");
        for (String c : columns) sb.append(' ').append(c).append(" ours (95 % CI) | ").append(paperHeader).append(" | Δ |");
        sb.append("\n|---|");
        sb.append("---:|---:|---:|".repeat(columns.size()));
        sb.append('\n');
        for (String row : rows) {
            sb.append("| ").append(row).append(" |");
            for (String c : columns) {
                Cell cell = cells.stream().filter(x -> x.row().equals(row) && x.column().equals(c)).findFirst().orElse(null);
                sb.append(' ').append(ours(cell)).append(" | ").append(cell == null || cell.paper() == null ? "" : cell.paper())
                        .append(" | ").append(cell == null ? "" : cell.deltaWithheld() != null ? "withheld" : cell.delta() == null ? ""
                                : String.format(Locale.ROOT, "%+.2f", cell.delta())).append(" |");
            }
            sb.append('\n');
        }
        sb.append('\n');
        for (String n : notes) sb.append("- ").append(n).append('\n');
        return sb.toString();
    }

    private static String ours(Cell c) {
        if (c == null || c.ours() == null) return "";
        String v = Math.abs(c.ours()) < 10 && c.ci() == null ? String.format(Locale.ROOT, "%.3f", c.ours()) : String.format(Locale.ROOT, "%.2f", c.ours());
        if (c.ci() != null) v += String.format(Locale.ROOT, " (%.1f–%.1f, n=%d)", c.ci().lo(), c.ci().hi(), c.n());
        if (c.imported() != null) v += c.importedSplit() == null || c.importedSplit().equalsIgnoreCase("test") ? " (imported, official test)"
                : " (imported, split " + c.importedSplit() + ")";
        if (c.marks() != null && !c.marks().isEmpty()) v += " [" + String.join(",", c.marks()) + "]";
        return v;
    }
}
