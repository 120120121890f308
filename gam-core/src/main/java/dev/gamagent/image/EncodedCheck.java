package dev.gamagent.image;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Checks that PNG or JPEG bytes are a whole file without decoding their pixels, so an image kept as bytes
 * is refused at load for the same damage a decoder would find: a file cut short, a chunk whose CRC is
 * wrong, compressed pixel data that does not inflate. Errors name the source and what is wrong.
 */
final class EncodedCheck {
    private EncodedCheck() { }

    /** Walks the chunks, checks each CRC, inflates the image data (without unfiltering it) and requires IEND. */
    static void png(String name, byte[] b) {
        int at = 8;
        Inflater inflater = new Inflater();
        byte[] sink = new byte[64 * 1024];
        boolean ended = false, sawData = false;
        try {
            while (at + 12 <= b.length) {
                long length = readInt(b, at) & 0xffffffffL;
                if (length > b.length - at - 12) throw truncated(name, "PNG", "a chunk runs past the end of the file");
                String type = new String(b, at + 4, 4, StandardCharsets.ISO_8859_1);
                CRC32 crc = new CRC32();
                crc.update(b, at + 4, 4 + (int) length);
                if ((crc.getValue() & 0xffffffffL) != (readInt(b, at + 8 + (int) length) & 0xffffffffL)) {
                    throw corrupt(name, "PNG", "chunk " + type + " fails its CRC check");
                }
                if (type.equals("IDAT")) {
                    sawData = true;
                    inflater.setInput(b, at + 8, (int) length);
                    while (!inflater.needsInput() && !inflater.finished()) {
                        if (inflater.inflate(sink) == 0 && inflater.needsDictionary()) throw corrupt(name, "PNG", "its pixel data needs a preset dictionary");
                    }
                } else if (type.equals("IEND")) {
                    ended = true;
                    break;
                }
                at += 12 + (int) length;
            }
            if (ended && sawData && !inflater.finished()) throw corrupt(name, "PNG", "its compressed pixel data ends early");
        } catch (DataFormatException e) {
            throw corrupt(name, "PNG", "its compressed pixel data is damaged: " + e.getMessage());
        } finally {
            inflater.end();
        }
        if (!ended) throw truncated(name, "PNG", "the file ends before its IEND chunk");
        if (!sawData) throw corrupt(name, "PNG", "it has no image data (IDAT)");
    }

    /** Walks the segments and the entropy-coded scans up to the end-of-image marker. */
    static void jpeg(String name, byte[] b) {
        int at = 2; // after SOI
        while (true) {
            while (at < b.length && (b[at] & 0xff) != 0xFF) at++; // entropy-coded data between markers
            while (at < b.length && (b[at] & 0xff) == 0xFF) at++; // fill bytes
            if (at >= b.length) throw truncated(name, "JPEG", "the file ends before its end-of-image marker");
            int marker = b[at] & 0xff;
            at++;
            if (marker == 0x00 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) continue; // stuffed byte, restart marker
            if (marker == 0xD9) return; // end of image
            if (at + 2 > b.length) throw truncated(name, "JPEG", "a segment header is cut off");
            int length = ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
            if (length < 2) throw corrupt(name, "JPEG", "a segment has length " + length);
            if (at + length > b.length) throw truncated(name, "JPEG", "a segment runs past the end of the file");
            at += length;
        }
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    private static ImageException truncated(String name, String format, String why) {
        return new ImageException(name + ": truncated " + format + " (" + why + "); re-export or re-download the file");
    }

    private static ImageException corrupt(String name, String format, String why) {
        return new ImageException(name + ": truncated or corrupt " + format + " (" + why + "); re-export or re-download the file");
    }
}
