package dev.gamagent.image;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The image formats we decode, recognised by their magic bytes rather than the file name (datasets and
 * data URLs often carry wrong or no extensions).
 */
enum ImageFormat {
    PNG("png", "image/png"), JPEG("jpeg", "image/jpeg"), GIF("gif", "image/gif"), BMP("bmp", "image/bmp"),
    WEBP("webp", "image/webp");

    /** For error messages: what the user may pass instead. */
    public static final String SUPPORTED = "PNG, JPEG, GIF, BMP, WebP";

    private final String imageIoName;
    private final String mimeType;

    ImageFormat(String imageIoName, String mimeType) {
        this.imageIoName = imageIoName;
        this.mimeType = mimeType;
    }

    public String imageIoName() { return imageIoName; }

    public String mimeType() { return mimeType; }

    /** File-name extensions that hold images of a supported format (lower case, no dot). */
    public static final List<String> EXTENSIONS = List.of("png", "jpg", "jpeg", "gif", "bmp", "webp");

    public static boolean hasImageExtension(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot >= 0 && EXTENSIONS.contains(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** The format of {@code head} (the first bytes of a file), if it is one we decode. */
    public static Optional<ImageFormat> sniff(byte[] head) {
        if (startsWith(head, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) return Optional.of(PNG);
        if (startsWith(head, 0, 0xFF, 0xD8, 0xFF)) return Optional.of(JPEG);
        if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) return Optional.of(GIF);
        if (ascii(head, 0, "BM") && head.length >= 14) return Optional.of(BMP);
        if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return Optional.of(WEBP);
        return Optional.empty();
    }

    /** A name for formats we recognise but do not decode, so the error can say what the file is. */
    public static Optional<String> describeUnsupported(byte[] head) {
        if (startsWith(head, 0, 'I', 'I', 0x2A, 0x00) || startsWith(head, 0, 'M', 'M', 0x00, 0x2A)) return Optional.of("a TIFF image");
        if (ascii(head, 4, "ftypheic") || ascii(head, 4, "ftypheix") || ascii(head, 4, "ftypmif1")) return Optional.of("a HEIC/HEIF image");
        if (ascii(head, 4, "ftypavif")) return Optional.of("an AVIF image");
        if (ascii(head, 0, "%PDF")) return Optional.of("a PDF document");
        if (startsWith(head, 0, 0x00, 0x00, 0x01, 0x00)) return Optional.of("an ICO icon");
        if (ascii(head, 4, "ftyp")) return Optional.of("an MP4/MOV video (use --video)");
        String text = new String(head, 0, Math.min(head.length, 256), StandardCharsets.ISO_8859_1).strip().toLowerCase(Locale.ROOT);
        if (text.startsWith("<svg") || (text.startsWith("<?xml") && text.contains("<svg"))) return Optional.of("an SVG drawing");
        if (text.startsWith("<!doctype html") || text.startsWith("<html")) return Optional.of("an HTML page");
        return Optional.empty();
    }

    private static boolean startsWith(byte[] b, int at, int... expected) {
        if (b.length < at + expected.length) return false;
        for (int i = 0; i < expected.length; i++) if ((b[at + i] & 0xFF) != expected[i]) return false;
        return true;
    }

    private static boolean ascii(byte[] b, int at, String s) {
        byte[] e = s.getBytes(StandardCharsets.US_ASCII);
        return b.length >= at + e.length && Arrays.equals(b, at, at + e.length, e, 0, e.length);
    }
}
