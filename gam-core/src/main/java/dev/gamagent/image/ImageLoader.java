package dev.gamagent.image;

import com.twelvemonkeys.imageio.plugins.webp.WebPImageReaderSpi;

import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.FileImageInputStream;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Loads PNG, JPEG, GIF, BMP and WebP images from files, bytes, base64 and data URLs, with errors that
 * name the source and say what is wrong: missing, empty, truncated or corrupt, unsupported format, or
 * too large. Dimensions are read from the header before decoding, so a hostile "50000×50000" header
 * is refused without allocating its pixels. With a {@link DecodeBudget} a decode first takes its pixels
 * from the budget; with a keep limit the decoded image is downscaled to it before the pixels are returned,
 * so only the small copy stays in memory.
 */
public final class ImageLoader {
    /**
     * {@code image.max_megapixels} of defaults.json (100 megapixels: larger than any camera photo, small enough to
     * decode on a laptop).
     */
    public static final long DEFAULT_MAX_PIXELS = Math.round(dev.gamagent.config.Config.defaults().number("image.max_megapixels") * 1e6);

    private static final int HEAD = 512;
    private static final int TAIL = 64;

    private final long maxPixels;
    private final String limitSetting;
    private final DecodeBudget budget;
    private final long keepPixels;

    /** @param maxPixels the largest width×height decoded; 0 or less means no limit */
    public ImageLoader(long maxPixels) { this(maxPixels, "image.max_megapixels"); }

    /** @param limitSetting the config key that sets this limit, named in "too large" errors */
    public ImageLoader(long maxPixels, String limitSetting) { this(maxPixels, limitSetting, null, 0); }

    private ImageLoader(long maxPixels, String limitSetting, DecodeBudget budget, long keepPixels) {
        this.maxPixels = maxPixels;
        this.limitSetting = limitSetting;
        this.budget = budget;
        this.keepPixels = keepPixels;
    }

    /** This loader, taking the pixels of every decode from {@code budget} (shared with other loaders). */
    public ImageLoader withBudget(DecodeBudget budget) { return new ImageLoader(maxPixels, limitSetting, budget, keepPixels); }

    /** This loader, downscaling every decoded image to at most {@code pixels} (0 = keep as decoded) before returning it. */
    public ImageLoader keepingAtMost(long pixels) { return new ImageLoader(maxPixels, limitSetting, budget, Math.max(0, pixels)); }

    public long keepPixels() { return keepPixels; }

    /** A loader whose limit is {@code megapixels} million pixels (the {@code image.max_megapixels} setting). */
    public static ImageLoader withMaxMegapixels(double megapixels) {
        return new ImageLoader(megapixels <= 0 ? 0 : Math.round(megapixels * 1_000_000));
    }

    public long maxPixels() { return maxPixels; }

    /** What the header says, read without decoding pixels. */
    public record Header(ImageFormat format, int width, int height) {
        public long pixels() { return (long) width * height; }
    }

    // ---- static entry points with the default limit -------------------------------------------------

    /** The file extensions of the formats this loader reads (png, jpg, jpeg, gif, bmp, webp), lower case. */
    public static List<String> extensions() { return ImageFormat.EXTENSIONS; }
    /** Whether {@code fileName} ends in one of the {@link #extensions()} (any case). */
    public static boolean hasImageExtension(String fileName) { return ImageFormat.hasImageExtension(fileName); }

    public static Picture load(Path file) { return new ImageLoader(DEFAULT_MAX_PIXELS).file(file); }

    public static Picture fromBytes(String sourceName, byte[] bytes) { return new ImageLoader(DEFAULT_MAX_PIXELS).bytes(sourceName, bytes); }

    /** As {@link #encoded(String, byte[])} with the default limit. */
    public static Picture fromEncoded(String sourceName, byte[] bytes) { return new ImageLoader(DEFAULT_MAX_PIXELS).encoded(sourceName, bytes); }

    /** As {@link #encodedBase64(String, String)} with the default limit. */
    public static Picture fromEncodedBase64(String sourceName, String base64) { return new ImageLoader(DEFAULT_MAX_PIXELS).encodedBase64(sourceName, base64); }

    /** As {@link #encodedFile(Path)} with the default limit. */
    public static Picture loadEncoded(Path file) { return new ImageLoader(DEFAULT_MAX_PIXELS).encodedFile(file); }

