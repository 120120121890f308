package dev.gamagent.eval.load;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows an index pass keeps until the whole file is read, in primitive arrays instead of an object per row: a row
 * is {@link #ROW_BYTES} bytes (where it lies, its line, its flags, its labels' code, the row whose image it names) plus
 * its index text, and the name it gives another row's image, in a shared byte pool. Pages of fixed size hold both, so
 * growing never copies what is held; {@link #bytes()} is what it all takes. Rows are numbered from 0 in file order.
 */
final class RowIndex {
    /** Per row: start, line, pool position, length and flags, labels and target: five longs. */
    private static final int LONGS = 5;
    static final int ROW_BYTES = LONGS * 8;
    private static final int PAGE_ROWS = 2048;
    /** A pool page; a text longer than a quarter of it gets a page of its own. */
    private static final int POOL_PAGE = 64 << 10;
    /** What an array costs beyond its elements (header and length), and an object reference: for {@link #bytes()}. */
    static final int ARRAY_BYTES = 16, REFERENCE_BYTES = 8;

    // the flags of a row (bits of one int)
    static final int OPTIONS_MASK = 0x1F;             // how many options (0..26)
    private static final int KIND_SHIFT = 5;          // how it gives its images (3 bits, KeptRows.Kind)
    static final int HOLDS_IMAGE = 1 << 8;            // its own image cell holds an image (another row may name it)
    static final int CANDIDATE = 1 << 9;              // of the category asked for: it may become a question
    static final int TEXT_OK_CHOICE = 1 << 10;        // its text reads as a question in a multiple-choice file
    static final int TEXT_OK_OPEN = 1 << 11;          // ... and in another file
    static final int DUPLICATE = 1 << 12;             // an earlier candidate has its index (target: that row)
    static final int CHECKED = 1 << 13;               // its images were checked (IMAGES_OK says how)
    static final int IMAGES_OK = 1 << 14;

    private long[][] rows = new long[0][];
    private int size;
    private byte[][] pool = new byte[0][];
    private int poolPage = -1, poolAt;
    private long poolBytes;
    private final Map<Labels, Integer> labelCodes = new HashMap<>();
    private final List<Labels> labels = new ArrayList<>();
    private long labelBytes;

    /** A row's category, l2-category and split (null: none); rows share them through one code. */
    record Labels(String category, String l2, String split) { }

    int size() { return size; }

    /** Adds a row; {@code idx} and {@code name} (the row another's image is named by; null: none) go to the pool. */
    int add(long start, int length, long line, byte[] idx, byte[] name, int flags, Labels l) {
        int row = size;
        if ((row & (PAGE_ROWS - 1)) == 0) {
            rows = Arrays.copyOf(rows, rows.length + 1);
            rows[rows.length - 1] = new long[PAGE_ROWS * LONGS];
        }
        long[] page = rows[row / PAGE_ROWS];
        int at = (row % PAGE_ROWS) * LONGS;
        page[at] = start;
        page[at + 1] = line;
        page[at + 2] = put(idx, name);
        page[at + 3] = ((long) length << 32) | (flags & 0xFFFFFFFFL);
        page[at + 4] = ((long) code(l) << 32) | 0xFFFFFFFFL; // target -1: none
        size++;
        return row;
    }

    private long[] page(int row) { return rows[row / PAGE_ROWS]; }

    private long cell(int row, int k) { return page(row)[(row % PAGE_ROWS) * LONGS + k]; }

    long start(int row) { return cell(row, 0); }

    long line(int row) { return cell(row, 1); }

    int length(int row) { return (int) (cell(row, 3) >>> 32); }

    int flags(int row) { return (int) cell(row, 3); }

    boolean has(int row, int flag) { return (flags(row) & flag) != 0; }

    void set(int row, int flag) {
        long[] p = page(row);
        p[(row % PAGE_ROWS) * LONGS + 3] |= flag & 0xFFFFFFFFL;
    }

    static int flags(int options, int kind) { return Math.min(options, OPTIONS_MASK) | kind << KIND_SHIFT; }

    int options(int row) { return flags(row) & OPTIONS_MASK; }

    int kind(int row) { return (flags(row) >>> KIND_SHIFT) & 7; }

    Labels labels(int row) { return labels.get((int) (cell(row, 4) >>> 32)); }

    /** The row this one's image is (a named row), or the earlier row with its index (a duplicate); -1: none. */
    int target(int row) { return (int) cell(row, 4); }

    void target(int row, int target) {
        long[] p = page(row);
        int at = (row % PAGE_ROWS) * LONGS + 4;
        p[at] = (p[at] & 0xFFFFFFFF00000000L) | (target & 0xFFFFFFFFL);
    }

    /** The row's index text. */
    String idx(int row) { return text(cell(row, 2), 0); }

    /** The name of the row whose image this row's image cell names (null: none). */
    String name(int row) { return text(cell(row, 2), 1); }

    private int code(Labels l) {
        Integer c = labelCodes.get(l);
        if (c != null) return c;
        labelCodes.put(l, labels.size());
        labels.add(l);
        labelBytes += 96 + length(l.category()) + length(l.l2()) + length(l.split());
        return labels.size() - 1;
    }

    private static int length(String s) { return s == null ? 0 : 48 + s.length(); }

    /**
     * The bytes all of this takes: the row pages, the pool's pages and the distinct labels (each as its strings, a map
     * entry and a list slot).
     */
    long bytes() {
        long pages = (long) rows.length * (ARRAY_BYTES + (long) PAGE_ROWS * ROW_BYTES + REFERENCE_BYTES);
        return pages + poolBytes + labelBytes;
    }

    // ---- the pool: per row its index text, then the name its image cell gives (lengths as varints, -1 as 0) ----------

    private long put(byte[] idx, byte[] name) {
        int need = varintSize(idx.length) + idx.length + varintSize(name == null ? 0 : name.length + 1) + (name == null ? 0 : name.length);
        if (poolPage < 0 || poolAt + need > pool[poolPage].length) {
            int size = need > POOL_PAGE / 4 ? need : POOL_PAGE;
            pool = Arrays.copyOf(pool, pool.length + 1);
            pool[pool.length - 1] = new byte[size];
            poolPage = pool.length - 1;
            poolAt = 0;
            poolBytes += ARRAY_BYTES + size + REFERENCE_BYTES;
        }
        long position = ((long) poolPage << 32) | poolAt;
        byte[] p = pool[poolPage];
        poolAt = varint(p, poolAt, idx.length);
        System.arraycopy(idx, 0, p, poolAt, idx.length);
        poolAt += idx.length;
        poolAt = varint(p, poolAt, name == null ? 0 : name.length + 1);
        if (name != null) {
            System.arraycopy(name, 0, p, poolAt, name.length);
            poolAt += name.length;
        }
        return position;
    }

    /** Text {@code k} (0 the index, 1 the name) at a pool position. */
    private String text(long position, int k) {
        byte[] p = pool[(int) (position >>> 32)];
        int at = (int) position;
        int[] read = new int[1];
        int n = readVarint(p, at, read);
        at = read[0];
        if (k == 0) return new String(p, at, n, StandardCharsets.UTF_8);
        at += n;
        int m = readVarint(p, at, read);
        return m == 0 ? null : new String(p, read[0], m - 1, StandardCharsets.UTF_8);
    }

    /** Whether row {@code row}'s index text is {@code key}'s bytes. */
    private boolean idxEquals(int row, byte[] key) {
        long position = cell(row, 2);
        byte[] p = pool[(int) (position >>> 32)];
        int[] read = new int[1];
        int n = readVarint(p, (int) position, read);
        return n == key.length && Arrays.equals(p, read[0], read[0] + n, key, 0, n);
    }

    private int idxHash(int row) {
        long position = cell(row, 2);
        byte[] p = pool[(int) (position >>> 32)];
        int[] read = new int[1];
        int n = readVarint(p, (int) position, read);
        return hash(p, read[0], n);
    }

    static int hash(byte[] b) { return hash(b, 0, b.length); }

    private static int hash(byte[] b, int from, int n) {
        int h = 1;
        for (int i = from; i < from + n; i++) h = 31 * h + b[i];
        return h ^ (h >>> 16);
    }

    private static int varintSize(int v) { return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5; }

    private static int varint(byte[] b, int at, int v) {
        while ((v & ~0x7F) != 0) {
            b[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[at++] = (byte) v;
        return at;
    }

    private static int readVarint(byte[] b, int at, int[] next) {
        int v = 0, shift = 0;
        while (true) {
            byte x = b[at++];
            v |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) break;
            shift += 7;
        }
        next[0] = at;
        return v;
    }

    /**
     * Rows by their index text: an open-addressing table of row numbers (4 bytes a slot, at most half full), which
     * keeps the first row put under each text.
     */
    final class Lookup {
        private int[] slots = new int[16];
        private int count;

        /** The row put under {@code idx}, or -1. */
        int find(byte[] idx) {
            int mask = slots.length - 1;
            for (int i = hash(idx) & mask; ; i = (i + 1) & mask) {
                int s = slots[i];
                if (s == 0) return -1;
                if (idxEquals(s - 1, idx)) return s - 1;
            }
        }

        /** Puts {@code row} under its index text unless a row is there already; returns the row that is there. */
        int putIfAbsent(int row, byte[] idx) {
            int had = find(idx);
            if (had >= 0) return had;
            if (2 * (count + 1) > slots.length) grow();
            insert(row, hash(idx));
            count++;
            return row;
        }

        private void insert(int row, int h) {
            int mask = slots.length - 1;
            int i = h & mask;
            while (slots[i] != 0) i = (i + 1) & mask;
            slots[i] = row + 1;
        }

        private void grow() {
            int[] old = slots;
            slots = new int[old.length * 2];
            for (int s : old) if (s != 0) insert(s - 1, idxHash(s - 1));
        }

        long bytes() { return ARRAY_BYTES + 4L * slots.length; }
    }
}
