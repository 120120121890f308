package dev.gamagent.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Hand-made PNG files for limit tests: what the header claims is independent of the bytes carried, so a
 * "16000×16000" image is a few dozen bytes and nothing needs to be encoded.
 */
public final class Pngs {
    private Pngs() { }

    /** A w×h 8-bit RGB PNG: signature, IHDR, one IDAT chunk holding {@code idat}, IEND. Complete on the outside. */
    public static byte[] withPixelData(int w, int h, byte[] idat) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
            DataOutputStream o = new DataOutputStream(out);
            ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(ihdr);
            d.writeInt(w);
            d.writeInt(h);
            d.write(new byte[]{8, 2, 0, 0, 0});
            chunk(o, "IHDR", ihdr.toByteArray());
            chunk(o, "IDAT", idat);
            chunk(o, "IEND", new byte[0]);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A complete-looking w×h PNG whose pixel data is a few bytes: only decoding it would find out (and need w·h·3 bytes). */
    public static byte[] claiming(int w, int h) {
        return withPixelData(w, h, new byte[]{0x78, (byte) 0x9c, 0x03, 0x00});
    }

    private static void chunk(DataOutputStream o, String type, byte[] data) throws IOException {
        o.writeInt(data.length);
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        o.write(t);
        o.write(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        o.writeInt((int) crc.getValue());
    }
}
