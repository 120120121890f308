package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One table of a paper as data ({@code recipes/<id>.json}): the benchmarks (columns), the methods (rows)
 * with the hyperparameters the paper states, the models with the names servers give them, and every
 * published figure the text we hold has, each with the excerpt line it was transcribed from.
 *
 * @param table   where in the paper ("Table 1", "section 3, 'Debate Length'")
 * @param compare how our figures are set beside the paper's when totals differ (Table 4: ratios), or null
 * @param run     how the grid is run when it is not one {@code gam eval} per benchmark (the K_max ablation:
 *                one recorded run re-decided with {@code gam sweep}), or null
 * @param missing  what the text we hold lacks (those cells stay empty)
 * @param variants other readings of passages the recipe reads one way, each a user can pick ({@code --variant NAME})
 * @param reading  the variant this recipe's rows are set for ({@link #withVariant}), or null: the default reading
 */
public record Recipe(String id, String paper, String paperFile, String table, String title, String metric, String unit,
                     String compare, List<Benchmark> benchmarks, List<String> columns, List<MethodRow> methods, List<Model> models,
                     List<Figure> figures, Run run, String missing, List<Variant> variants, Variant reading) {

    /** A column: the benchmark's name in the paper and the dataset it is ({@code null}: not runnable yet, or an aggregate). */
    public record Benchmark(String column, String data, String standIn, String aggregate, String note) { }

    /**
     * A row: the paper's name for it, our method ({@code null}: a comparator we could not identify, an empty
     * row), the settings that make it the paper's ({@code --set} keys) and what the paper says about them.
     */
    public record MethodRow(String row, String method, Map<String, JsonNode> settings, String paperSettings, Source settingsSource, String note) { }

    /** A model as the paper names it and as servers name it. */
    public record Model(String name, List<String> aliases) { }

    /**
     * One published figure, as printed ({@code value} keeps its digits), with where it comes from; {@code note}: what a
     * reader must know beside it (another experiment's figure for the same model and benchmark), or null.
     */
    public record Figure(String model, String row, String column, String value, Derived derived, Source source, String note) {
        public Figure(String model, String row, String column, String value, Derived derived, Source source) {
            this(model, row, column, value, derived, source, null);
        }
    }

    /** A figure the paper implies rather than prints: {@code op} over the printed figures {@code of} (and {@code also}, a second way to the same value). */
    public record Derived(String op, List<String> of, List<String> also) { }

    /**
     * Where a figure or setting was read: an excerpt file and the source line(s); for a table, the cell's
     * column and the row's label as printed; for prose, the verbatim quote that holds it.
     */
    public record Source(String excerpt, List<Integer> lines, String cell, String paperRow, String quote) { }

    /** A grid that is run another way than one {@code gam eval} per benchmark and method. */
    public record Run(String how, String method, Map<String, JsonNode> settings, Map<String, List<JsonNode>> sweep, String why) { }

    /**
     * Another reading of a passage ({@code passage}, verbatim) than the recipe's default ({@code defaultReading}, from
     * {@code defaultPassage}): picked by name, it gives the rows {@code rows} the settings {@code settings} on top of
     * their own (for a sweep, the recorded run too, since every row is re-decided from it).
     */
    public record Variant(String name, String reads, Source passage, String defaultReading, Source defaultPassage, List<String> rows,
                          Map<String, JsonNode> settings) {
        /** Its settings as {@code --set} gives them: {@code --set gam.max_rounds=10}. */
        public String setFlags() {
            return String.join(" ", settings.entrySet().stream()
                    .map(e -> "--set " + e.getKey() + "=" + (e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString())).toList());
        }
    }

    /**
     * This recipe read as variant {@code name} (null or blank: as it is); an unknown name throws, naming the recipe's
     * variants.
     */
    public Recipe withVariant(String name) {
        if (name == null || name.isBlank()) return this;
        Variant v = variants.stream().filter(x -> x.name().equalsIgnoreCase(name.strip())).findFirst().orElseThrow(() ->
                new IllegalArgumentException("recipe " + id + " has no variant '" + name.strip() + "'; " + (variants.isEmpty()
                        ? "it has none (it reads its passages one way)"
                        : "its variants: " + variants.stream().map(Variant::name).toList() + " ('gam reproduce --show " + id + "')")));
        List<MethodRow> rows = methods.stream().map(m -> !v.rows().contains(m.row()) ? m : new MethodRow(m.row(), m.method(),
                overlay(m.settings(), v.settings()), m.paperSettings(), m.settingsSource(), m.note())).toList();
        Run sweep = run == null ? null : new Run(run.how(), run.method(), overlay(run.settings(), v.settings()), run.sweep(), run.why());
        return new Recipe(id, paper, paperFile, table, title, metric, unit, compare, benchmarks, columns, rows, models, figures, sweep, missing,
                variants, v);
    }

    /** The same recipe with {@code figures} in place of its own. */
    public Recipe withFigures(List<Figure> figures) {
        return new Recipe(id, paper, paperFile, table, title, metric, unit, compare, benchmarks, columns, methods, models, List.copyOf(figures),
                run, missing, variants, reading);
    }

    private static Map<String, JsonNode> overlay(Map<String, JsonNode> base, Map<String, JsonNode> top) {
        Map<String, JsonNode> out = new LinkedHashMap<>(base);
        out.putAll(top);
        return Collections.unmodifiableMap(out);
    }

    /** The row named {@code row}, or null. */
    public MethodRow method(String row) {
        return methods.stream().filter(m -> m.row().equals(row)).findFirst().orElse(null);
    }

    /** Every cell of the grid (models × rows × columns). */
    public int cells() { return models.size() * methods.size() * (columns.isEmpty() ? benchmarks.size() : columns.size()); }
}