    public static Picture fromBase64(String sourceName, String base64) { return new ImageLoader(DEFAULT_MAX_PIXELS).base64(sourceName, base64); }

    public static Picture fromDataUrl(String sourceName, String dataUrl) { return new ImageLoader(DEFAULT_MAX_PIXELS).dataUrl(sourceName, dataUrl); }

    // ---- instance methods honouring this loader's limit -----------------------------------------------

    public Picture file(Path file) {
        if (file == null) throw new ImageException("no image file given");
        if (!Files.exists(file)) throw new ImageException(file + ": no such file; check the path");
        if (Files.isDirectory(file)) throw new ImageException(file + ": is a directory, not an image file");
        if (!Files.isReadable(file)) throw new ImageException(file + ": not readable; check its permissions");
        Picture p = decode(file.toString(), fileInput(file));
        return new Picture(file.getFileName().toString(), p.image());
    }

    /** Checks a file as {@link #inspect(String, byte[])} does, reading only its first and last bytes and its header. */
    public Header inspect(Path file) {
        if (file == null) throw new ImageException("no image file given");
        if (!Files.isRegularFile(file)) throw new ImageException(file + ": no such image file; check the path");
        return inspect(file.toString(), fileInput(file));
    }

    /**
     * Checks without decoding pixels: a supported format, a readable header, dimensions within this
     * loader's limit, and (PNG, GIF) the end marker, so a truncated file is refused before any work is done.
     */
    public Header inspect(String sourceName, byte[] bytes) { return inspect(nameOf(sourceName), Input.of(bytes)); }

    private Header inspect(String name, Input input) {
        Header h = headerOf(name, input);
        checkSize(name, h.format(), h.width(), h.height());
        if (h.format() == ImageFormat.PNG && !endsWithPngTrailer(input.tail())) {
            throw new ImageException(name + ": truncated PNG (the file ends before its IEND chunk); re-export or re-download it");
        }
        if (h.format() == ImageFormat.GIF && !endsWithGifTrailer(input.tail())) {
            throw new ImageException(name + ": truncated GIF (the file ends before its trailer byte); re-export or re-download it");
        }
        return h;
    }

