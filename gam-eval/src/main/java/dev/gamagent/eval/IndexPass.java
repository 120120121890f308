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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Reads a benchmark file once, from start to end, and keeps per row only what the run needs (where the row lies,
 * its index, category, split, option count, whether its text and images can be used), then decides which rows
 * become questions. Row checks that depend on the whole file (is it a multiple-choice file? which row holds the
 * image another names? is an index repeated?) are made after the pass, from what it kept.
 *
 * <p>What it keeps is bounded. A kept row costs {@link RowIndex#ROW_BYTES} bytes and its index text in a
 * {@link RowIndex}, and a row of the category asked for the question it may become ({@link #QUESTION_BYTES}); rows of
 * other categories are kept only when they hold an image another row may name. With {@code --limit N} rows stop being
 * kept once N rows are sure to become questions (their text, index and images checked); after that only a row
 * holding an image that a kept row names and that has not passed yet is kept, and the rest of the file is read for
 * its hash and for whether some row has options. Everything kept is counted against half of the heap: past it the
 * pass keeps nothing more, counts the file's rows and refuses in one line naming them and the heap, before memory runs out.
 */
final class IndexPass {
    /** How a row gives its images (its ordinal is kept in the row's flags). */
    private enum Kind { NONE, INLINE, REF, PATH, VIDEO }

    /**
     * What one question of an indexed file holds besides its index's characters (measured with
     * {@code LoadBench}, docs/reliability.md "Many rows"): the {@link EvalQuestion}, its id string, its {@link RowEntry}
     * and its slots in the lists that hold it.
     */
    static final int QUESTION_BYTES = 160;
    /** What a message kept for a skipped row costs besides its characters (the string, the record, a map entry). */
    static final int MESSAGE_BYTES = 96;
    /** The share of the heap the index may take: the rest is for the questions in flight and their images. */
    static final int HEAP_SHARE = 2;

    /** What a row's error is about: its text in a multiple-choice file, its text in another file, its images. */
    private static final int CHOICE = 0, OPEN = 1, IMAGE = 2;

    private final DataBytes data;
    private final Format format;
    /** The dataset's name (the file's name). */
    private final String name;
    /** The file as given, for messages. */
    private final String where;
    private final Path baseDir;
    private final Filter filter;
    private final Images images;
    /** The heap the pass is measured against, in bytes (the JVM's maximum heap; smaller in tests). */
    private final long heap;
    private RowIndex rows = new RowIndex();
    /** The first row holding an image under each index (the row a short image value names). */
    private RowIndex.Lookup imageRows = rows.new Lookup();
    /** The first row of the category asked for with each index (a later one is a duplicate). */
    private RowIndex.Lookup indices = rows.new Lookup();
    /** Why a kept row cannot be used, by row × 3 + what ({@link #CHOICE}, {@link #OPEN}, {@link #IMAGE}). */
    private Map<Long, String> errors = new HashMap<>();
    /** With a limit: the names of images no kept row has passed yet, and the kept rows that name them. */
    private Map<String, List<Integer>> waiting = new HashMap<>();
    private List<SkippedRow> structural = new ArrayList<>();
    private final Utf8Scan utf8 = new Utf8Scan();
    private final Map<String, String> interned = new HashMap<>();
    private List<String> header;
    private TsvScanner scanner;
    /** A reader of rows for checks made during the pass (an image named by a row that passes later than it). */
    private BenchmarkFile reader;
    private int dataRows;
    /** The rows of the file that are not blank, so far. */
    private long rowCount;
    /** Some row has options: a row without them is then broken, not open. */
    private boolean choiceFile;
    /** Kept rows sure to become questions, and whether they reached the limit (then only named images are kept). */
    private int sure;
    private boolean enough;
    /** Questions the kept rows may become (at most the limit), and the bytes kept besides rows: their ids, messages. */
    private long questions;
    private long extraBytes;
    /** The index outgrew its share of the heap: rows are counted, not kept; the rows and bytes when it did. */
    private boolean over;
    private long overAtRows, overAtBytes;

    private IndexPass(DataBytes data, Format format, String name, Path baseDir, Filter filter, Images images, long heap) {
        this.data = data;
        this.format = format;
        this.name = name;
        this.where = data.name();
        this.baseDir = baseDir;
        this.filter = filter;
        this.images = images;
        this.heap = heap;
    }

    static Dataset index(DataBytes data, Format format, String name, Path baseDir, Filter filter, Images images) {
        return index(data, format, name, baseDir, filter, images, Runtime.getRuntime().maxMemory());
    }

    /** As above, measuring what it keeps against {@code heap} bytes instead of the JVM's maximum heap. */
    static Dataset index(DataBytes data, Format format, String name, Path baseDir, Filter filter, Images images, long heap) {
        FormatCheck.check(data, format, data.name());
        IndexPass pass = new IndexPass(data, format, name, baseDir, filter, images, heap);
        String sha = switch (format) {
            case TSV -> pass.tsv();
            case JSONL -> pass.jsonl();
            case M3MAD -> pass.m3mad();
        };
        if (pass.over) throw new IllegalArgumentException(pass.tooMany());
        return pass.resolve(sha);
    }

    /** Nothing more of the file is needed but its bytes (its hash) and its row count. */
    private boolean idle() { return over || enough && choiceFile && waiting.isEmpty(); }

    // ---- TSV -------------------------------------------------------------------------------------------

    private int indexColumn;

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
            indexColumn = header.indexOf("index");
            return;
        }
        if (r.fields == null) { // counted only
            if (!r.blank) rowCount++;
            return;
        }
        int number = dataRows++;
        List<String> cells = r.fields;
        if (cells.size() == 1 && (cells.get(0) == null ? r.image == null || r.image.firstNonSpace() < 0 : cells.get(0).isBlank())) return;
        rowCount++;
        if (idle()) {
            scanner.countOnly();
            return;
        }
        String idxCell = indexColumn >= 0 && indexColumn < cells.size() && cells.get(indexColumn) != null ? cells.get(indexColumn).strip() : null;
        String who = idxCell != null ? idxCell : "line " + r.line;
        if (bad != null) {
            skip(new SkippedRow(who, bad.describe() + "; " + Utf8Scan.FIX, r.line));
            return;
        }
        if (r.overflow) {
            skip(new SkippedRow(who, "its text outside the image is longer than " + (TsvScanner.MAX_ROW_TEXT >> 20)
                    + " MB (a quote opened and never closed, or a missing newline?)", r.line));
            return;
        }
        if (cells.size() != header.size()) {
            skip(new SkippedRow(who, "has " + cells.size() + " fields, the header has " + header.size()
                    + " (a tab or newline inside an unquoted field?)", r.line));
            return;
        }
        if (r.end - r.start > Integer.MAX_VALUE - 16) {
            skip(new SkippedRow(who, "is larger than 2 GB", r.line));
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
        boolean blank = !tooLong;
        for (int i = 0; i < length && blank; i++) blank = Character.isWhitespace(line[i]);
        if (!blank) rowCount++;
        if (idle()) blank = true; // counted only
        if (tooLong && !idle()) {
            skip(new SkippedRow(where, String.format(Locale.ROOT, "is %.0f MB long, more than the %d MB a JSONL row may hold "
                    + "(keep its images in files named by image_path, or give Java more memory with GAM_JAVA_OPTS=-Xmx...)",
                    (end - start) / 1e6, maxJsonlLine() >> 20), number));
        } else if (!blank) {
            if (bad != null) {
                skip(new SkippedRow(where, bad.describe() + "; " + Utf8Scan.FIX, number));
            } else {
                JsonNode node = null;
                try {
                    node = Json.MAPPER.readTree(line, 0, length);
                } catch (IOException e) {
                    skip(new SkippedRow(where, "not valid JSON: " + BenchmarkLoader.firstLine(e.getMessage()), number));
                }
                if (node != null && !node.isObject()) skip(new SkippedRow(where, "not a JSON object", number));
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
                    rowCount++;
                    if (idle()) { // counted only
                        p.skipChildren();
                        position++;
                        continue;
                    }
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
            skip(new SkippedRow(idx, e.getMessage(), lineNr));
            return;
        }
        if (end - start > Integer.MAX_VALUE - 16) {
            skip(new SkippedRow(idx, "is larger than 2 GB", lineNr));
            return;
        }
        add(idx, m, null, lineNr, start, (int) (end - start));
    }

    // ---- every format ----------------------------------------------------------------------------------

    /** A row too broken to read, reported unless the limit was reached before it (then no row after it is asked). */
    private void skip(SkippedRow row) {
        if (over || enough) return;
        structural.add(row);
        extraBytes += MESSAGE_BYTES + row.index().length() + row.reason().length();
        account();
    }

    /** Keeps what the rest of the run needs of one row whose fields are {@code m} (its image cell apart). */
    private void add(String idx, Map<String, String> m, ImageCell cell, long lineNr, long start, int length) {
        String category = RowFields.blankToNull(m.get("category"));
        boolean candidate = !enough && filter.keepsCategory(category);
        Map<String, String> options = RowFields.options(m);
        if (!options.isEmpty()) choiceFile = true;
        // a short cell is read as text (blank, "nan", or another row's index); a long one is an image, looked at as bytes
        boolean shortCell = cell != null && cell.complete() && cell.strippedLength() <= RowImages.REFERENCE_MAX_LENGTH;
        boolean hasImage = cell != null && (shortCell ? RowFields.blankToNull(cell.text()) != null : cell.firstNonSpace() >= 0);
        Kind kind = Kind.NONE;
        String named = null;
        if (hasImage) {
            String t = shortCell ? cell.text().strip() : null;
            if (t != null && t.length() <= RowImages.REFERENCE_MAX_LENGTH && !t.startsWith("[")) {
                kind = Kind.REF;
                named = t;
            } else {
                kind = Kind.INLINE;
            }
        } else if (RowFields.blankToNull(m.get("image_path")) != null) {
            kind = Kind.PATH;
        } else if (RowFields.blankToNull(m.get("video")) != null) {
            kind = Kind.VIDEO;
        }
        boolean holdsImage = hasImage && !shortCell;
        byte[] key = idx.getBytes(StandardCharsets.UTF_8);
        // a row holding an image is kept while another row may name it: the first under its index, before the limit or when named
        boolean imageRow = holdsImage && imageRows.find(key) < 0 && (!enough || waiting.containsKey(idx));
        if (!candidate && !imageRow) return;
        int flags = RowIndex.flags(options.size(), kind.ordinal()) | (holdsImage ? RowIndex.HOLDS_IMAGE : 0) | (candidate ? RowIndex.CANDIDATE : 0);
        RowIndex.Labels labels = candidate ? new RowIndex.Labels(intern(category),
                intern(RowFields.blankToNull(m.getOrDefault("l2-category", m.get("l2_category")))), intern(RowFields.blankToNull(m.get("split"))))
                : NO_LABELS;
        int row = rows.add(start, length, lineNr, key, named == null ? null : named.getBytes(StandardCharsets.UTF_8), flags, labels);
        if (imageRow) {
            imageRows.putIfAbsent(row, key);
            List<Integer> naming = waiting.remove(idx);
            if (naming != null) {
                // rows kept earlier name this image: check it now, as it passes, and see whether they can be used
                record(row, inspect(idx, cell));
                for (int r : naming) {
                    rows.target(r, row);
                    if (sure(r)) counted();
                }
            }
        }
        if (candidate) candidate(row, idx, key, m, cell, kind, named, !options.isEmpty());
        account();
    }

    private static final RowIndex.Labels NO_LABELS = new RowIndex.Labels(null, null, null);

    /** The checks of a row of the category asked for, as far as the file read so far allows. */
    private void candidate(int row, String idx, byte[] key, Map<String, String> m, ImageCell cell, Kind kind, String named, boolean hasOptions) {
        String choiceError = errorOf(() -> RowFields.toQuestion(idx, m, true));
        // with options the file's kind does not matter to the row
        String openError = hasOptions ? choiceError : errorOf(() -> RowFields.toQuestion(idx, m, false));
        if (choiceError == null) rows.set(row, RowIndex.TEXT_OK_CHOICE);
        else error(row, CHOICE, choiceError);
        if (openError == null) rows.set(row, RowIndex.TEXT_OK_OPEN);
        else if (!openError.equals(choiceError)) error(row, OPEN, openError);
        // results are keyed by index, so a repeated index would silently take the first row's result
        int first = indices.putIfAbsent(row, key);
        if (first != row) {
            rows.set(row, RowIndex.DUPLICATE);
            rows.target(row, first);
            return;
        }
        if (choiceError != null && openError != null) return; // its text cannot be used: its images are not looked at
        if (filter.limit() <= 0 || questions < filter.limit()) {
            questions++;
            extraBytes += idx.length();
        }
        switch (kind) {
            case NONE -> { }
            // images are checked now, as they pass; a row naming another's image, when both have passed
            case INLINE -> {
                if (!rows.has(row, RowIndex.CHECKED)) record(row, inspect(idx, cell)); // unless rows waiting for it had it checked
            }
            case PATH -> check(row, () -> RowImages.inspectPaths(m.get("image_path"), baseDir, images));
            case VIDEO -> checkVideo(row, m.get("video"));
            case REF -> {
                int target = imageRows.find(named.getBytes(StandardCharsets.UTF_8));
                if (target >= 0) {
                    rows.target(row, target);
                    checkNamed(target, reader());
                } else if (filter.limit() > 0) {
                    waiting.computeIfAbsent(named, k -> new ArrayList<>()).add(row);
                }
            }
        }
        if (sure(row)) counted();
    }

    /** One more kept row is sure to become a question; at the limit, rows of the category stop being kept. */
    private void counted() {
        if (filter.limit() > 0 && ++sure >= filter.limit()) enough = true;
    }

    /** Whether a kept row will become a question whatever the rest of the file holds. */
    private boolean sure(int row) {
        int f = rows.flags(row);
        if ((f & RowIndex.CANDIDATE) == 0 || (f & RowIndex.DUPLICATE) != 0 || (f & RowIndex.TEXT_OK_CHOICE) == 0) return false;
        int kind = rows.kind(row);
        if (kind == Kind.NONE.ordinal()) return false;
        int checked = kind == Kind.REF.ordinal() ? rows.target(row) : row;
        return checked >= 0 && rows.has(checked, RowIndex.CHECKED) && rows.has(checked, RowIndex.IMAGES_OK);
    }

    private void error(int row, int what, String message) {
        errors.put(3L * row + what, message);
        extraBytes += MESSAGE_BYTES + message.length();
    }

    private String error(int row, int what) { return errors.get(3L * row + what); }

    /** Records whether a row's images can be used (a Long from the check) or why not (a String). */
    private void check(int row, Supplier<Long> s) { record(row, check(s)); }

    private void record(int row, Object r) {
        rows.set(row, RowIndex.CHECKED | (r instanceof String ? 0 : RowIndex.IMAGES_OK));
        if (r instanceof String why) error(row, IMAGE, why);
    }

    private void checkVideo(int row, String video) {
        try {
            // a URL is checked against the policy here and fetched when its question starts
            if (VideoUrls.isUrl(video)) images.videos().urls().check(video);
            else RowImages.videoFile(video, baseDir);
            rows.set(row, RowIndex.CHECKED | RowIndex.IMAGES_OK);
        } catch (BadRowException e) {
            rows.set(row, RowIndex.CHECKED);
            error(row, IMAGE, e.getMessage());
        }
    }

    /** Checks the image of a row another row names, once, reading its cell again (it passed unchecked). */
    private void checkNamed(int target, BenchmarkFile file) {
        if (rows.has(target, RowIndex.CHECKED)) return;
        String idx = rows.idx(target);
        RowEntry e = new RowEntry(file, idx, rows.start(target), rows.length(target), rows.line(target), null);
        check(target, () -> RowImages.inspectText(idx, file.imageCell(e), images));
    }

    /** A reader of rows during the pass (the file's kind not yet known: it only reads cells). */
    private BenchmarkFile reader() {
        if (reader == null) reader = new BenchmarkFile(data, format, header, baseDir, images, false);
        return reader;
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

    // ---- memory ----------------------------------------------------------------------------------------

    /** The bytes the pass keeps, and the questions its rows may become. */
    long bytes() {
        return rows.bytes() + imageRows.bytes() + indices.bytes() + extraBytes + questions * QUESTION_BYTES
                + (long) waiting.size() * MESSAGE_BYTES;
    }

    /** Past its share of the heap the pass keeps nothing more: it counts the rest of the file's rows for its message. */
    private void account() {
        long used = bytes();
        if (used <= heap / HEAP_SHARE) return;
        over = true;
        overAtRows = rowCount;
        overAtBytes = used;
        rows = new RowIndex();
        imageRows = rows.new Lookup();
        indices = rows.new Lookup();
        errors = new HashMap<>();
        waiting = new HashMap<>();
        structural = new ArrayList<>();
        if (scanner != null) scanner.countOnly();
    }

    /** The one line that refuses a file whose index does not fit its share of the heap. */
    private String tooMany() {
        double perRow = (double) overAtBytes / Math.max(1, overAtRows);
        double need = perRow * rowCount * HEAP_SHARE * 1.25; // what the index of the whole file needs, with room for the run
        long gb = (long) Math.ceil(need / (1L << 30));
        return String.format(Locale.ROOT, "%s: its %,d rows are more than a Java heap of %d MB can index: after %,d rows the index took "
                        + "%d MB (about %.0f bytes a row), the half of the heap it may use; give Java a larger heap (e.g. "
                        + "GAM_JAVA_OPTS=-Xmx%dg for the gam launcher)%s", where, rowCount, heap >> 20, overAtRows, overAtBytes >> 20, perRow,
                Math.max(1, gb), filter.limit() > 0 ? "" : ", or take fewer questions with --limit N");
    }

    // ---- after the pass --------------------------------------------------------------------------------

    private Dataset resolve(String sha) {
        // a file where some row has options is a multiple-choice file: a row there without options is broken, not open
        BenchmarkFile file = new BenchmarkFile(data, format, header, baseDir, images, choiceFile);
        List<EvalQuestion> out = new ArrayList<>();
        List<SkippedRow> skips = new ArrayList<>(structural);
        Map<Integer, RowEntry> named = new HashMap<>(); // the entries of rows others name, shared by every row naming them
        int limit = filter.limit();
        for (int row = 0; row < rows.size(); row++) {
            if (!rows.has(row, RowIndex.CANDIDATE)) continue;
            if (limit > 0 && out.size() >= limit) break;
            String idx = rows.idx(row);
            long line = rows.line(row);
            if (rows.has(row, RowIndex.DUPLICATE)) {
                skips.add(new SkippedRow(idx, "duplicate index: line " + line + " is left out, the row on line " + rows.line(rows.target(row))
                        + " has the same index", line));
                continue;
            }
            String error = rows.has(row, choiceFile ? RowIndex.TEXT_OK_CHOICE : RowIndex.TEXT_OK_OPEN) ? null
                    : choiceFile ? error(row, CHOICE) : Objects.requireNonNullElse(error(row, OPEN), error(row, CHOICE));
            RowEntry image = null;
            if (error == null && rows.kind(row) == Kind.REF.ordinal()) {
                int target = rows.target(row);
                if (target < 0) target = imageRows.find(rows.name(row).getBytes(StandardCharsets.UTF_8));
                if (target < 0) {
                    error = "'image' value '" + rows.name(row) + "' names no row with an image";
                } else {
                    checkNamed(target, file);
                    int t = target;
                    image = named.computeIfAbsent(t, k -> new RowEntry(file, rows.idx(t), rows.start(t), rows.length(t), rows.line(t), null));
                    if (!rows.has(t, RowIndex.IMAGES_OK)) {
                        String why = error(t, IMAGE), own = "row " + image.idx + ": ";
                        error = "its image is row " + image.idx + "'s (line " + image.line + "), which cannot be used: "
                                + (why.startsWith(own) ? why.substring(own.length()) : why);
                    }
                }
            } else if (error == null) {
                error = imageError(row, idx);
            }
            if (error != null) {
                skips.add(SkippedRow.of(idx, error, line));
                continue;
            }
            RowIndex.Labels l = rows.labels(row);
            out.add(EvalQuestion.indexed(idx, l.split(), l.category(), l.l2(), rows.options(row), line,
                    new RowEntry(file, idx, rows.start(row), rows.length(row), line, image)));
        }
        return new Dataset(name, out, skips, sha);
    }

    /** Why the images of a row that gives its own (or none) cannot be used, or null. */
    private String imageError(int row, String idx) {
        if (rows.kind(row) == Kind.NONE.ordinal()) return RowImages.NO_IMAGE;
        if (!rows.has(row, RowIndex.CHECKED)) throw new IllegalStateException("row " + idx + " was not checked as it passed");
        return rows.has(row, RowIndex.IMAGES_OK) ? null : error(row, IMAGE);
    }
}
