package dev.gamagent.eval.data.m3mad;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.zip.GZIPInputStream;

/**
 * A reader of the Parquet files Hugging Face dataset snapshots hold (written by pyarrow through the {@code datasets}
 * library), enough for M3MAD-Bench's sources: top-level columns that are a primitive (string, integer, floating point,
 * boolean), a struct of primitives (an {@code Image} feature: {@code {bytes, path}}) or a list of primitives (a
 * {@code Sequence}); pages v1 and v2, PLAIN and dictionary encodings, UNCOMPRESSED, SNAPPY and GZIP. Anything else
 * (ZSTD, nested lists, delta encodings) is refused in one line naming the file and the column. Rows are read one
 * column at a time, one row group at a time, so a column of images need not fit in memory: only the kept rows' values
 * are made.
 */
public final class ParquetFile {
    private static final int BOOLEAN = 0, INT32 = 1, INT64 = 2, INT96 = 3, FLOAT = 4, DOUBLE = 5, BYTE_ARRAY = 6, FIXED = 7;
    private static final int REQUIRED = 0, REPEATED = 2;

    private final Path path;
    private final long rows;
    private final List<String> fields = new ArrayList<>();
    private final List<Leaf> leaves = new ArrayList<>();
    private final List<RowGroup> groups = new ArrayList<>();

    /** A primitive column: its path, type, and the definition level each node of its path reaches. */
    private record Leaf(List<String> path, int type, int typeLength, boolean utf8, int maxDef, int maxRep, int[] defAt, int repeatedAt) {
        String dotted() { return String.join(".", path); }
    }

    private record Chunk(long start, long length, long values, int codec) { }

    private record RowGroup(long rows, Map<String, Chunk> chunks) { }

    private ParquetFile(Path path, ThriftCompact.Struct meta) {
        this.path = path;
        this.rows = meta.longOr(3, 0);
        List<ThriftCompact.Struct> schema = meta.list(2);
        if (schema.isEmpty()) throw bad("no schema");
        int[] at = {1};
        int top = (int) schema.get(0).longOr(5, 0);
        for (int i = 0; i < top; i++) {
            fields.add(schema.get(at[0]).string(4));
            walk(schema, at, new ArrayList<>(), new ArrayList<>(), 0, 0, -1);
        }
        for (ThriftCompact.Struct g : meta.<ThriftCompact.Struct>list(4)) {
            Map<String, Chunk> chunks = new LinkedHashMap<>();
            for (ThriftCompact.Struct c : g.<ThriftCompact.Struct>list(1)) {
                ThriftCompact.Struct m = c.struct(3);
                if (m == null) throw bad("a column chunk without its metadata (kept in another file)");
                List<String> p = new ArrayList<>();
                for (Object o : m.<Object>list(3)) p.add(new String((byte[]) o, StandardCharsets.UTF_8));
                long data = m.longOr(9, 0), dict = m.longOr(11, 0);
                long start = dict > 0 && dict < data ? dict : data;
                chunks.put(String.join(".", p), new Chunk(start, m.longOr(7, 0), m.longOr(5, 0), (int) m.longOr(4, 0)));
            }
            groups.add(new RowGroup(g.longOr(3, 0), chunks));
        }
    }

    private void walk(List<ThriftCompact.Struct> schema, int[] at, List<String> path, List<Integer> defs, int def, int rep, int repeatedAt) {
        ThriftCompact.Struct e = schema.get(at[0]++);
        String name = e.string(4);
        int repetition = (int) e.longOr(3, REQUIRED);
        List<String> p = new ArrayList<>(path);
        p.add(name);
        int d = def + (repetition != REQUIRED ? 1 : 0), r = rep + (repetition == REPEATED ? 1 : 0);
        int ra = repetition == REPEATED && repeatedAt < 0 ? p.size() - 1 : repeatedAt;
        List<Integer> ds = new ArrayList<>(defs);
        ds.add(d);
        int children = (int) e.longOr(5, 0);
        if (children == 0) {
            boolean utf8 = e.longOr(6, -1) == 0 || (e.struct(10) != null && e.struct(10).has(1));
            leaves.add(new Leaf(p, (int) e.longOr(1, -1), (int) e.longOr(2, 0), utf8, d, r, ds.stream().mapToInt(Integer::intValue).toArray(), ra));
            return;
        }
        for (int i = 0; i < children; i++) walk(schema, at, p, ds, d, r, ra);
    }