    /** Streams from the file rather than reading it whole: a huge file is refused from its header alone. */
    private static Input fileInput(Path file) {
        try (SeekableByteChannel ch = Files.newByteChannel(file)) {
            long size = ch.size();
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, HEAD));
            while (head.hasRemaining() && ch.read(head) > 0) { /* fill */ }
            ByteBuffer tail = ByteBuffer.allocate((int) Math.min(size, TAIL));
            ch.position(size - tail.capacity());
            while (tail.hasRemaining() && ch.read(tail) > 0) { /* fill */ }
            return new Input(head.array(), tail.array(), size, () -> new FileImageInputStream(file.toFile()));
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /**
     * A file kept as its bytes when it is PNG or JPEG (see {@link #encoded(String, byte[])}); it is checked from
     * its header and end before it is read whole.
     */
    public Picture encodedFile(Path file) {
        Header h = inspect(file);
        boolean asIs = (h.format() == ImageFormat.PNG || h.format() == ImageFormat.JPEG) && (keepPixels <= 0 || h.pixels() <= keepPixels);
        if (!asIs) return file(file);
        try {
            return encoded(file.getFileName().toString(), Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    public Picture bytes(String sourceName, byte[] bytes) {
        return decode(nameOf(sourceName), Input.of(bytes));
    }

    /**
     * The image kept as its bytes and decoded only when its pixels are needed (see {@link Picture#encoded}),
     * for PNG and JPEG, which every model server accepts as they are. The bytes are checked now without
     * decoding pixels: format, header size against the limit, and that the file is whole (PNG: every chunk's
     * CRC, compressed data that inflates, the end chunk; JPEG: its segments up to the end marker). Other
     * formats, and images larger than this loader keeps, are decoded now (and downscaled to what it keeps).
     */
    public Picture encoded(String sourceName, byte[] bytes) { return encoded(sourceName, bytes, null); }

    /**
     * As {@link #encoded(String, byte[])} from base64 text, which is reused as the image's base64 when it is
     * canonical (no line breaks, padded), as benchmark files store it.
     */
    public Picture encodedBase64(String sourceName, String base64) {
        String name = nameOf(sourceName);
        if (base64 != null && !base64.isEmpty() && base64.length() % 4 == 0) {
            byte[] bytes = null;
            try {
                bytes = Base64.getDecoder().decode(base64); // refuses line breaks and the URL-safe alphabet: then it is not canonical
            } catch (IllegalArgumentException notPlain) {
                // decoded leniently below
            }
            if (bytes != null) return encoded(name, bytes, base64);
        }
        return encoded(name, decodeBase64(name, base64), null);
    }

    private Picture encoded(String sourceName, byte[] bytes, String base64) {
        String name = nameOf(sourceName);
        Input input = Input.of(bytes);
        ImageFormat format = formatOf(name, input);
        if (format != ImageFormat.PNG && format != ImageFormat.JPEG) return decode(name, input);
        Header h = header(name, bytes);
        checkSize(name, format, h.width(), h.height());
        if (keepPixels > 0 && h.pixels() > keepPixels) return decode(name, input); // larger than the backend uses: keep a downscaled copy
        if (format == ImageFormat.PNG) EncodedCheck.png(name, bytes);
        else EncodedCheck.jpeg(name, bytes);
        // the decoder is handed the bytes when pixels are needed, so the picture does not keep a second copy of them
        return Picture.encoded(name, bytes, base64, format.mimeType(), h.width(), h.height(), b -> decode(name, Input.of(b)).image());
    }

    /** Decodes base64 text (whitespace and line breaks are ignored; URL-safe alphabet accepted). */
    public Picture base64(String sourceName, String base64) {
        return bytes(sourceName, decodeBase64(nameOf(sourceName), base64));
    }

    /** Decodes {@code data:image/png;base64,...} (any supported image type). */
    public Picture dataUrl(String sourceName, String dataUrl) {
        return bytes(sourceName, dataUrlBytes(nameOf(sourceName), dataUrl));
    }

    /** The bytes a data URL carries, with errors naming the source. */
    public static byte[] dataUrlBytes(String sourceName, String dataUrl) {
        String name = nameOf(sourceName);
        if (dataUrl == null || dataUrl.isBlank()) throw new ImageException(name + ": empty data URL");
        String s = dataUrl.strip();
        if (!s.regionMatches(true, 0, "data:", 0, 5)) {
            throw new ImageException(name + ": not a data URL (expected data:image/png;base64,...), got '" + abbreviate(s) + "'");
        }
        int comma = s.indexOf(',');
        if (comma < 0) throw new ImageException(name + ": data URL has no ',' before its data");
        String meta = s.substring(5, comma).toLowerCase(Locale.ROOT);
        if (!meta.isEmpty() && !meta.startsWith("image/") && !meta.startsWith("application/octet-stream") && !meta.startsWith(";")) {
            throw new ImageException(name + ": data URL has media type '" + meta.split(";")[0] + "', expected image/*");
        }
        if (!meta.endsWith(";base64")) {
            throw new ImageException(name + ": data URL is not base64-encoded (expected ';base64,' after the media type)");
        }
        return decodeBase64(name, s.substring(comma + 1));
    }

    /** Reads format and dimensions from the header only. */
    public Header header(String sourceName, byte[] bytes) { return headerOf(nameOf(sourceName), Input.of(bytes)); }

    private static Header headerOf(String name, Input input) {
        ImageFormat format = formatOf(name, input);
        ImageReader reader = readerFor(name, format);
        try (ImageInputStream in = input.open()) {
            reader.setInput(in, true, true);
            return new Header(format, reader.getWidth(0), reader.getHeight(0));
        } catch (IOException | RuntimeException e) {
            throw corrupt(name, format, e);
        } finally {
            reader.dispose();
        }
    }

    /** The first and last bytes (for format sniffing and the GIF trailer), the size, and a way to stream the rest. */
    private record Input(byte[] head, byte[] tail, long size, Opener opener) {
        static Input of(byte[] b) {
            byte[] bytes = b == null ? new byte[0] : b;
            return new Input(Arrays.copyOf(bytes, Math.min(bytes.length, HEAD)),
                    Arrays.copyOfRange(bytes, Math.max(0, bytes.length - TAIL), bytes.length), bytes.length,
                    () -> new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes)));
        }

        ImageInputStream open() throws IOException { return opener.open(); }
    }

    @FunctionalInterface
    private interface Opener {
        ImageInputStream open() throws IOException;
    }

    private Picture decode(String name, Input input) {
        ImageFormat format = formatOf(name, input);
        ImageReader reader = readerFor(name, format);
        List<String> warnings = new ArrayList<>();
        reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
        try (ImageInputStream in = input.open()) {
            reader.setInput(in, false, true);
            int w, h;
            try {
                w = reader.getWidth(0);
                h = reader.getHeight(0);
            } catch (IOException | RuntimeException e) {
                throw corrupt(name, format, e);
            }
            checkSize(name, format, w, h);
            // an image larger than what is kept is read subsampled (every n-th pixel of every n-th row, still at least the
            // kept size): its full-size pixels are never allocated, then it is downscaled smoothly to the kept size
            int step = subsampling(w, h);
            long decoded = (long) ((w + step - 1) / step) * ((h + step - 1) / step);
            try (DecodeBudget.Lease lease = budget == null ? () -> { } : budget.acquire(decoded, name)) {
                BufferedImage img;
                try {
                    ImageReadParam param = reader.getDefaultReadParam();
                    if (step > 1) param.setSourceSubsampling(step, step, 0, 0);
                    img = reader.read(0, param);
                } catch (IOException | RuntimeException e) {
                    if (causedByMemory(e)) throw outOfMemory(name, format, w, h, step, e);
                    throw corrupt(name, format, e);
                }
                for (String warning : warnings) {
                    if (isDamage(warning)) throw new ImageException(name + ": truncated or corrupt " + label(format) + " (" + warning
                            + "); re-export or re-download the file");
                }
                if (img == null) throw new ImageException(name + ": the " + label(format) + " decoder returned no image; the file is corrupt");
                if (format == ImageFormat.GIF && !endsWithGifTrailer(input.tail())) {
                    // The JDK's GIF decoder fills missing rows with the background colour instead of failing.
                    throw new ImageException(name + ": truncated GIF (the file ends before its trailer byte); re-export or re-download it");
                }
                Picture p = new Picture(name, img);
                // downscale while the pixels are still counted, so only the kept copy outlives the lease
                return keepPixels > 0 && p.pixels() > keepPixels ? new Picture(name, p.scaled(1.0, keepPixels).image()) : p;
            }
        } catch (IOException e) {
            throw corrupt(name, format, e);
        } catch (OutOfMemoryError e) {
            int w = -1, h = -1;
            try {
                w = reader.getWidth(0);
                h = reader.getHeight(0);
            } catch (IOException | RuntimeException ignored) {
                // the size is only for the message
            }
            throw outOfMemory(name, format, w, h, w < 0 ? 1 : subsampling(w, h), e);
        } finally {
            reader.dispose();
        }
    }

    /** Every how many pixels and rows an image of w×h is read: 1, or the largest step that still gives at least the kept size. */
    private int subsampling(int w, int h) {
        long px = (long) w * h;
        if (keepPixels <= 0 || px <= keepPixels) return 1;
        return Math.max(1, (int) Math.floor(Math.sqrt((double) px / keepPixels)));
    }

    private static boolean causedByMemory(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof OutOfMemoryError) return true;
        return false;
    }

