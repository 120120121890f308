package dev.gamagent.eval.recipe;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks every figure of a recipe against the excerpt it cites: a table cell must be the number in its
 * column on the cited line, under a line naming its model (a table names a model on its first row); a
 * prose figure must be in the quote and the quote on the cited line; a derived figure must be the stated
 * arithmetic on figures printed there; a variant's passages must be quoted from their lines. Across recipes
 * ({@link #conflicts}), two figures of one model, benchmark and configuration that differ must each say so.
 * Returns what does not hold, one line each.
 */
public final class FigureCheck {
    private FigureCheck() { }

    public static List<String> problems(Recipe r, Map<String, Excerpt> excerpts) {
        List<String> out = new ArrayList<>();
        List<String> columns = r.columns().isEmpty() ? r.benchmarks().stream().map(Recipe.Benchmark::column).toList() : r.columns();
        List<String> models = r.models().stream().map(Recipe.Model::name).toList();
        for (Recipe.Figure f : r.figures()) {
            String at = r.id() + ": " + f.model() + " / " + f.row() + " / " + f.column() + " = " + f.value();
            if (!models.contains(f.model())) out.add(at + ": model not in the recipe's models");
            if (r.method(f.row()) == null) out.add(at + ": row not in the recipe's methods");
            if (!columns.contains(f.column())) out.add(at + ": column not in the recipe's columns " + columns);
            Excerpt e = excerpts.get(f.source().excerpt());
            if (e == null) { out.add(at + ": no excerpt '" + f.source().excerpt() + "'"); continue; }
            List<String> printed = new ArrayList<>();
            for (int line : f.source().lines()) {
                String text = e.lines().get(line);
                if (text == null) { out.add(at + ": excerpt " + e.name() + " has no line " + line); continue; }
                if (f.source().quote() != null) {
                    if (!text.contains(f.source().quote())) out.add(at + ": the quote is not on line " + line + " of " + e.name());
                    printed.add(f.source().quote());
                } else {
                    printed.add(text);
                    if (f.derived() == null) checkCell(at, f, e, line, text, models, out);
                }
            }
            String evidence = String.join("\n", printed);
            if (f.derived() == null) {
                if (f.source().quote() != null && !containsNumber(evidence, f.value())) out.add(at + ": the value is not in the quote");
            } else {
                checkDerived(at, f, evidence, out);
            }
        }
        for (Recipe.Variant v : r.variants()) {
            quoted(r.id() + ": variant " + v.name() + ": its passage", v.passage(), excerpts, out);
            quoted(r.id() + ": variant " + v.name() + ": the default reading's passage", v.defaultPassage(), excerpts, out);
        }
        for (Recipe.MethodRow m : r.methods()) {
            if (m.settingsSource() == null) continue;
            Excerpt e = excerpts.get(m.settingsSource().excerpt());
            for (int line : m.settingsSource().lines()) {
                if (e == null || e.lines().get(line) == null) out.add(r.id() + ": row " + m.row() + ": settings source line " + line + " missing");
            }
        }
        return out;
    }

    private static void quoted(String at, Recipe.Source s, Map<String, Excerpt> excerpts, List<String> out) {
        Excerpt e = excerpts.get(s.excerpt());
        if (e == null) { out.add(at + ": no excerpt '" + s.excerpt() + "'"); return; }
        for (int line : s.lines()) {
            String text = e.lines().get(line);
            if (text == null) out.add(at + ": excerpt " + e.name() + " has no line " + line);
            else if (s.quote() == null || !text.contains(s.quote())) out.add(at + ": the quote is not on line " + line + " of " + e.name());
        }
    }

    /**
     * Figures of the same model on the same benchmark (its dataset) for the same method and settings in two places (two
     * recipes, or two rows of one) that differ: two experiments of the paper, which a reader must not take for one. Each
     * must carry a note naming the other's value.
     */
    public static List<String> conflicts(List<Recipe> recipes) {
        record Placed(Recipe recipe, Recipe.Figure figure, String data, Recipe.MethodRow row) {
            String where() { return recipe.id() + ": " + figure.model() + " / " + figure.row() + " / " + figure.column() + " = " + figure.value(); }
        }
        List<Placed> all = new ArrayList<>();
        for (Recipe r : recipes) {
            for (Recipe.Figure f : r.figures()) {
                Recipe.Benchmark b = r.benchmarks().stream().filter(x -> x.column().equals(f.column())).findFirst().orElse(null);
                Recipe.MethodRow m = r.method(f.row());
                if (b == null || b.data() == null || m == null || m.method() == null || f.derived() != null) continue;
                all.add(new Placed(r, f, b.data(), m));
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                Placed a = all.get(i), b = all.get(j);
                if (!a.figure().model().equals(b.figure().model()) || !a.data().equals(b.data()) || !a.row().method().equals(b.row().method())
                        || !a.row().settings().equals(b.row().settings()) || a.figure().value().equals(b.figure().value())) continue;
                for (Placed[] p : new Placed[][] {{a, b}, {b, a}}) {
                    String note = p[0].figure().note();
                    if (note == null || !containsNumber(note, p[1].figure().value())) {
                        out.add(p[0].where() + ": " + p[1].where() + " is the same model, benchmark and configuration with another figure; "
                                + "its note must say so (name " + p[1].figure().value() + ")");
                    }
                }
            }
        }
        return out;
    }

    private static void checkCell(String at, Recipe.Figure f, Excerpt e, int line, String text, List<String> models, List<String> out) {
        String cell = f.source().cell() != null ? f.source().cell() : f.column();
        int col = e.columns().indexOf(cell);
        if (col < 0) { out.add(at + ": excerpt " + e.name() + " has no column '" + cell + "' " + e.columns()); return; }
        // a table whose columns are models (DREAM Table 3): the cell read must be the figure's model's
        if (models.stream().anyMatch(e.columns()::contains) && !cell.equals(f.model())) {
            out.add(at + ": column '" + cell + "' of " + e.name() + " is " + (models.contains(cell) ? cell + "'s" : "no model's") + ", not " + f.model() + "'s");
        }
        List<String> nums = Excerpt.numericCells(text);
        if (col >= nums.size()) { out.add(at + ": line " + line + " has " + nums.size() + " numbers, none for " + cell); return; }
        if (!nums.get(col).equals(f.value())) out.add(at + ": line " + line + " has " + nums.get(col) + " in column " + cell);
        if (f.source().paperRow() == null || !text.contains("| " + f.source().paperRow() + " |")) {
            out.add(at + ": line " + line + " is not the row '" + f.source().paperRow() + "'");
        }
        // the model: named in the first cell of this line or of the nearest line above that names one, else in the caption
        String named = null;
        for (int l = line; l >= 0 && named == null; l--) {
            String t = e.lines().get(l);
            if (t == null) continue;
            String[] cells = t.split("\\|");
            String first = cells.length > 1 ? cells[1].strip() : "";
            if (models.contains(first)) named = first;
        }
        if (named == null) {
            // a table for one model names it in its caption (DREAM Table 4: "... for Qwen2.5-VL-7B.")
            if (e.lines().values().stream().noneMatch(t -> t.contains(f.model()))) out.add(at + ": excerpt " + e.name() + " never names " + f.model());
        } else if (!f.model().equals(named)) {
            out.add(at + ": the rows of line " + line + " belong to " + named);
        }
    }

    private static void checkDerived(String at, Recipe.Figure f, String evidence, List<String> out) {
        for (List<String> operands : List.of(f.derived().of(), f.derived().also())) {
            if (operands.isEmpty()) continue;
            for (String o : operands) if (!containsNumber(evidence, o)) out.add(at + ": operand " + o + " is not printed in its source");
            if (operands.size() != 2) { out.add(at + ": a derived figure takes two operands"); continue; }
            BigDecimal a = new BigDecimal(operands.get(0)), b = new BigDecimal(operands.get(1));
            BigDecimal v = switch (f.derived().op()) {
                case "subtract" -> a.subtract(b);
                case "divide" -> a.divide(b, MathContext.DECIMAL64);
                default -> null;
            };
            if (v == null) { out.add(at + ": unknown op '" + f.derived().op() + "'"); continue; }
            BigDecimal stated = new BigDecimal(f.value());
            if (v.setScale(stated.scale(), RoundingMode.HALF_UP).compareTo(stated) != 0) {
                out.add(at + ": " + operands.get(0) + " " + f.derived().op() + " " + operands.get(1) + " is " + v.toPlainString());
            }
        }
    }

    /** Whether {@code text} has {@code number} as a whole number token (not inside a longer number). */
    static boolean containsNumber(String text, String number) {
        return Pattern.compile("(?<![\\d.])" + Pattern.quote(number) + "(?![\\d])").matcher(text).find();
    }
}
