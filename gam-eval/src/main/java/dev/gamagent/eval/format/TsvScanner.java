package dev.gamagent.eval.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits tab-separated bytes into rows as they stream past, as pandas writes them ({@code to_csv(sep='\t')}) and
 * {@link Tsv} reads text: a field may be quoted with {@code "} (then it may hold tabs and newlines, and {@code ""}
 * is a quote); rows end at an unquoted newline; {@code \r\n} ends a row as {@code \n} does. Works on bytes: the
 * separators are ASCII and never occur inside a UTF-8 sequence. The image column is not kept: only its
 * {@link ImageCell} (length and first bytes); the other fields of a row are kept up to {@link #MAX_ROW_TEXT}
 * bytes together, so a row's memory is bounded whatever the file holds.
 */
public final class TsvScanner {
    /** The text of one row outside its image; more is junk or a missing newline, and the row is refused. */
    public static final int MAX_ROW_TEXT = 16 << 20;

    /** One row: bytes [start, end) of the file, starting on 1-based {@code line}. */
    public static final class Row {
        public long start, end, line;
        /** Fields in order; the image column's is null (see {@link #image}). */
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

    private boolean quoted, quotePending, crPending, fieldStart = true;
    private long rowStart, rowLine = 1, line = 1, fieldLength;
    private int col;
    private byte[] text = new byte[4096];
    private int textLength;
    private int[] fieldEnds = new int[64];
    private ImageCell image;
    private boolean overflow;
    private boolean countOnly, nonSpace;

    public TsvScanner(char separator, RowSink sink) { this(separator, MAX_ROW_TEXT, sink); }

    /** @param maxText the text kept of a row outside its image column (a row read again whole: its length) */
    public TsvScanner(char separator, int maxText, RowSink sink) {
        this.sep = (byte) separator;
        this.sink = sink;
        this.maxText = maxText;
    }

    /** The fields of one whole row held in {@code bytes} (no image column kept apart), as a question reads its row again. */
    public static List<String> fields(byte[] bytes) {
        List<List<String>> rows = new ArrayList<>(1);
        TsvScanner s = new TsvScanner('\t', Math.max(1, bytes.length), r -> rows.add(r.fields));
        s.text = new byte[Math.max(16, bytes.length)];
        s.feed(bytes, 0, bytes.length, 0);
        s.end(bytes.length);
        return rows.size() == 1 ? rows.get(0) : null;
    }

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
