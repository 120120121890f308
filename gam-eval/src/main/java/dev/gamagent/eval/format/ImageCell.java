package dev.gamagent.eval.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the index pass keeps of a row's {@code image} cell while the cell streams past: its length, its first
 * {@link #PREFIX} bytes (enough for any image's header, JPEG's EXIF included, and the whole of a small image or
 * of a short value naming another row) and nothing else. The image itself is read again when its question starts.
 */
public final class ImageCell {
    /** Base64 text kept from the start of the cell: 128 KiB of base64 hold 96 KiB of image, past JPEG's 64 KiB EXIF block. */
    public static final int PREFIX = 128 * 1024;

    private byte[] prefix = new byte[256];
    private int kept;
    private long length;

    void append(byte[] b, int from, int to) {
        int n = to - from;
        length += n;
        if (kept >= PREFIX) return;
        int take = Math.min(n, PREFIX - kept);
        if (kept + take > prefix.length) prefix = Arrays.copyOf(prefix, Math.min(PREFIX, Math.max(kept + take, prefix.length * 2)));
        System.arraycopy(b, from, prefix, kept, take);
        kept += take;
    }

    void append(byte b) {
        length++;
        if (kept >= PREFIX) return;
        if (kept == prefix.length) prefix = Arrays.copyOf(prefix, Math.min(PREFIX, prefix.length * 2));
        prefix[kept++] = b;
    }
public 
    static ImageCell of(String text) {
        ImageCell c = new ImageCell();
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        c.append(b, 0, b.length);
        return c;
    }

    long length() { return length; }

    /** The whole cell is in the kept prefix. */
    public boolean complete() { return length == kept; }

    /** The kept bytes as text: the whole cell when {@link #complete()}, else its start. */
    public String text() { return new String(prefix, 0, kept, StandardCharsets.UTF_8); }

    /** The kept bytes (the whole cell when {@link #complete()}); not a copy: callers must not change them. */
    public byte[] bytes() { return prefix; }

    /** How many bytes {@link #bytes()} holds. */
    public int kept() { return kept; }

    /** The cell's length without the white space at its ends, when {@link #complete()}. */
    public int strippedLength() {
        int from = 0, to = kept;
        while (from < to && Character.isWhitespace(prefix[from])) from++;
        while (to > from && Character.isWhitespace(prefix[to - 1])) to--;
        return to - from;
    }

    /** The first character that is not white space, or -1 for a blank cell. */
    public int firstNonSpace() {
        for (int i = 0; i < kept; i++) if (!Character.isWhitespace(prefix[i])) return prefix[i] & 0xFF;
        return -1;
    }
}
