package dev.gamagent.eval.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference the byte-level {@link PandasTable} is checked against (PandasTableTest): the text-level parser it
 * replaced, kept in the tests only. Splits tab-separated text as pandas writes it ({@code to_csv(sep='\t')}): a field may be quoted with
 * {@code "} (then it may hold tabs and newlines, and {@code ""} is a quote); rows end at an unquoted newline.
 * {@link #parse(String, char)} does the same for another separator (comma for CSV).
 */
final class CharTsv {
    private CharTsv() { }

    /** One row's fields and where it lies in the text: chars [start, end), starting on 1-based {@code line}. */
    public record Row(List<String> fields, int start, int end, int line) { }

    /** Rows of fields; a trailing empty line is dropped. */
    public static List<List<String>> parse(String text) { return parse(text, '\t'); }

    /** Rows of fields split at {@code separator}; a trailing empty line is dropped. */
    public static List<List<String>> parse(String text, char separator) {
        return rows(text, separator).stream().map(Row::fields).toList();
    }

    /** Tab-separated rows with their positions, so a problem found in the text can be charged to its row. */
    public static List<Row> rows(String text) { return rows(text, '\t'); }

    public static List<Row> rows(String text, char separator) {
        List<Row> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        int start = 0, line = 1, startLine = 1;
        StringBuilder field = new StringBuilder();
        boolean quoted = false, fieldStart = true;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < n && text.charAt(i + 1) == '"') { field.append('"'); i++; }
                    else quoted = false;
                } else {
                    if (c == '\n') line++;
                    field.append(c);
                }
                continue;
            }
            if (c == '"' && fieldStart) { quoted = true; fieldStart = false; continue; }
            if (c == separator) { row.add(field.toString()); field.setLength(0); fieldStart = true; continue; }
            if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') continue;
            if (c == '\n') {
                row.add(field.toString()); field.setLength(0); fieldStart = true;
                rows.add(new Row(row, start, i + 1, startLine)); row = new ArrayList<>();
                start = i + 1;
                startLine = ++line;
                continue;
            }
            field.append(c);
            fieldStart = false;
        }
        if (field.length() > 0 || !row.isEmpty()) { row.add(field.toString()); rows.add(new Row(row, start, n, startLine)); }
        return rows;
    }
}
