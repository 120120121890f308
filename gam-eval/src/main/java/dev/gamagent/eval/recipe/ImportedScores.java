package dev.gamagent.eval.recipe;

import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.format.Utf8Scan;

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

    /** An accuracy file is a few kilobytes; past this it is not one. */
    static final long MAX_BYTES = 16L << 20;

    /**
     * Reads {@code file}; anything not in the layout is refused in one line naming the file and what differs: a folder, a
     * FIFO or another file that is not a regular file, an Excel workbook (to be saved as CSV), bytes that are not UTF-8, a
     * header without {@code split} and {@code Overall} or with a column twice, a split on two rows, a value that is not a
     * score. The row for split {@code test} is taken, else the only row, whatever its split ({@link #isTest} says which).
     */
    public static ImportedScores read(Path file) {
        String where = "--import-scores " + file;
        if (Files.isDirectory(file)) throw new IllegalArgumentException(where + ": is a folder, not a file; give the _acc.csv inside it");
        if (!Files.exists(file)) throw new IllegalArgumentException(where + ": does not exist");
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException(where + ": is " + special(file) + ", not a file; save the scores to a file and give that");
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) throw new IllegalArgumentException(where + ": is " + size + " bytes, too large for an accuracy file; expected " + LAYOUT);
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot be read (" + e.getMessage() + ")", e);
        }
        if (isWorkbook(file, bytes)) {
            throw new IllegalArgumentException(where + ": is an Excel workbook, not CSV; open it and save it as CSV UTF-8 (comma-separated), "
                    + "the layout of " + LAYOUT);
        }
        String text = utf8(bytes, where);
        List<List<String>> lines = new ArrayList<>(PandasTable.parse(text.startsWith("\uFEFF") ? text.substring(1) : text, ','));
        // a byte-order mark (Excel's) before the first quote would make it part of the field
        lines.removeIf(r -> r.size() == 1 && r.get(0).isBlank());
        if (lines.isEmpty()) throw new IllegalArgumentException(where + ": empty; expected " + LAYOUT);
        List<String> header = new ArrayList<>(lines.get(0));
        int split = indexOf(header, "split"), overall = indexOf(header, "Overall");
        if (split < 0 || overall < 0) {
            throw new IllegalArgumentException(where + ": not " + LAYOUT + "; its header is " + header);
        }
        // exact names: VLMEvalKit's own ScienceQA file has "Oceans and continents" and "Oceans and continents\t", two categories
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (int c = 0; c < header.size(); c++) {
            Integer before = seen.put(header.get(c), c);
            if (before != null) {
                throw new IllegalArgumentException(where + ": its header names '" + header.get(c).strip() + "' twice (columns " + (before + 1)
                        + " and " + (c + 1) + ")");
            }
        }
        List<List<String>> rows = new ArrayList<>();
        Map<String, Integer> splitLine = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            List<String> r = lines.get(i);
            if (r.size() != header.size()) {
                throw new IllegalArgumentException(where + ": line " + (i + 1) + " has " + r.size() + " fields, the header " + header.size());
            }
            Integer first = splitLine.put(r.get(split).strip().toLowerCase(Locale.ROOT), i + 1);
            if (first != null) {
                throw new IllegalArgumentException(where + ": split '" + r.get(split).strip() + "' is on two rows (lines " + first + " and " + (i + 1)
                        + "): duplicate rows; keep the one the evaluation server gave");
            }
            rows.add(r);
        }
        List<String> splits = rows.stream().map(r -> r.get(split)).toList();
        List<String> row = rows.stream().filter(r -> r.get(split).strip().equalsIgnoreCase("test")).findFirst()
                .orElse(rows.size() == 1 ? rows.get(0) : null);
        if (row == null) {
            throw new IllegalArgumentException(where + ": no row for split 'test' among " + splits
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
                throw new IllegalArgumentException(where + ": '" + header.get(c) + "' is '" + v + "', not a number");
            }
            if (!(d >= 0) || d > 100) throw new IllegalArgumentException(where + ": '" + header.get(c) + "' is " + v
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
        return new ImportedScores(file, row.get(split).strip(), fractions ? 100 * o : o, categories, fractions);
    }

    /** Whether the row taken is the test split's; any other (VLMEvalKit's {@code none}, {@code dev}) is shown as what it is. */
    public boolean isTest() { return split.equalsIgnoreCase("test"); }

    /**
     * Checks the file's categories against {@code benchmark}'s, {@code known} (the values of its {@code category} and
     * {@code l2-category} columns): every category the file scores must be one of them, or the file is another benchmark's
     * (CCBench's scores given for MMBench), refused in one line naming what differs.
     */
    public void checkCategories(String benchmark, java.util.Collection<String> known, String from) {
        java.util.Set<String> mine = new java.util.TreeSet<>();
        for (String k : known) if (k != null && !k.isBlank()) mine.add(norm(k));
        if (mine.isEmpty()) return;
        List<String> foreign = categories.keySet().stream().filter(c -> !mine.contains(norm(c))).toList();
        if (foreign.isEmpty()) return;
        List<String> theirs = known.stream().filter(k -> k != null && !k.isBlank()).map(String::strip).distinct().sorted().toList();
        throw new IllegalArgumentException("--import-scores " + file + ": " + foreign.size() + " of its " + categories.size() + " categories are not "
                + benchmark + "'s: " + quoted(foreign, 6) + "; " + benchmark + "'s (from " + from + ") are " + quoted(theirs, 6)
                + " — is it another benchmark's accuracy file?");
    }

    /** The values of the {@code category} and {@code l2-category} columns of a benchmark file (VLMEvalKit's TSV), each once. */
    public static java.util.Set<String> categoriesOf(Path tsv) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        try {
            for (Map<String, String> r : PandasTable.columns(tsv, h -> h.equals("category") || h.equals("l2-category"))) {
                for (String v : r.values()) if (v != null && !v.isBlank()) out.add(v.strip());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the categories of " + tsv + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static String norm(String s) { return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT); }

    private static String quoted(List<String> names, int most) {
        List<String> q = names.stream().limit(most).map(n -> "'" + n.strip() + "'").toList();
        return String.join(", ", q) + (names.size() > most ? " and " + (names.size() - most) + " more" : "");
    }

    /** What a path that exists but is no regular file is: a FIFO (named pipe), a socket, a device. */
    private static String special(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return switch (mode & 0170000) {
                case 0010000 -> "a FIFO (named pipe)";
                case 0140000 -> "a socket";
                case 0020000, 0060000 -> "a device";
                default -> "not a regular file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "not a regular file (a pipe, socket or device)";
        }
    }

    /** An xlsx (a zip: "PK\3\4") or an old xls (OLE2), by content or by name. */
    private static boolean isWorkbook(Path file, byte[] b) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean zip = b.length >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4;
        boolean ole = b.length >= 4 && (b[0] & 0xFF) == 0xD0 && (b[1] & 0xFF) == 0xCF && (b[2] & 0xFF) == 0x11 && (b[3] & 0xFF) == 0xE0;
        return zip || ole || n.endsWith(".xlsx") || n.endsWith(".xls");
    }

    /** The bytes as UTF-8 text; the first byte that is not UTF-8 is named with its offset and line. */
    private static String utf8(byte[] bytes, String where) {
        Utf8Scan scan = new Utf8Scan();
        scan.feed(bytes, 0, bytes.length, 0);
        scan.end();
        Utf8Scan.BadByte bad = scan.first();
        if (bad != null) throw new IllegalArgumentException(where + ": is not UTF-8 text: " + bad.describe() + "; " + Utf8Scan.FIX);
        return new String(bytes, StandardCharsets.UTF_8);
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
