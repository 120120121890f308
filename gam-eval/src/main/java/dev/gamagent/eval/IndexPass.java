package dev.gamagent.eval;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.BenchmarkLoader.BadRowException;
import dev.gamagent.eval.BenchmarkLoader.Filter;
import dev.gamagent.eval.BenchmarkLoader.Format;
import dev.gamagent.eval.BenchmarkLoader.Images;
import dev.gamagent.image.ImageException;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads a benchmark file once, from start to end, and keeps per row only what the run needs (where the row lies,
 * its index, category, split, option count, whether its text and images can be used), then decides which rows
 * become questions. Row checks that depend on the whole file (is it a multiple-choice file? which row holds the
 * image another names? is an index repeated?) are made after the pass, from what it kept.
 */
final class IndexPass {
    /** How a row gives its images. */
    private enum Kind { NONE, INLINE, REF, PATH, VIDEO }

    /** What the pass keeps of one row until the whole file is read. */
    private static final class PassRow {
        String idx;
        long line;
        RowEntry entry;
        String category, l2, split;
        int options;
        /** Why the row's text cannot be used in a multiple-choice file / in another file (null: it can). */
        String errorIfChoice, errorIfOpen;
        Kind kind = Kind.NONE;
        String value;
        boolean holdsImage;
        /** The images' check: null not yet made, a Long (their pixels, -1 left to the question's start) or a String (why not). */
        Object check;
    }

    private final DataBytes data;
    private final Format format;
    /** The dataset's name (the file's name). */
    private final String name;
    /** The file as given, for messages. */
    private final String where;
    private final Path baseDir;
    private final Filter filter;
    private final Images images;
    private final List<PassRow> rows = new ArrayList<>();
    private final List<SkippedRow> structural = new ArrayList<>();
    private final Utf8Scan utf8 = new Utf8Scan();
    private final Map<String, String> interned = new HashMap<>();
    private List<String> header;
    private TsvScanner scanner;
    private int dataRows;
    private int candidates;

    private IndexPass(DataBytes data, Format format, String name, Path baseDir, Filter filter, Images images) {
        this.data = data;
        this.format = format;
        this.name = name;
        this.where = data.name();
        this.baseDir = baseDir;
        this.filter = filter;
        this.images = images;
    }

    static Dataset index(DataBytes data, Format format, String name, Path baseDir, Filter filter, Images images) {
        FormatCheck.check(data, format, data.name());
        IndexPass pass = new IndexPass(data, format, name, baseDir, filter, images);
        String sha = switch (format) {
            case TSV -> pass.tsv();
            case JSONL -> pass.jsonl();
            case M3MAD -> pass.m3mad();
        };
        return pass.resolve(sha);
    }

    // ---- TSV -------------------------------------------------------------------------------------------

    private String tsv() {
        scanner = new TsvScanner('\t', this::tsvRow);
        String sha = data.stream((b, from, to, offset) -> {
            int start = from;
            if (offset == 0) {
                start += FormatCheck.bom(Arrays.copyOfRange(b, from, Math.min(to, from + 3)));
                scanner.skipStart(start - from);
            }
            utf8.feed(b, start, to, offset - from);
            scanner.feed(b, start, to, offset - from);
        });
        utf8.end();
        scanner.end(data.size());
        if (header == null) throw new IllegalArgumentException(where + ": empty file, expected a header row");
        return sha;
    }

    private void tsvRow(TsvScanner.Row r) {
        Utf8Scan.BadByte bad = utf8.firstIn(r.start, r.end);
        if (header == null) {
            if (bad != null) throw new IllegalArgumentException(where + ": header row: " + bad.describe() + "; " + Utf8Scan.FIX);
            if (r.overflow) throw new IllegalArgumentException(where + ": its header row is longer than " + (TsvScanner.MAX_ROW_TEXT >> 20) + " MB");
            header = r.fields.stream().map(s -> s == null ? "" : s.strip()).toList();
            scanner.imageColumn(header.lastIndexOf("image")); // as in a map, a repeated column's last value is the one kept
            return;
        }
        int number = dataRows++;
        List<String> cells = r.fields;
        if (cells.size() == 1 && (cells.get(0) == null ? r.image == null || r.image.firstNonSpace() < 0 : cells.get(0).isBlank())) return;
        int indexColumn = header.indexOf("index");
        String idxCell = indexColumn >= 0 && indexColumn < cells.size() && cells.get(indexColumn) != null ? cells.get(indexColumn).strip() : null;
        String who = idxCell != null ? idxCell : "line " + r.line;
        if (bad != null) {
            structural.add(new SkippedRow(who, bad.describe() + "; " + Utf8Scan.FIX, r.line));
            return;
        }
        if (r.overflow) {
            structural.add(new SkippedRow(who, "its text outside the image is longer than " + (TsvScanner.MAX_ROW_TEXT >> 20)
                    + " MB (a quote opened and never closed, or a missing newline?)", r.line));
            return;
        }
        if (cells.size() != header.size()) {
            structural.add(new SkippedRow(who, "has " + cells.size() + " fields, the header has " + header.size()
                    + " (a tab or newline inside an unquoted field?)", r.line));
            return;
        }
        if (r.end - r.start > Integer.MAX_VALUE - 16) {
            structural.add(new SkippedRow(who, "is larger than 2 GB", r.line));
            return;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int c = 0; c < header.size(); c++) if (cells.get(c) != null) m.put(header.get(c), cells.get(c));
        String idx = m.containsKey("index") ? m.get("index").strip() : Integer.toString(number);
        add(idx, m, r.image, r.line, r.start, (int) (r.end - r.start));
    }

