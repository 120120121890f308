package dev.gamagent.eval.data.m3mad;

import dev.gamagent.eval.format.PandasTable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * A TSV read as {@code pandas.read_csv(path, sep='\t')} reads it, for what M3MAD-Bench's script takes from VLMEvalKit's
 * MME-Reasoning file: fields quoted with {@code "} (a doubled quote inside), the first line the header, and each
 * column's values turned into text as Python's {@code f"{value}"} turns pandas' typed value: a cell pandas reads as
 * missing ({@code ''}, {@code NA}, {@code nan}, {@code None} …) is {@code nan}; a column whose every value is an integer
 * is read as integers ({@code 007} gives {@code 7}), and as floats ({@code 7.0}) when one of them is missing; a column of
 * numbers as floats; any other column as its text.
 */
final class PandasTsv {
    /** pandas' default {@code na_values} (pandas 2, {@code STR_NA_VALUES}). */
    static final Set<String> NA = Set.of("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
            "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null");
    private static final Pattern INT = Pattern.compile("[+-]?\\d+");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|inf|Inf|infinity|Infinity)");

    final List<String> header;
    final List<List<String>> rows;

    private PandasTsv(List<String> header, List<List<String>> rows) {
        this.header = header;
        this.rows = rows;
    }

    /**
     * Reads {@code file} ({@link PandasTable}, the one reader of pandas-quoted tables); the column {@code heavy} (the images)
     * is kept only for the rows {@code keepHeavy} accepts (null elsewhere).
     */
    static PandasTsv read(Path file, String heavy, IntPredicate keepHeavy) {
        List<String> header = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        try {
            PandasTable.stream(file, (row, c) -> c == header.indexOf(heavy) && !keepHeavy.test(row), header::addAll, (fields, row) -> {
                if (fields.size() != header.size()) {
                    throw new IllegalArgumentException(file + ": row " + (row + 1) + " has " + fields.size() + " fields, the header " + header.size());
                }
                rows.add(fields);
            });
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (header.isEmpty()) throw new IllegalArgumentException(file + " is empty");
        return new PandasTsv(header, rows);
    }

    /** Column {@code name}'s values as Python's {@code f"{value}"} gives pandas' values; null where the column is absent. */
    List<String> text(String name) {
        int i = header.indexOf(name);
        if (i < 0) return null;
        List<String> raw = rows.stream().map(r -> r.get(i)).toList();
        boolean missing = raw.stream().anyMatch(NA::contains);
        List<String> present = raw.stream().filter(v -> !NA.contains(v)).toList();
        boolean ints = !present.isEmpty() && present.stream().allMatch(v -> INT.matcher(v).matches() && v.replaceFirst("^[+-]", "").length() < 19);
        boolean floats = !present.isEmpty() && present.stream().allMatch(v -> FLOAT.matcher(v).matches());
        List<String> out = new ArrayList<>(raw.size());
        for (String v : raw) {
            if (NA.contains(v)) out.add("nan");
            else if (ints && !missing) out.add(Long.toString(Long.parseLong(v)));
            else if (ints || floats) out.add(pythonFloat(Double.parseDouble(v.replace("Infinity", "inf").replace("infinity", "inf")
                    .replace("Inf", "inf").replace("inf", "Infinity"))));
            else out.add(v);
        }
        return out;
    }

    /** The row's cell, raw. */
    String cell(int row, String name) {
        int i = header.indexOf(name);
        return i < 0 ? null : rows.get(row).get(i);
    }

    /** Python's {@code repr(float)} for the values a TSV holds. */
    static String pythonFloat(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        if (d == Math.rint(d) && Math.abs(d) < 1e16) return String.format(java.util.Locale.ROOT, "%.1f", d);
        String s = Double.toString(d);
        if (!s.contains("E")) return s;
        // Java's 1.0E-5 is Python's 1e-05
        String[] p = s.split("E");
        String m = p[0].endsWith(".0") ? p[0].substring(0, p[0].length() - 2) : p[0];
        int e = Integer.parseInt(p[1]);
        return m + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
    }
}