    /** The file is fine; the heap is too small for it (the decoder wraps OutOfMemoryError in its own exception). */
    private ImageException outOfMemory(String name, ImageFormat format, int w, int h, int step, Throwable e) {
        String size = w > 0 ? String.format(Locale.ROOT, " (%dx%d, %.1f megapixels%s)", w, h, (long) w * h / 1e6,
                step > 1 ? ", read at 1/" + step + " of its width and height" : "") : "";
        return new ImageException(String.format(Locale.ROOT, "%s: not enough memory to decode this %s%s in a heap of %d MB; the file is not "
                        + "at fault: give Java a larger heap (e.g. GAM_JAVA_OPTS=-Xmx4g for the gam launcher), downscale the image, or lower the limit (config %s)",
                name, label(format), size, Runtime.getRuntime().maxMemory() / (1024 * 1024), limitSetting), e);
    }

    private void checkSize(String name, ImageFormat format, int w, int h) {
        if (w <= 0 || h <= 0) throw new ImageException(name + ": " + label(format) + " header says " + w + "x" + h + " pixels; the file is corrupt");
        long px = (long) w * h;
        if (maxPixels > 0 && px > maxPixels) {
            throw new ImageTooLargeException(String.format(Locale.ROOT,
                    "%s: %dx%d pixels (%.1f megapixels) is larger than the limit of %.1f megapixels; downscale the image "
                            + "or raise the limit (config %s)", name, w, h, px / 1e6, maxPixels / 1e6, limitSetting), w, h, maxPixels);
        }
    }

