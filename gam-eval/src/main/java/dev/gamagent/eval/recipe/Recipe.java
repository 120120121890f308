package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;

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
 * @param missing what the text we hold lacks (those cells stay empty)
 */
public record Recipe(String id, String paper, String paperFile, String table, String title, String metric, String unit,
                     String compare, List<Benchmark> benchmarks, List<String> columns, List<MethodRow> methods, List<Model> models,
                     List<Figure> figures, Run run, String missing) {

    /** A column: the benchmark's name in the paper and the dataset it is ({@code null}: not runnable yet, or an aggregate). */
    public record Benchmark(String column, String data, String standIn, String aggregate, String note) { }

    /**
     * A row: the paper's name for it, our method ({@code null}: a comparator we could not identify, an empty
     * row), the settings that make it the paper's ({@code --set} keys) and what the paper says about them.
     */
    public record MethodRow(String row, String method, Map<String, JsonNode> settings, String paperSettings, Source settingsSource, String note) { }

    /** A model as the paper names it and as servers name it. */
    public record Model(String name, List<String> aliases) { }

    /** One published figure, as printed ({@code value} keeps its digits), with where it comes from. */
    public record Figure(String model, String row, String column, String value, Derived derived, Source source) { }

    /** A figure the paper implies rather than prints: {@code op} over the printed figures {@code of} (and {@code also}, a second way to the same value). */
    public record Derived(String op, List<String> of, List<String> also) { }

    /**
     * Where a figure or setting was read: an excerpt file and the source line(s); for a table, the cell's
     * column and the row's label as printed; for prose, the verbatim quote that holds it.
     */
    public record Source(String excerpt, List<Integer> lines, String cell, String paperRow, String quote) { }

    /** A grid that is run another way than one {@code gam eval} per benchmark and method. */
    public record Run(String how, String method, Map<String, JsonNode> settings, Map<String, List<JsonNode>> sweep, String why) { }

    /** The row named {@code row}, or null. */
    public MethodRow method(String row) {
        return methods.stream().filter(m -> m.row().equals(row)).findFirst().orElse(null);
    }

    /** Every cell of the grid (models × rows × columns). */
    public int cells() { return models.size() * methods.size() * (columns.isEmpty() ? benchmarks.size() : columns.size()); }
}
