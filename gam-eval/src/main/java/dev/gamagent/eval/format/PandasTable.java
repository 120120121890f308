package dev.gamagent.eval.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * The one reader of pandas-quoted tables (VLMEvalKit's TSV and CSV files, as pandas' {@code to_csv} writes them; the
 * writer is {@link PandasQuoting}): splits separated bytes into rows as they stream past. A field may be quoted with
 * {@code "} (then it may hold separators and newlines, and {@code ""} is a quote); rows end at an unquoted newline;
 * {@code \r\n} ends a row as {@code \n} does. Works on bytes: the separators are ASCII and never occur inside a
 * UTF-8 sequence. The image column is not kept: only its {@link ImageCell} (length and first bytes); columns a reader
 * does not want ({@link #skipColumns}) are passed over; the other fields of a row are kept up to
 * {@link #MAX_ROW_TEXT} bytes together, so a row's memory is bounded whatever the file holds (a multi-GB file's base64
 * images stream past, byte by byte, without being held). No CSV library keeps that skip, so this is the project's own.
 */
public final class PandasTable {
    /** The text of one row outside its image; more is junk or a missing newline, and the row is refused. */
    public static final int MAX_ROW_TEXT = 16 << 20;

    /** One row: bytes [start, end) of the file, starting on 1-based {@code line}. */
    public static final class Row {
        public long start, end, line;
        /** Fields in order; the image column's and skipped columns' are null (see {@link #image}). */
        public List<String> fields;
        /** The image column's cell; null when the row has no image column. */
        public ImageCell image;
        /** The non-image text passed {@link #MAX_ROW_TEXT} (its fields are cut). */
        public boolean overflow;
        /** Rows are only being counted ({@link #countOnly}): the row held nothing but white space; its fields are null. */
        public boolean blank;
    }
public 
    interface RowSink {
        void row(Row row);
    }

    private final byte sep;
    private final RowSink sink;
    private final int maxText;
    private int imageColumn = -1;
    private IntPredicate skipped;

    private boolean quoted, quotePending, crPending, fieldStart = true;
    private long rowStart, rowLine = 1, line = 1, fieldLength;
    private int col;
    private byte[] text = new byte[4096];
    private int textLength;
    private int[] fieldEnds = new int[64];
    private ImageCell image;
    private boolean overflow;
    private boolean countOnly, nonSpace;

    public PandasTable(char separator, RowSink sink) { this(separator, MAX_ROW_TEXT, sink); }

    /** @param maxText the text kept of a row outside its image column (a row read again whole: its length) */
    public PandasTable(char separator, int maxText, RowSink sink) {
        this.sep = (byte) separator;
        this.sink = sink;
        this.maxText = maxText;
    }

    /** The fields of one whole row held in {@code bytes} (no image column kept apart), as a question reads its row again. */
    public static List<String> fields(byte[] bytes) {
        List<List<String>> rows = whole(bytes, '\t');
        return rows.size() == 1 ? rows.get(0) : null;
    }

    /** Rows of fields of a whole text split at {@code separator} (tab for TSV, comma for CSV); a trailing empty line is dropped. */
    public static List<List<String>> parse(String text, char separator) {
        return whole(text.getBytes(StandardCharsets.UTF_8), separator);
    }

    private static List<List<String>> whole(byte[] bytes, char separator) {
        List<List<String>> rows = new ArrayList<>();
        PandasTable s = new PandasTable(separator, Math.max(1, bytes.length), r -> rows.add(r.fields));
        s.text = new byte[Math.max(16, bytes.length)];
        s.feed(bytes, 0, bytes.length, 0);
        s.end(bytes.length);
        return rows;
    }

    /**
     * The columns of a tab-separated file that {@code wanted} names (by its header, stripped), one map per row in the
     * header's order, read in one streaming pass: the other columns (a file's base64 images) are passed over, not held.
     * A blank line is no row.
     */
    public static List<Map<String, String>> columns(Path file, Predicate<String> wanted) throws IOException {
        List<Map<String, String>> out = new ArrayList<>();
        List<String> header = new ArrayList<>();
        stream(file, (row, c) -> c >= header.size() || !wanted.test(header.get(c)), h -> h.forEach(x -> header.add(x.strip())), (fields, row) -> {
            Map<String, String> m = new LinkedHashMap<>();
            for (int c = 0; c < fields.size() && c < header.size(); c++) if (wanted.test(header.get(c))) m.put(header.get(c), fields.get(c));
            out.add(m);
        });
        return out;
    }

    /** Which field of a data row is passed over: {@code skip(row, column)}, both 0-based (the header is no row). */
    @FunctionalInterface
    public interface FieldSkip {
        boolean skip(int row, int column);
    }

    /** What a data row holds: its fields (those passed over null) and its 0-based number. */
    @FunctionalInterface
    public interface DataRow {
        void row(List<String> fields, int row);
    }

    /**
     * A tab-separated file in one streaming pass: its header's fields (as written) to {@code header}, then every row that is
     * not a blank line to {@code rows}, the fields {@code skip} names passed over and null — so a file's base64 images can
     * be kept for the few rows that want them and streamed past in every other. A row whose kept text passes
     * {@link #MAX_ROW_TEXT} is refused, naming its line.
     */
    public static void stream(Path file, FieldSkip skip, java.util.function.Consumer<List<String>> header, DataRow rows) throws IOException {
        int[] next = {0};
        boolean[] headed = {false};
        PandasTable[] table = new PandasTable[1];
        table[0] = new PandasTable('\t', r -> {
            if (!headed[0]) {
                headed[0] = true;
                header.accept(r.fields);
                table[0].skipColumns(c -> skip.skip(next[0], c));
                return;
            }
            if (r.fields.size() == 1 && (r.fields.get(0) == null || r.fields.get(0).isEmpty())) return; // a blank line
            if (r.overflow) {
                throw new IllegalArgumentException(file + ": the row on line " + r.line + " holds over " + MAX_ROW_TEXT + " bytes of text outside the columns passed over (junk, or a missing newline)");
            }
            rows.row(r.fields, next[0]++);
        });
        byte[] buf = new byte[1 << 16];
        long at = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; at += n) table[0].feed(buf, 0, n, at);
        }
        table[0].end(at);
    }

    /** From the next row on, the columns {@code skip} names (0-based) are passed over: not kept, their fields null. */
    public void skipColumns(IntPredicate skip) { skipped = skip; }

    /** From the next row on, column {@code c} (0-based; -1 none) is the image: streamed past, not kept. */
    public void imageColumn(int c) { imageColumn = c; }

    /** From the next row on, rows are found and counted only: their fields are not made (see {@link Row#blank}). */
    public void countOnly() { countOnly = true; }

    /** Skips {@code n} bytes at the start (a byte-order mark) so that offsets stay the file's. */
    public void skipStart(long n) { rowStart = n; }

    /** Feeds bytes [from, to) of a chunk that starts at file offset {@code base}. */
    public void feed(byte[] b, int from, int to, long base) {
        int i = from;
        while (i < to) {
            byte c = b[i];
            if (crPending) {
                crPending = false;
                if (c != '\n') { put('\r'); fieldStart = false; }
            }
            if (quotePending) {
                quotePending = false;
                if (c == '"') { put('"'); i++; continue; }
                quoted = false;
            }
            if (quoted) {
                int j = i;
                while (j < to && b[j] != '"') { if (b[j] == '\n') line++; j++; }
                put(b, i, j);
                i = j;
                if (i < to) { quotePending = true; i++; }
                continue;
            }
            if (c == '"' && fieldStart) { quoted = true; fieldStart = false; i++; continue; }
            if (c == sep) { endField(); fieldStart = true; i++; continue; }
            if (c == '\r') { crPending = true; i++; continue; }
            if (c == '\n') {
                endField();
                endRow(base + i + 1);
                line++;
                rowLine = line;
                rowStart = base + i + 1;
                fieldStart = true;
                i++;
                continue;
            }
            int j = i + 1;
            while (j < to) {
                byte d = b[j];
                if (d == sep || d == '\n' || d == '\r') break;
                j++;
            }
            put(b, i, j);
            fieldStart = false;
            i = j;
        }
    }

    /** The input ended at file offset {@code end}: the last row, if it has no newline, ends here. */
    public void end(long end) {
        if (crPending) { crPending = false; put('\r'); }
        quotePending = false;
        quoted = false;
        if (fieldLength > 0 || col > 0) {
            endField();
            endRow(end);
        }
    }

    /** Rows emitted so far end before this offset; the next row starts here. */
    long rowStart() { return rowStart; }

    private void put(byte[] b, int from, int to) {
        if (from >= to) return;
        fieldLength += to - from;
        if (countOnly) {
            for (int i = from; i < to && !nonSpace; i++) nonSpace = !Character.isWhitespace(b[i]);
            return;
        }
        if (col == imageColumn) {
            image().append(b, from, to);
            return;
        }
        if (skipped != null && skipped.test(col)) return;
        int n = to - from;
        if (textLength + n > maxText) { overflow = true; return; }
        if (textLength + n > text.length) text = Arrays.copyOf(text, Math.max(textLength + n, Math.min(maxText, text.length * 2)));
        System.arraycopy(b, from, text, textLength, n);
        textLength += n;
    }

    private void put(char c) {
        fieldLength++;
        if (countOnly) {
            nonSpace |= !Character.isWhitespace(c);
            return;
        }
        if (col == imageColumn) {
            image().append((byte) c);
            return;
        }
        if (skipped != null && skipped.test(col)) return;
        if (textLength + 1 > maxText) { overflow = true; return; }
        if (textLength == text.length) text = Arrays.copyOf(text, Math.min(maxText, text.length * 2));
        text[textLength++] = (byte) c;
    }

    private ImageCell image() {
        if (image == null) image = new ImageCell();
        return image;
    }

    private void endField() {
        if (col == fieldEnds.length) fieldEnds = Arrays.copyOf(fieldEnds, col * 2);
        fieldEnds[col++] = textLength;
        fieldLength = 0;
    }

    private void endRow(long end) {
        Row r = new Row();
        r.start = rowStart;
        r.end = end;
        r.line = rowLine;
        r.overflow = overflow;
        if (countOnly) {
            r.blank = col <= 1 && !nonSpace;
            col = 0;
            nonSpace = false;
            sink.row(r);
            return;
        }
        List<String> fields = new ArrayList<>(col);
        int from = 0;
        for (int k = 0; k < col; k++) {
            if (k == imageColumn) {
                fields.add(null);
                if (image == null) image = new ImageCell();
            } else if (skipped != null && skipped.test(k)) {
                fields.add(null);
            } else {
                fields.add(new String(text, from, fieldEnds[k] - from, StandardCharsets.UTF_8));
            }
            from = fieldEnds[k];
        }
        r.fields = fields;
        r.image = col > imageColumn && imageColumn >= 0 ? image : null;
        col = 0;
        textLength = 0;
        overflow = false;
        image = null;
        if (text.length > 1 << 20 && maxText == MAX_ROW_TEXT) text = new byte[4096]; // a long row's buffer is not kept for the rest of the file
        sink.row(r);
    }
}
