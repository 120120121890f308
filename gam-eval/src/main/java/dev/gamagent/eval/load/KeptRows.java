package dev.gamagent.eval.load;

import dev.gamagent.eval.format.ImageCell;
import dev.gamagent.image.ImageException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What an {@link IndexPass} keeps of a benchmark file's rows as they pass, and the questions it decides from them when
 * the file is read. Per row only what the run needs (where the row lies, its index, category, split, option count,
 * whether its text and images can be used); checks that depend on the whole file (is it a multiple-choice file? which
 * row holds the image another names? is an index repeated?) are made in {@link #resolve}, from what was kept.
 *
 * <p>What it keeps is bounded. A kept row costs {@link RowIndex#ROW_BYTES} bytes and its index text in a
 * {@link RowIndex}, and a row of the category asked for the question it may become ({@link #QUESTION_BYTES}); rows of
 * other categories are kept only when they hold an image another row may name. With {@code --limit N} rows stop being
 * kept once N rows are sure to become questions (their text, index and images checked); after that only a row
 * holding an image that a kept row names and that has not passed yet is kept, and the rest of the file is read for
 * its hash and for whether some row has options ({@link #idle}). Everything kept is counted against half of the heap:
 * past it nothing more is kept, the file's rows are counted, and {@link #tooMany} refuses the file in one line naming
 * them and the heap, before memory runs out.
 */
final class KeptRows {
    /** How a row gives its images (its ordinal is kept in the row's flags). */
    private enum Kind { NONE, INLINE, REF, PATH, VIDEO }

    /**
     * What one question of an indexed file holds besides its index's characters: the {@link EvalQuestion}, its id
     * string, its {@link RowEntry} and its slots in the lists that hold it (156 bytes measured: the heap a loaded
     * Dataset of 1,000,000 rows with indices of 1 to 7 digits keeps after a full collection, compressed references).
     */
    static final int QUESTION_BYTES = 160;
    /** What a message kept for a skipped row costs besides its characters (the string, the record, a map entry). */
    static final int MESSAGE_BYTES = 96;
    /** The share of the heap the index may take: the rest is for the questions in flight and their images. */
    static final int HEAP_SHARE = 2;

    /** What a row's error is about: its text in a multiple-choice file, its text in another file, its images. */
    private static final int CHOICE = 0, OPEN = 1, IMAGE = 2;

    private final DataBytes data;
    private final FileFormat format;
    /** The file as given, for messages. */
    private final String where;
    private final Path baseDir;
    private final RowFilter filter;
    private final Images images;
    /** The heap the rows are measured against, in bytes (the JVM's maximum heap; smaller in tests). */
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
    private final Map<String, String> interned = new HashMap<>();
    /** A TSV file's header (null for the other formats). */
    private List<String> header;
    /** A reader of rows for checks made during the pass (an image named by a row that passes later than it). */
    private BenchmarkFile reader;
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
    /** The rows outgrew their share of the heap: rows are counted, not kept; the rows and bytes when they did. */
    private boolean over;
    private long overAtRows, overAtBytes;

    KeptRows(DataBytes data, FileFormat format, Path baseDir, RowFilter filter, Images images, long heap) {
        this.data = data;
        this.format = format;
        this.where = data.name();
        this.baseDir = baseDir;
        this.filter = filter;
        this.images = images;
        this.heap = heap;
    }

    /** A TSV file's header, once read. */
    void header(List<String> h) { header = h; }

    /** One more row of the file that is not blank (kept or not; the count a refusal names). */
    void seen() { rowCount++; }

    /** Nothing more of the file is needed but its bytes (its hash) and its row count. */
    boolean idle() { return over || enough && choiceFile && waiting.isEmpty(); }

    /** The rows outgrew their share of the heap ({@link #tooMany} says so). */
    boolean over() { return over; }

    /** A row too broken to read, reported unless the limit was reached before it (then no row after it is asked). */
    void skip(SkippedRow row) {
        if (over || enough) return;
        structural.add(row);
        extraBytes += MESSAGE_BYTES + row.index().length() + row.reason().length();
        account();
    }

    /** Keeps what the rest of the run needs of one row whose fields are {@code m} (its image cell apart). */
    void add(String idx, Map<String, String> m, ImageCell cell, long lineNr, long start, int length) {
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
            else RowPaths.videoFile(video, baseDir);
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
    private long bytes() {
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
    }

    /** The one line that refuses a file whose index does not fit its share of the heap. */
    String tooMany() {
        double perRow = (double) overAtBytes / Math.max(1, overAtRows);
        double need = perRow * rowCount * HEAP_SHARE * 1.25; // what the index of the whole file needs, with room for the run
        long gb = (long) Math.ceil(need / (1L << 30));
        return String.format(Locale.ROOT, "%s: its %,d rows are more than a Java heap of %d MB can index: after %,d rows the index took "
                        + "%d MB (about %.0f bytes a row), the half of the heap it may use; give Java a larger heap (e.g. "
                        + "GAM_JAVA_OPTS=-Xmx%dg for the gam launcher)%s", where, rowCount, heap >> 20, overAtRows, overAtBytes >> 20, perRow,
                Math.max(1, gb), filter.limit() > 0 ? "" : ", or take fewer questions with --limit N");
    }

    // ---- after the pass --------------------------------------------------------------------------------

    /** The questions of the file named {@code name}, whose hash is {@code sha}, and the rows skipped. */
    Dataset resolve(String name, String sha) {
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
        return new Dataset(name, out, skips, sha, rowCount);
    }

    /** Why the images of a row that gives its own (or none) cannot be used, or null. */
    private String imageError(int row, String idx) {
        if (rows.kind(row) == Kind.NONE.ordinal()) return RowImages.NO_IMAGE;
        if (!rows.has(row, RowIndex.CHECKED)) throw new IllegalStateException("row " + idx + " was not checked as it passed");
        return rows.has(row, RowIndex.IMAGES_OK) ? null : error(row, IMAGE);
    }
}
