package dev.gamagent.eval.data.m3mad;

/** Snappy's raw block format (what Parquet's SNAPPY codec holds): literals and back-references, decoded. */
final class Snappy {
    private Snappy() { }

    static byte[] decompress(byte[] in, int off, int len) {
        int pos = off, end = off + len;
        long n = 0;
        for (int shift = 0; ; shift += 7) {
            if (pos >= end || shift > 28) throw new IllegalArgumentException("snappy: a bad length header");
            int b = in[pos++] & 0xff;
            n |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) break;
        }
        if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("snappy: a block of " + n + " bytes is too large");
        byte[] out = new byte[(int) n];
        int o = 0;
        while (pos < end) {
            int tag = in[pos++] & 0xff;
            int kind = tag & 3;
            if (kind == 0) {
                int l = tag >>> 2;
                if (l >= 60) {
                    int bytes = l - 59;
                    l = 0;
                    for (int i = 0; i < bytes; i++) l |= (in[pos++] & 0xff) << (8 * i);
                }
                l += 1;
                if (pos + l > end || o + l > out.length) throw new IllegalArgumentException("snappy: a literal runs past the block");
                System.arraycopy(in, pos, out, o, l);
                pos += l;
                o += l;
                continue;
            }
            int l, offset;
            if (kind == 1) {
                l = ((tag >>> 2) & 7) + 4;
                offset = ((tag >>> 5) << 8) | (in[pos++] & 0xff);
            } else if (kind == 2) {
                l = (tag >>> 2) + 1;
                offset = (in[pos] & 0xff) | (in[pos + 1] & 0xff) << 8;
                pos += 2;
            } else {
                l = (tag >>> 2) + 1;
                offset = (in[pos] & 0xff) | (in[pos + 1] & 0xff) << 8 | (in[pos + 2] & 0xff) << 16 | (in[pos + 3] & 0xff) << 24;
                pos += 4;
            }
            if (offset <= 0 || offset > o || o + l > out.length) throw new IllegalArgumentException("snappy: a back-reference outside the block");
            for (int i = 0; i < l; i++, o++) out[o] = out[o - offset]; // may overlap: byte by byte
        }
        if (o != out.length) throw new IllegalArgumentException("snappy: " + o + " bytes decoded of the " + out.length + " announced");
        return out;
    }
}