    private static ImageFormat formatOf(String name, Input input) {
        if (input.size() == 0) throw new ImageException(name + ": empty (0 bytes); the file was not written completely");
        byte[] head = input.head();
        return ImageFormat.sniff(head).orElseThrow(() -> new ImageException(name + ": "
                + ImageFormat.describeUnsupported(head).map(what -> "is " + what + ", which is not supported")
                        .orElse("not an image in a supported format")
                + "; supported formats: " + ImageFormat.SUPPORTED));
    }

    private static ImageReader readerFor(String name, ImageFormat format) {
        // WebP comes from the TwelveMonkeys plugin: use its SPI directly so it works even in a shaded jar
        // whose service files were not merged.
        if (format == ImageFormat.WEBP) {
            try {
                return new WebPImageReaderSpi().createReaderInstance(null);
            } catch (NoClassDefFoundError e) { // the plugin is an optional dependency of the core
                throw new ImageException(name + ": WebP needs com.twelvemonkeys.imageio:imageio-webp on the classpath "
                        + "(the gam launcher includes it); or convert the image to PNG");
            }
        }
        Iterator<ImageReader> it = ImageIO.getImageReadersByFormatName(format.imageIoName());
        if (!it.hasNext()) throw new ImageException(name + ": no " + label(format) + " decoder in this Java runtime");
        return it.next();
    }

    private static ImageException corrupt(String name, ImageFormat format, Throwable e) {
        String why = e.getMessage();
        Throwable c = e.getCause();
        if (c != null && c.getMessage() != null && (why == null || !why.contains(c.getMessage()))) why = (why == null ? "" : why + ": ") + c.getMessage();
        if (why == null || why.isBlank() || e instanceof java.io.EOFException || c instanceof java.io.EOFException) {
            why = (why == null || why.isBlank() ? "" : why + ", ") + "unexpected end of data";
        }
        return new ImageException(name + ": truncated or corrupt " + label(format) + " (" + why + "); re-export or re-download the file", e);
    }

    private static boolean isDamage(String warning) {
        String w = warning.toLowerCase(Locale.ROOT);
        if (w.contains("extraneous bytes")) return false; // common in camera JPEGs, pixels are intact
        return w.contains("premature") || w.contains("truncat") || w.contains("eof") || w.contains("corrupt");
    }

    /** The IEND chunk (type and CRC) within the last bytes; some encoders pad after it. */
    private static boolean endsWithPngTrailer(byte[] b) {
        byte[] iend = {'I', 'E', 'N', 'D', (byte) 0xAE, 0x42, 0x60, (byte) 0x82};
        for (int i = b.length - iend.length; i >= 0; i--) {
            if (Arrays.equals(b, i, i + iend.length, iend, 0, iend.length)) return true;
        }
        return false;
    }

    private static boolean endsWithGifTrailer(byte[] b) {
        // Some encoders pad after the trailer; look at the last few bytes.
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] == 0x3B) return true;
            if (b[i] != 0) return false;
        }
        return false;
    }

    private static byte[] decodeBase64(String name, String text) {
        if (text == null) throw new ImageException(name + ": bad base64 (no data)");
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (!Character.isWhitespace(ch)) sb.append(ch);
        }
        String s = sb.toString();
        if (s.isEmpty()) throw new ImageException(name + ": bad base64 (empty)");
        try {
            return (s.indexOf('-') >= 0 || s.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(s);
        } catch (IllegalArgumentException e) {
            throw new ImageException(name + ": bad base64 (" + e.getMessage() + ")", e);
        }
    }

    private static String label(ImageFormat f) { return f == ImageFormat.WEBP ? "WebP" : f.name(); }

    private static String nameOf(String s) { return s == null || s.isBlank() ? "image" : s; }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
