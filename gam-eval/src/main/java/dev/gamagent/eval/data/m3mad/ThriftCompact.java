package dev.gamagent.eval.data.m3mad;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of Apache Thrift's compact protocol, enough for Parquet's footer and page headers: a struct is read
 * whole into a {@link Struct} (field id to value: Long for the integer types, Boolean, Double, byte[] for binary,
 * List for a list or set, Struct for a struct); a map is read and dropped (Parquet's key-value metadata is a list).
 */
final class ThriftCompact {
    private final byte[] buf;
    private int pos;

    ThriftCompact(byte[] buf, int pos) {
        this.buf = buf;
        this.pos = pos;
    }

    int position() { return pos; }

    /** A Thrift struct: its fields by id. */
    record Struct(Map<Integer, Object> fields) {
        Long integer(int id) { return (Long) fields.get(id); }

        long longOr(int id, long otherwise) {
            Object v = fields.get(id);
            return v == null ? otherwise : (Long) v;
        }

        String string(int id) {
            Object v = fields.get(id);
            return v == null ? null : new String((byte[]) v, StandardCharsets.UTF_8);
        }

        Struct struct(int id) { return (Struct) fields.get(id); }

        @SuppressWarnings("unchecked")
        <T> List<T> list(int id) {
            Object v = fields.get(id);
            return v == null ? List.of() : (List<T>) v;
        }

        boolean has(int id) { return fields.containsKey(id); }
    }

    Struct struct() {
        Map<Integer, Object> out = new HashMap<>();
        int last = 0;
        while (true) {
            int b = u8();
            if (b == 0) return new Struct(out);
            int type = b & 0x0f, delta = b >>> 4;
            int id = delta == 0 ? (int) zigzag(varint()) : last + delta;
            last = id;
            Object v = type == 1 ? Boolean.TRUE : type == 2 ? Boolean.FALSE : value(type);
            out.put(id, v);
        }
    }

    private Object value(int type) {
        switch (type) {
            case 1, 2 -> { return u8() == 1; } // a boolean inside a list: one byte
            case 3 -> { return (long) (byte) u8(); }
            case 4, 5, 6 -> { return zigzag(varint()); }
            case 7 -> {
                long bits = 0;
                for (int i = 0; i < 8; i++) bits |= (long) u8() << (8 * i);
                return Double.longBitsToDouble(bits);
            }
            case 8 -> {
                int n = (int) varint();
                need(n);
                byte[] b = java.util.Arrays.copyOfRange(buf, pos, pos + n);
                pos += n;
                return b;
            }
            case 9, 10 -> {
                int h = u8();
                int size = h >>> 4, et = h & 0x0f;
                if (size == 15) size = (int) varint();
                List<Object> l = new ArrayList<>(Math.min(size, 1 << 16));
                for (int i = 0; i < size; i++) l.add(value(et));
                return l;
            }
            case 11 -> {
                int size = (int) varint();
                if (size > 0) {
                    int kv = u8();
                    for (int i = 0; i < size; i++) {
                        value(kv >>> 4);
                        value(kv & 0x0f);
                    }
                }
                return null;
            }
            case 12 -> { return struct(); }
            default -> throw new IllegalArgumentException("Thrift compact type " + type + " at byte " + pos + " is not one Parquet metadata uses");
        }
    }

    private int u8() {
        need(1);
        return buf[pos++] & 0xff;
    }

    private void need(int n) {
        if (n < 0 || pos + n > buf.length) throw new IllegalArgumentException("Thrift metadata ends early at byte " + pos);
    }

    long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw new IllegalArgumentException("a Thrift varint longer than 64 bits at byte " + pos);
    }

    private static long zigzag(long n) { return (n >>> 1) ^ -(n & 1); }
}
