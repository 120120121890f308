package dev.gamagent.testing;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A real, valid, large PNG written row by row without holding its pixels: 16 bits per sample, RGB, the left half red
 * and the right half blue. A 10000×10000 one is 600 MB of pixels (what a decoder allocates) in a few MB of file.
 */
public final class BigPng {
    private BigPng() { }

    public static Path write(Path file, int w, int h) throws IOException {
        byte[] row = new byte[1 + w * 6]; // filter byte 0, then R G B as 16-bit big-endian samples
        for (int x = 0; x < w; x++) {
            int at = 1 + x * 6;
            if (x < w / 2) { row[at] = (byte) 0xFF; row[at + 1] = (byte) 0xFF; } else { row[at + 4] = (byte) 0xFF; row[at + 5] = (byte) 0xFF; }
        }
        try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20); DataOutputStream o = new DataOutputStream(raw)) {
            o.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
            ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(ihdr);
            d.writeInt(w);
            d.writeInt(h);
            d.write(new byte[]{16, 2, 0, 0, 0});
            chunk(o, "IHDR", ihdr.toByteArray(), ihdr.size());
            Deflater z = new Deflater(Deflater.BEST_SPEED);
            byte[] buf = new byte[1 << 20];
            ByteArrayOutputStream idat = new ByteArrayOutputStream();
            for (int y = 0; y < h; y++) {
                z.setInput(row);
                while (!z.needsInput()) idat.write(buf, 0, z.deflate(buf));
                if (idat.size() >= (1 << 20)) {
                    chunk(o, "IDAT", idat.toByteArray(), idat.size());
                    idat.reset();
                }
            }
            z.finish();
            while (!z.finished()) idat.write(buf, 0, z.deflate(buf));
            z.end();
            chunk(o, "IDAT", idat.toByteArray(), idat.size());
            chunk(o, "IEND", new byte[0], 0);
        }
        return file;
    }

    private static void chunk(DataOutputStream o, String type, byte[] data, int n) throws IOException {
        o.writeInt(n);
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        o.write(t);
        o.write(data, 0, n);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data, 0, n);
        o.writeInt((int) crc.getValue());
    }
}
