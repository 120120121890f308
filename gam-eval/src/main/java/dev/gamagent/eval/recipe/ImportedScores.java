package dev.gamagent.eval.recipe;

import dev.gamagent.eval.format.PandasTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scores of a test split without public answers (MMBench {@code *_TEST_*}), graded elsewhere and read back into a
 * recipe's table ({@code gam reproduce --import-scores}). The one format accepted is VLMEvalKit's accuracy file,
 * {@code <model>_<dataset>_acc.csv} as its {@code report_acc} writes it: a header {@code "split","Overall",<category>…}
 * and one row per split, each value a fraction (0.8354) or a percentage (83.54). The file's row for the split
 * {@code test} is taken (the only row when there is one). The official MMBench server's own reply could not be checked
 * here, so it is read only when saved in this layout.
 *
 * @param overall    the Overall score in percent
 * @param categories each category's score in percent, in the file's order
 * @param fractions  whether the file held fractions (then multiplied by 100)
 */
public record ImportedScores(Path file, String split, double overall, Map<String, Double> categories, boolean fractions) {
    /** The layout's name, for messages and docs. */
    public static final String LAYOUT = "VLMEvalKit's <model>_<dataset>_acc.csv (header \"split\",\"Overall\",<category>…; a row per split)";

    /** Reads {@code file}; anything not in the layout is refused, naming the file and what it holds instead. */
    public static ImportedScores read(Path file) {
        List<List<String>> lines;
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            // a byte-order mark (Excel's) before the first quote would make it part of the field
            lines = new ArrayList<>(PandasTable.parse(text.startsWith("\uFEFF") ? text.substring(1) : text, ','));
        } catch (IOException e) {
            throw new IllegalArgumentException("--import-scores " + file + ": cannot be read (" + e.getMessage() + ")", e);
        }
        lines.removeIf(r -> r.size() == 1 && r.get(0).isBlank());
        if (lines.isEmpty()) throw new IllegalArgumentException("--import-scores " + file + ": empty; expected " + LAYOUT);
        List<String> header = new ArrayList<>(lines.get(0));
        int split = indexOf(header, "split"), overall = indexOf(header, "Overall");
        if (split < 0 || overall < 0) {
            throw new IllegalArgumentException("--import-scores " + file + ": not " + LAYOUT + "; its header is " + header);
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            List<String> r = lines.get(i);
            if (r.size() != header.size()) {
                throw new IllegalArgumentException("--import-scores " + file + ": line " + (i + 1) + " has " + r.size() + " fields, the header "
                        + header.size());
            }
            rows.add(r);
        }
        List<String> splits = rows.stream().map(r -> r.get(split)).toList();
        List<String> row = rows.stream().filter(r -> r.get(split).equalsIgnoreCase("test")).findFirst().orElse(rows.size() == 1 ? rows.get(0) : null);
        if (row == null) {
            throw new IllegalArgumentException("--import-scores " + file + ": no row for split 'test' among " + splits
                    + (rows.isEmpty() ? " (no rows)" : "; keep the test split's row"));
        }
        Map<String, Double> raw = new LinkedHashMap<>();
        for (int c = 0; c < header.size(); c++) {
            if (c == split) continue;
            String v = row.get(c).strip();
            double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--import-scores " + file + ": '" + header.get(c) + "' is '" + v + "', not a number");
            }
            if (!(d >= 0) || d > 100) throw new IllegalArgumentException("--import-scores " + file + ": '" + header.get(c) + "' is " + v
                    + ", not a score (0–1 or 0–100)");
            raw.put(header.get(c), d);
        }
        // VLMEvalKit writes fractions; a file of percentages has some value above 1
        boolean fractions = raw.values().stream().allMatch(d -> d <= 1.0);
        Map<String, Double> categories = new LinkedHashMap<>();
        raw.forEach((k, v) -> {
            if (!k.equals(header.get(overall))) categories.put(k, fractions ? 100 * v : v);
        });
        double o = raw.get(header.get(overall));
        return new ImportedScores(file, row.get(split), fractions ? 100 * o : o, categories, fractions);
    }

    private static int indexOf(List<String> header, String name) {
        for (int i = 0; i < header.size(); i++) if (header.get(i).strip().equalsIgnoreCase(name)) return i;
        return -1;
    }

    /**
     * The method or row and the dataset a file's name gives, VLMEvalKit's {@code <model>_<dataset>_acc.csv} where gam's
     * submission file was {@code <method>_<dataset>.xlsx}: {@code [method, dataset]} for the first of {@code datasets} the
     * name ends with, or null.
     */
    public static String[] methodAndDataset(Path file, List<String> datasets) {
        String n = file.getFileName().toString();
        String lower = n.toLowerCase(Locale.ROOT);
        if (!lower.endsWith("_acc.csv")) return null;
        String stem = n.substring(0, n.length() - "_acc.csv".length());
        for (String d : datasets) {
            if (stem.toLowerCase(Locale.ROOT).endsWith("_" + d.toLowerCase(Locale.ROOT))) {
                return new String[]{stem.substring(0, stem.length() - d.length() - 1), d};
            }
        }
        return null;
    }
}