    /** Opens {@code file}, reading its footer. */
    public static ParquetFile open(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 12) throw new IllegalArgumentException(file + ": not a Parquet file (" + size + " bytes)");
            byte[] tail = read(ch, size - 8, 8);
            if (tail[4] != 'P' || tail[5] != 'A' || tail[6] != 'R' || tail[7] != '1') {
                throw new IllegalArgumentException(file + ": not a Parquet file (it does not end with PAR1)");
            }
            long len = ByteBuffer.wrap(tail, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
            if (len > size - 12) throw new IllegalArgumentException(file + ": a Parquet footer of " + len + " bytes in a file of " + size);
            byte[] footer = read(ch, size - 8 - len, (int) len);
            return new ParquetFile(file, new ThriftCompact(footer, 0).struct());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static byte[] read(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) throw new IOException("the file ends at byte " + (at + b.position()));
        }
        return b.array();
    }

    public Path path() { return path; }

    public long rows() { return rows; }

    /** The top-level column names, in the schema's order. */
    public List<String> fields() { return List.copyOf(fields); }

    /**
     * The values of top-level column {@code field} for the rows {@code keep} accepts (row numbers from 0 in this file),
     * in row order, the others null: a String (UTF-8 byte arrays), byte[], Long, Double, Boolean, a List for a list
     * column, a Map (child name to value) for a struct; null for a null.
     */
    public List<Object> column(String field, LongPredicate keep) {
        List<Leaf> mine = leaves.stream().filter(l -> l.path.get(0).equals(field)).toList();
        if (mine.isEmpty()) throw new IllegalArgumentException(path + ": no column '" + field + "' (it has " + fields + ")");
        List<Object> out = new ArrayList<>((int) Math.min(rows, 1 << 20));
        long base = 0;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            for (RowGroup g : groups) {
                int n = Math.toIntExact(g.rows);
                if (mine.size() == 1 && (mine.get(0).path.size() == 1 || mine.get(0).maxRep > 0)) {
                    Leaf l = mine.get(0);
                    Object[] v = chunk(ch, l, g, n, keep, base, true);
                    for (Object o : v) out.add(o);
                } else {
                    List<Map<String, Object>> structs = new ArrayList<>(n);
                    boolean[] isNull = new boolean[n];
                    for (int i = 0; i < n; i++) structs.add(keep.test(base + i) ? new LinkedHashMap<>() : null);
                    for (Leaf l : mine) {
                        if (l.path.size() != 2 || l.maxRep > 0) throw unsupported(l, "a column nested deeper than a struct of primitives");
                        Object[] top = new Object[n];
                        Object[] v = chunk(ch, l, g, n, keep, base, false, top);
                        for (int i = 0; i < n; i++) {
                            if (structs.get(i) != null) structs.get(i).put(l.path.get(1), v[i]);
                            if (top[i] == Boolean.TRUE) isNull[i] = true;
                        }
                    }
                    for (int i = 0; i < n; i++) out.add(isNull[i] ? null : structs.get(i));
                }
                base += n;
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + path + ": " + e.getMessage(), e);
        }
        return out;
    }

    private Object[] chunk(FileChannel ch, Leaf l, RowGroup g, int n, LongPredicate keep, long base, boolean topLevel) throws IOException {
        return chunk(ch, l, g, n, keep, base, topLevel, null);
    }

    /** One column chunk's values per row; {@code topNull[i]} is set TRUE where the row's top-level field is null. */
    private Object[] chunk(FileChannel ch, Leaf l, RowGroup g, int n, LongPredicate keep, long base, boolean topLevel, Object[] topNull)
            throws IOException {
        Chunk c = g.chunks.get(l.dotted());
        if (c == null) throw bad("a row group without column " + l.dotted());
        if (l.maxRep > 1) throw unsupported(l, "a list of lists");
        if (l.type == INT96) throw unsupported(l, "INT96 timestamps");
        byte[] buf = read(ch, c.start, Math.toIntExact(c.length));
        ThriftCompact t = new ThriftCompact(buf, 0);
        Object[] out = new Object[n];
        Object[] dict = null;
        long seen = 0;
        int row = -1;
        List<Object> list = null;
        while (seen < c.values) {
            ThriftCompact.Struct h = t.struct();
            int type = (int) h.longOr(1, -1), csize = Math.toIntExact(h.longOr(3, 0)), usize = Math.toIntExact(h.longOr(2, 0));
            int at = t.position();
            if (at + csize > buf.length) throw bad("column " + l.dotted() + ": a page runs past its column chunk");
            t = new ThriftCompact(buf, at + csize);
            if (type == 2) {
                byte[] d = decompress(c.codec, buf, at, csize, usize, l);
                int count = Math.toIntExact(h.struct(7).longOr(1, 0));
                dict = new Object[count];
                Plain p = new Plain(d, 0, l);
                for (int i = 0; i < count; i++) dict[i] = p.next(true);
                continue;
            }
            if (type != 0 && type != 3) continue; // an index page: nothing of the values
            int count, encoding;
            int[] reps, defs;
            byte[] data;
            int p;
            if (type == 0) {
                ThriftCompact.Struct dh = h.struct(5);
                count = Math.toIntExact(dh.longOr(1, 0));
                encoding = (int) dh.longOr(2, 0);
                data = decompress(c.codec, buf, at, csize, usize, l);
                p = 0;
                reps = new int[count];
                defs = new int[count];
                if (l.maxRep > 0) p = levels(data, p, true, -1, l.maxRep, reps, count);
                if (l.maxDef > 0) p = levels(data, p, true, -1, l.maxDef, defs, count);
            } else {
                ThriftCompact.Struct dh = h.struct(8);
                count = Math.toIntExact(dh.longOr(1, 0));
                encoding = (int) dh.longOr(4, 0);
                int dl = Math.toIntExact(dh.longOr(5, 0)), rl = Math.toIntExact(dh.longOr(6, 0));
                boolean compressed = !dh.has(7) || Boolean.TRUE.equals(dh.fields().get(7));
                reps = new int[count];
                defs = new int[count];
                byte[] levelBytes = java.util.Arrays.copyOfRange(buf, at, at + rl + dl);
                if (l.maxRep > 0) levels(levelBytes, 0, false, rl, l.maxRep, reps, count);
                if (l.maxDef > 0) levels(levelBytes, rl, false, dl, l.maxDef, defs, count);
                data = compressed ? decompress(c.codec, buf, at + rl + dl, csize - rl - dl, usize - rl - dl, l)
                        : java.util.Arrays.copyOfRange(buf, at + rl + dl, at + csize);
                p = 0;
            }
            if (l.maxDef == 0) java.util.Arrays.fill(defs, 0);
            int present = 0;
            for (int i = 0; i < count; i++) if (defs[i] == l.maxDef) present++;
            Values values = values(encoding, data, p, present, dict, l);
            int k = 0;
            for (int i = 0; i < count; i++) {
                boolean newRow = l.maxRep == 0 || reps[i] == 0;
                if (newRow) {
                    row++;
                    if (row >= n) throw bad("column " + l.dotted() + " has more rows than its row group's " + n);
                }
                boolean wanted = keep.test(base + row);
                boolean has = defs[i] == l.maxDef;
                Object v = has ? values.get(k++, wanted) : null;
                if (topNull != null && defs[i] < l.defAt[0]) topNull[row] = Boolean.TRUE;
                if (l.maxRep == 0) {
                    if (wanted) out[row] = v;
                    continue;
                }
                if (newRow) {
                    list = defs[i] < l.defAt[0] ? null : new ArrayList<>();
                    if (wanted) out[row] = list;
                    if (list == null || defs[i] < l.defAt[l.repeatedAt]) continue;
                }
                if (list != null && wanted) list.add(v);
            }
            if (k != present) throw bad("column " + l.dotted() + ": " + k + " values read of " + present);
            seen += count;
        }
        if (row != n - 1) throw bad("column " + l.dotted() + " has " + (row + 1) + " rows, its row group " + n);
        return out;
    }

    private interface Values {
        Object get(int k, boolean make);
    }

    private Values values(int encoding, byte[] data, int p, int present, Object[] dict, Leaf l) {
        if (encoding == 0) {
            Plain plain = new Plain(data, p, l);
            return (k, make) -> plain.next(make);
        }
        if (encoding == 2 || encoding == 8) {
            if (dict == null) throw bad("column " + l.dotted() + ": dictionary-encoded values without a dictionary page");
            int width = present == 0 ? 0 : data[p] & 0xff;
            int[] idx = new int[present];
            if (present > 0) rle(data, p + 1, data.length, width, idx, present);
            Object[] d = dict;
            return (k, make) -> {
                if (idx[k] < 0 || idx[k] >= d.length) throw bad("column " + l.dotted() + ": dictionary index " + idx[k] + " of " + d.length);
                return d[idx[k]];
            };
        }
        throw unsupported(l, "encoding " + encoding + " (only PLAIN and dictionary encodings are read)");
    }

    /** PLAIN values one after another. */
    private final class Plain {
        private final byte[] d;
        private final Leaf l;
        private int p, bit;

        Plain(byte[] d, int p, Leaf l) {
            this.d = d;
            this.p = p;
            this.l = l;
        }

        Object next(boolean make) {
            switch (l.type) {
                case BYTE_ARRAY -> {
                    int len = le(4);
                    if (len < 0 || p + len > d.length) throw bad("column " + l.dotted() + ": a value runs past its page");
                    Object v = make ? (l.utf8 ? new String(d, p, len, StandardCharsets.UTF_8) : java.util.Arrays.copyOfRange(d, p, p + len)) : null;
                    p += len;
                    return v;
                }
                case FIXED -> {
                    byte[] v = java.util.Arrays.copyOfRange(d, p, p + l.typeLength);
                    p += l.typeLength;
                    return v;
                }
                case INT32 -> { return (long) le(4); }
                case INT64 -> { return leLong(); }
                case FLOAT -> { return (double) Float.intBitsToFloat(le(4)); }
                case DOUBLE -> { return Double.longBitsToDouble(leLong()); }
                case BOOLEAN -> {
                    boolean b = ((d[p] >>> bit) & 1) != 0;
                    if (++bit == 8) {
                        bit = 0;
                        p++;
                    }
                    return b;
                }
                default -> throw unsupported(l, "physical type " + l.type);
            }
        }

        private int le(int n) {
            if (p + n > d.length) throw bad("column " + l.dotted() + ": a value runs past its page");
            int v = 0;
            for (int i = 0; i < n; i++) v |= (d[p + i] & 0xff) << (8 * i);
            p += n;
            return v;
        }

        private long leLong() {
            long lo = le(4) & 0xffffffffL, hi = le(4) & 0xffffffffL;
            return lo | hi << 32;
        }
    }

    /** Reads {@code count} levels (RLE/bit-packed hybrid) at {@code p}; v1 pages prefix them with their length. Returns the end. */
    private int levels(byte[] d, int p, boolean prefixed, int length, int max, int[] out, int count) {
        int len = length;
        if (prefixed) {
            len = (d[p] & 0xff) | (d[p + 1] & 0xff) << 8 | (d[p + 2] & 0xff) << 16 | (d[p + 3] & 0xff) << 24;
            p += 4;
        }
        rle(d, p, p + len, 32 - Integer.numberOfLeadingZeros(max), out, count);
        return p + len;
    }

    private void rle(byte[] d, int p, int end, int width, int[] out, int count) {
        int o = 0;
        int bytes = (width + 7) / 8;
        while (o < count) {
            if (p >= end) throw bad("levels or indices end early (" + o + " of " + count + ")");
            long h = 0;
            for (int shift = 0; ; shift += 7) {
                int b = d[p++] & 0xff;
                h |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) break;
            }
            if ((h & 1) == 0) {
                int run = (int) (h >>> 1), v = 0;
                for (int i = 0; i < bytes; i++) v |= (d[p++] & 0xff) << (8 * i);
                for (int i = 0; i < run && o < count; i++) out[o++] = v;
            } else {
                int values = (int) (h >>> 1) * 8;
                long bitPos = (long) p * 8;
                for (int i = 0; i < values; i++) {
                    int v = 0;
                    for (int b = 0; b < width; b++, bitPos++) v |= ((d[(int) (bitPos >>> 3)] >>> (bitPos & 7)) & 1) << b;
                    if (o < count) out[o++] = v;
                }
                p += (int) (h >>> 1) * width;
            }
        }
    }

    private byte[] decompress(int codec, byte[] buf, int at, int csize, int usize, Leaf l) {
        return switch (codec) {
            case 0 -> java.util.Arrays.copyOfRange(buf, at, at + csize);
            case 1 -> Snappy.decompress(buf, at, csize);
            case 2 -> {
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(buf, at, csize))) {
                    yield in.readAllBytes();
                } catch (IOException e) {
                    throw bad("column " + l.dotted() + ": a GZIP page cannot be read: " + e.getMessage());
                }
            }
            default -> throw unsupported(l, "compression codec " + codecName(codec) + " (UNCOMPRESSED, SNAPPY and GZIP are read; "
                    + "Hugging Face's own Parquet files are SNAPPY)");
        };
    }

    private static String codecName(int c) {
        String[] names = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
        return c >= 0 && c < names.length ? names[c] : Integer.toString(c);
    }

    private IllegalArgumentException bad(String what) { return new IllegalArgumentException(path + ": " + what); }

    private IllegalArgumentException unsupported(Leaf l, String what) {
        return new IllegalArgumentException(path + ": column " + l.dotted() + " uses " + what + ", which gam's Parquet reader does not read");
    }
}