    // ---- JSONL -----------------------------------------------------------------------------------------

    /** A JSONL line is held whole while it is read; past this, a line is refused (its images belong in files). */
    static long maxJsonlLine() {
        return Math.max(16L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8));
    }

    private byte[] line = new byte[8192];
    private int lineLength;
    private long lineStart, lineNumber = 1;
    private boolean lineTooLong;
    private int lineIndex;

    private String jsonl() {
        long max = maxJsonlLine();
        String sha = data.stream((b, from, to, offset) -> {
            int start = from;
            if (offset == 0) {
                start += FormatCheck.bom(Arrays.copyOfRange(b, from, Math.min(to, from + 3)));
                lineStart = start - from;
            }
            long base = offset - from;
            utf8.feed(b, start, to, base);
            int s = start;
            for (int i = start; i < to; i++) {
                if (b[i] != '\n') continue;
                appendLine(b, s, i + 1, max);
                jsonlLine(base + i + 1);
                s = i + 1;
            }
            appendLine(b, s, to, max);
        });
        utf8.end();
        if (lineLength > 0 || lineTooLong) jsonlLine(data.size());
        return sha;
    }

    private void appendLine(byte[] b, int from, int to, long max) {
        int n = to - from;
        if (n <= 0 || lineTooLong) return;
        if (lineLength + (long) n > max) {
            lineTooLong = true;
            return;
        }
        if (lineLength + n > line.length) line = Arrays.copyOf(line, (int) Math.min(max, Math.max(lineLength + n, 2L * line.length)));
        System.arraycopy(b, from, line, lineLength, n);
        lineLength += n;
    }

    private void jsonlLine(long end) {
        long start = lineStart, number = lineNumber;
        int index = lineIndex;
        boolean tooLong = lineTooLong;
        int length = lineLength;
        lineStart = end;
        lineNumber++;
        lineIndex++;
        lineTooLong = false;
        lineLength = 0;
        Utf8Scan.BadByte bad = utf8.firstIn(start, end);
        String where = "line " + number;
        if (tooLong) {
            structural.add(new SkippedRow(where, String.format(Locale.ROOT, "is %.0f MB long, more than the %d MB a JSONL row may hold "
                    + "(keep its images in files named by image_path, or give Java more memory with GAM_JAVA_OPTS=-Xmx...)",
                    (end - start) / 1e6, maxJsonlLine() >> 20), number));
            return;
        }
        boolean blank = true;
        for (int i = 0; i < length && blank; i++) blank = Character.isWhitespace(line[i]);
        if (!blank) {
            if (bad != null) {
                structural.add(new SkippedRow(where, bad.describe() + "; " + Utf8Scan.FIX, number));
            } else {
                JsonNode node = null;
                try {
                    node = Json.MAPPER.readTree(line, 0, length);
                } catch (IOException e) {
                    structural.add(new SkippedRow(where, "not valid JSON: " + BenchmarkLoader.firstLine(e.getMessage()), number));
                }
                if (node != null && !node.isObject()) structural.add(new SkippedRow(where, "not a JSON object", number));
                else if (node != null) {
                    Map<String, String> m = RowFields.jsonlFields(node);
                    String idx = m.containsKey("index") ? m.get("index").strip() : Integer.toString(index);
                    String image = m.get("image");
                    add(idx, m, image == null ? null : ImageCell.of(image), number, start, (int) (end - start));
                }
            }
        }
        if (line.length > 1 << 20) line = new byte[8192]; // a long line's buffer is not kept for the rest of the file
    }

    // ---- M3MAD JSON ------------------------------------------------------------------------------------

    private String m3mad() {
        try (DataBytes.Sequential in = data.sequential((b, from, to, offset) -> utf8.feed(b, from, to, offset - from));
             JsonParser p = Json.MAPPER.getFactory().createParser(in)) {
            try {
                JsonToken t = p.nextToken();
                if (t == JsonToken.START_OBJECT) {
                    boolean found = false;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken v = p.nextToken();
                        if (field.equals("data") && v == JsonToken.START_ARRAY) { found = true; break; }
                        p.skipChildren();
                    }
                    if (!found) throw new IllegalArgumentException(where + ": expected a JSON array of M3MAD records (or {\"data\": [...]})");
                } else if (t != JsonToken.START_ARRAY) {
                    throw new IllegalArgumentException(where + ": expected a JSON array of M3MAD records");
                }
                int position = 0;
                for (JsonToken t2 = p.nextToken(); t2 != JsonToken.END_ARRAY; t2 = p.nextToken()) {
                    if (t2 == null) throw new IllegalArgumentException(where + ": ends inside its list of records");
                    JsonLocation at = p.currentTokenLocation();
                    JsonNode o = p.readValueAsTree();
                    long end = p.currentLocation().getByteOffset();
                    m3madRecord(o, position++, at.getByteOffset(), end, at.getLineNr());
                }
            } catch (JsonProcessingException e) {
                utf8.end();
                refuseBadUtf8();
                JsonLocation at = e.getLocation();
                throw new IllegalArgumentException(where + ": not valid JSON: " + BenchmarkLoader.firstLine(e.getOriginalMessage())
                        + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
            }
            String sha = in.sha256();
            utf8.end();
            refuseBadUtf8();
            return sha;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + data.name() + ": " + e.getMessage(), e);
        }
    }

    /** One JSON document cannot be read in part: a byte that is not UTF-8 refuses the file, naming where. */
    private void refuseBadUtf8() {
        Utf8Scan.BadByte first = utf8.first();
        if (first != null) {
            throw new IllegalArgumentException(where + ": " + first.describe() + " (" + utf8.badLines() + " line"
                    + (utf8.badLines() == 1 ? "" : "s") + " with such bytes in the file); " + Utf8Scan.FIX);
        }
    }

    private void m3madRecord(JsonNode o, int position, long start, long end, long lineNr) {
        String idx = RowFields.m3madIndex(o, position);
        Map<String, String> m;
        try {
            m = RowFields.m3madFields(o, idx);
        } catch (BadRowException e) {
            structural.add(new SkippedRow(idx, e.getMessage(), lineNr));
            return;
        }
        if (end - start > Integer.MAX_VALUE - 16) {
            structural.add(new SkippedRow(idx, "is larger than 2 GB", lineNr));
            return;
        }
        add(idx, m, null, lineNr, start, (int) (end - start));
    }

    // ---- every format ----------------------------------------------------------------------------------

    /** Keeps what the rest of the run needs of one row whose fields are {@code m} (its image cell apart). */
    private void add(String idx, Map<String, String> m, ImageCell cell, long lineNr, long start, int length) {
        PassRow p = new PassRow();
        p.idx = idx;
        p.line = lineNr;
        p.entry = new RowEntry(start, length, lineNr);
        p.category = intern(RowFields.blankToNull(m.get("category")));
        p.l2 = intern(RowFields.blankToNull(m.getOrDefault("l2-category", m.get("l2_category"))));
        p.split = intern(RowFields.blankToNull(m.get("split")));
        p.options = RowFields.options(m).size();
        p.errorIfChoice = errorOf(() -> RowFields.toQuestion(idx, m, true));
        p.errorIfOpen = errorOf(() -> RowFields.toQuestion(idx, m, false));
        // a short cell is read as text (blank, "nan", or another row's index); a long one is an image, looked at as bytes
        boolean shortCell = cell != null && cell.complete() && cell.strippedLength() <= RowImages.REFERENCE_MAX_LENGTH;
        boolean hasImage = cell != null && (shortCell ? RowFields.blankToNull(cell.text()) != null : cell.firstNonSpace() >= 0);
        if (hasImage) {
            String t = shortCell ? cell.text().strip() : null;
            if (t != null && t.length() <= RowImages.REFERENCE_MAX_LENGTH && !t.startsWith("[")) {
                p.kind = Kind.REF;
                p.value = t;
            } else {
                p.kind = Kind.INLINE;
            }
            p.holdsImage = !shortCell;
        } else if (RowFields.blankToNull(m.get("image_path")) != null) {
            p.kind = Kind.PATH;
            p.value = m.get("image_path");
        } else if (RowFields.blankToNull(m.get("video")) != null) {
            p.kind = Kind.VIDEO;
            p.value = m.get("video");
        }
        if (filter.keepsCategory(p.category)) {
            // images are checked now, as they pass, while the rows could still be within --limit; others when resolved
            if (p.kind == Kind.INLINE && (filter.limit() <= 0 || candidates < filter.limit())) p.check = inspect(idx, cell);
            candidates++;
        }
        rows.add(p);
    }

    private String intern(String s) { return s == null ? null : interned.computeIfAbsent(s, k -> k); }

    private static String errorOf(Runnable r) {
        try {
            r.run();
            return null;
        } catch (BadRowException e) {
            return e.getMessage();
        }
    }

    /** Checks a row's own image cell: whole when the pass kept all of it, else from its start. */
    private Object inspect(String idx, ImageCell cell) {
        return check(() -> cell.firstNonSpace() == '[' ? (cell.complete() ? RowImages.inspectText(idx, cell.text(), images) : -1L)
                : RowImages.inspectBytes(idx, cell.bytes(), cell.kept(), cell.complete(), images));
    }

    private static Object check(Supplier<Long> s) {
        try {
            return s.get();
        } catch (BadRowException | ImageException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    // ---- after the pass --------------------------------------------------------------------------------

    private Dataset resolve(String sha) {
        boolean choiceFile = false;
        for (PassRow p : rows) choiceFile |= p.options > 0;
        // a file where some row has options is a multiple-choice file: a row there without options is broken, not open
        Map<String, PassRow> imageRows = new HashMap<>();
        for (PassRow p : rows) if (p.holdsImage) imageRows.putIfAbsent(p.idx, p);
        BenchmarkFile file = new BenchmarkFile(data, format, header, baseDir, images, choiceFile);
        List<EvalQuestion> out = new ArrayList<>();
        List<SkippedRow> skips = new ArrayList<>(structural);
        // results are keyed by index, so a repeated index would silently take the first row's result
        Map<String, Long> firstLine = new HashMap<>();
        for (PassRow p : rows) {
            if (filter.limit() > 0 && out.size() >= filter.limit()) break;
            if (!filter.keepsCategory(p.category)) continue;
            Long earlier = firstLine.putIfAbsent(p.idx, p.line);
            if (earlier != null) {
                skips.add(new SkippedRow(p.idx, "duplicate index: line " + p.line + " is left out, the row on line " + earlier
                        + " has the same index", p.line));
                continue;
            }
            String error = choiceFile ? p.errorIfChoice : p.errorIfOpen;
            if (error == null) error = imageError(p, imageRows, file);
            if (error != null) {
                skips.add(SkippedRow.of(p.idx, error, p.line));
                continue;
            }
            out.add(EvalQuestion.indexed(p.idx, p.split, p.category, p.l2, p.options, p.line, file.source(p.entry, p.idx)));
        }
        return new Dataset(name, out, skips, sha);
    }

    /** Why a row's images cannot be used, or null; checks what the pass left unchecked, reading the row again. */
    private String imageError(PassRow p, Map<String, PassRow> imageRows, BenchmarkFile file) {
        switch (p.kind) {
            case NONE -> { return RowImages.NO_IMAGE; }
            case INLINE -> {
                if (p.check == null) p.check = check(() -> RowImages.inspectText(p.idx, file.imageCell(p.entry), images));
                return p.check instanceof String why ? why : null;
            }
            case REF -> {
                PassRow target = imageRows.get(p.value);
                if (target == null) return "'image' value '" + p.value + "' names no row with an image";
                p.entry.imageRow = target.entry;
                if (target.check == null) target.check = check(() -> RowImages.inspectText(target.idx, file.imageCell(target.entry), images));
                if (target.check instanceof String why) {
                    return "its image is row " + target.idx + "'s (line " + target.line + "), which cannot be used: "
                            + (why.startsWith("row " + target.idx + ": ") ? why.substring(("row " + target.idx + ": ").length()) : why);
                }
                return null;
            }
            case PATH -> { return (String) nullIfLong(check(() -> RowImages.inspectPaths(p.value, baseDir, images))); }
            case VIDEO -> {
                try {
                    // a URL is checked against the policy here and fetched when its question starts
                    if (VideoUrls.isUrl(p.value)) images.videos().urls().check(p.value);
                    else RowImages.videoFile(p.value, baseDir);
                    return null;
                } catch (BadRowException e) {
                    return e.getMessage();
                }
            }
            default -> throw new IllegalStateException(p.kind.toString());
        }
    }

    private static Object nullIfLong(Object o) { return o instanceof Long ? null : o; }
}
