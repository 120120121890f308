package dev.gamagent.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits tab-separated text as pandas writes it ({@code to_csv(sep='\t')}): a field may be quoted with
 * {@code "} (then it may hold tabs and newlines, and {@code ""} is a quote); rows end at an unquoted newline.
 * {@link #parse(String, char)} does the same for another separator (comma for CSV).
 */
final class Tsv {
    private Tsv() { }

    /** Rows of fields; a trailing empty line is dropped. */
    static List<List<String>> parse(String text) { return parse(text, '\t'); }

    /** Rows of fields split at {@code separator}; a trailing empty line is dropped. */
    static List<List<String>> parse(String text, char separator) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false, fieldStart = true;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < n && text.charAt(i + 1) == '"') { field.append('"'); i++; }
                    else quoted = false;
                } else field.append(c);
                continue;
            }
            if (c == '"' && fieldStart) { quoted = true; fieldStart = false; continue; }
            if (c == separator) { row.add(field.toString()); field.setLength(0); fieldStart = true; continue; }
            if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') continue;
            if (c == '\n') {
                row.add(field.toString()); field.setLength(0); fieldStart = true;
                rows.add(row); row = new ArrayList<>();
                continue;
            }
            field.append(c);
            fieldStart = false;
        }
        if (field.length() > 0 || !row.isEmpty()) { row.add(field.toString()); rows.add(row); }
        return rows;
    }
}
