package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.format.PandasFrame;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.format.Xlsx;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A model's predictions on a multiple-choice benchmark, one row per question, as VLMEvalKit writes them
 * ({@code <model>_<dataset>.xlsx}, or .tsv / .csv) or as JSONL lines with the same fields (an
 * {@code options} object is spread into A, B, ...). Values are what VLMEvalKit's pandas code sees (see
 * {@link PandasFrame}); rows are sorted by {@code index} as VLMEvalKit sorts them before grading.
 *
 * @param rows column → value as Python's str() prints it, null when missing
 */
public record PredictionFile(Path path, List<String> columns, List<Map<String, String>> rows) {
    public PredictionFile {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public static PredictionFile read(Path file) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("prediction file " + file + " does not exist");
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        PandasFrame frame;
        if (lower.endsWith(".xlsx")) frame = PandasFrame.of(Xlsx.readFirstSheet(file));
        else if (lower.endsWith(".tsv")) frame = PandasFrame.of(textTable(file, '\t'));
        else if (lower.endsWith(".csv")) frame = PandasFrame.of(textTable(file, ','));
        else if (lower.endsWith(".jsonl")) frame = PandasFrame.of(jsonlTable(file));
        else throw new IllegalArgumentException(file + ": unknown format; use VLMEvalKit's .xlsx, .tsv or .csv, or .jsonl");
        List<Map<String, String>> rows = new ArrayList<>(frame.rows());
        if (frame.columns().contains("index")) {
            boolean numeric = rows.stream().allMatch(r -> r.get("index") != null && isLong(r.get("index")));
            rows.sort(numeric ? Comparator.comparingLong(r -> Long.parseLong(r.get("index")))
                    : Comparator.comparing(r -> String.valueOf(r.get("index"))));
        }
        return new PredictionFile(file, frame.columns(), rows);
    }

    public boolean has(String column) { return columns.contains(column); }

    static boolean isLong(String s) {
        try {
            Long.parseLong(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The file as UTF-8 text without a leading byte-order mark. */
    public static String text(Path file) {
        try {
            String t = Files.readString(file, StandardCharsets.UTF_8);
            return t.startsWith("\uFEFF") ? t.substring(1) : t;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<List<Object>> textTable(Path file, char sep) {
        List<List<Object>> out = new ArrayList<>();
        for (List<String> r : PandasTable.parse(text(file), sep)) out.add(new ArrayList<>(r));
        return out;
    }

    /** JSONL: the header is every key in order of first appearance; an "options" object becomes its letter columns. */
    private static List<List<Object>> jsonlTable(Path file) {
        List<Map<String, Object>> objs = new ArrayList<>();
        LinkedHashSet<String> keys = new LinkedHashSet<>();
        String[] lines = text(file).split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(lines[i]);
            } catch (IOException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
            }
            if (!n.isObject()) throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a JSON object");
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            n.fields().forEachRemaining(e -> {
                if (e.getKey().equals("options") && e.getValue().isObject()) {
                    e.getValue().fields().forEachRemaining(o -> m.put(o.getKey(), value(o.getValue())));
                } else {
                    m.put(e.getKey(), value(e.getValue()));
                }
            });
            keys.addAll(m.keySet());
            objs.add(m);
        }
        List<List<Object>> out = new ArrayList<>();
        out.add(new ArrayList<>(keys));
        for (Map<String, Object> m : objs) {
            List<Object> row = new ArrayList<>();
            for (String k : keys) row.add(m.get(k));
            out.add(row);
        }
        return out;
    }

    private static Object value(JsonNode v) {
        if (v == null || v.isNull()) return null;
        if (v.isTextual()) return v.asText();
        if (v.isBoolean()) return v.asBoolean();
        if (v.isIntegralNumber() && v.canConvertToLong()) return v.asLong();
        if (v.isNumber()) return v.asDouble();
        return v.toString();
    }
}
