package dev.gamagent.eval.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A few columns of a VLMEvalKit TSV (pandas quoting: fields in double quotes may hold tabs and newlines,
 * a quote inside is doubled), read in one streaming pass that keeps nothing of the other columns — the
 * base64 images of a multi-GB file are skipped, not held.
 */
public final class TsvColumns {
    private TsvColumns() { }

    /** One map per row with the wanted columns that the header has. */
    public static List<Map<String, String>> read(Path file, Set<String> wanted) throws IOException {
        return read(file, wanted::contains);
    }

    /** One map per row with every column but {@code dropped} (the images), in the header's order. */
    public static List<Map<String, String>> readAllBut(Path file, Set<String> dropped) throws IOException {
        return read(file, c -> !dropped.contains(c));
    }

    private static List<Map<String, String>> read(Path file, java.util.function.Predicate<String> wanted) throws IOException {
        try (Reader in = new BufferedReader(Files.newBufferedReader(file, StandardCharsets.UTF_8), 1 << 16)) {
            List<Map<String, String>> rows = new ArrayList<>();
            Map<Integer, String> keep = null;
            List<String> header = new ArrayList<>();
            Map<String, String> row = new LinkedHashMap<>();
            StringBuilder field = new StringBuilder();
            int col = 0;
            boolean quoted = false, atStart = true, any = false;
            int c;
            while (true) {
                c = in.read();
                if (c == -1) break;
                any = true;
                boolean store = keep == null || keep.containsKey(col);
                if (quoted) {
                    if (c == '"') {
                        in.mark(1);
                        int n = in.read();
                        if (n == '"') { if (store) field.append('"'); continue; }
                        quoted = false;
                        if (n == -1) break;
                        in.reset();
                        continue;
                    }
                    if (store) field.append((char) c);
                    continue;
                }
                if (c == '"' && atStart) { quoted = true; atStart = false; continue; }
                if (c == '\t' || c == '\n') {
                    if (keep == null) header.add(field.toString().strip());
                    else if (keep.containsKey(col)) row.put(keep.get(col), field.toString());
                    field.setLength(0);
                    atStart = true;
                    col++;
                    if (c == '\n') {
                        if (keep == null) keep = columns(header, wanted);
                        else if (!row.isEmpty() || col > 1) rows.add(row);
                        row = new LinkedHashMap<>();
                        col = 0;
                        any = false;
                    }
                    continue;
                }
                if (c == '\r') continue;
                atStart = false;
                if (store) field.append((char) c);
            }
            if (any || field.length() > 0) {
                if (keep == null) return rows;
                if (keep.containsKey(col)) row.put(keep.get(col), field.toString());
                rows.add(row);
            }
            return rows;
        }
    }

    private static Map<Integer, String> columns(List<String> header, java.util.function.Predicate<String> wanted) {
        Map<Integer, String> m = new HashMap<>();
        for (int i = 0; i < header.size(); i++) if (wanted.test(header.get(i))) m.put(i, header.get(i));
        return m;
    }
}
