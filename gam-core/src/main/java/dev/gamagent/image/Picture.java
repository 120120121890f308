package dev.gamagent.image;


import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An image with the name of where it came from. Immutable: scaling and cropping return new pictures.
 *
 * <p>A picture read from PNG or JPEG bytes ({@link #encoded}) keeps those bytes and sends them to models
 * as they are: its pixels are decoded only when something needs them (scaling, cropping, the built-in
 * model), so a question sent at its own size to a model server costs no decoding and no re-encoding.
 * A picture made from pixels is encoded once, on first use. Either way the encoding and its base64 text
 * are computed once and shared by every agent that sends the picture, and each scaled size is made once
 * ({@link #scaled}) and shared too.
 */
public final class Picture {
    private static final float JPEG_QUALITY = 0.92f;

    private final String source;
    private final int width;
    private final int height;
    private final Function<byte[], BufferedImage> decoder;
    /** Derived pictures of a photo are sent as JPEG: a lossless PNG of camera noise is ten times larger. */
    private final boolean jpegFamily;
    private volatile BufferedImage image;
    private volatile Encoding encoding;
    private volatile byte[] png;
    private final ConcurrentHashMap<Long, Picture> sizes = new ConcurrentHashMap<>();

    /**
     * One image format's encoding as a backend sends it: base64 text (ASCII bytes, computed once), which a
     * data URL puts after {@link #prefix()}. The raw bytes are not kept: {@link #bytes()} decodes them again
     * on the rare occasions they are needed (decoding pixels), so a picture in flight holds one copy.
     */
    public record Encoding(String mimeType, byte[] base64) {
        static Encoding of(String mimeType, byte[] bytes) { return new Encoding(mimeType, Base64.getEncoder().encode(bytes)); }

        /** {@code data:<type>;base64,}: what goes before {@link #base64()} in a data URL. */
        public byte[] prefix() { return ("data:" + mimeType + ";base64,").getBytes(StandardCharsets.US_ASCII); }

        /** The encoded file's bytes. */
        public byte[] bytes() { return Base64.getDecoder().decode(base64); }
    }

    public Picture(String source, BufferedImage image) { this(source, image, false); }

    private Picture(String source, BufferedImage image, boolean jpegFamily) {
        this.source = Objects.requireNonNullElse(source, "image");
        this.image = toRgb(Objects.requireNonNull(image, "image"));
        this.width = this.image.getWidth();
        this.height = this.image.getHeight();
        this.decoder = null;
        this.jpegFamily = jpegFamily;
    }

    private Picture(String source, Encoding encoding, int width, int height, Function<byte[], BufferedImage> decoder) {
        this.source = Objects.requireNonNullElse(source, "image");
        this.encoding = encoding;
        this.width = width;
        this.height = height;
        this.decoder = decoder;
        this.jpegFamily = encoding.mimeType().equals("image/jpeg");
    }

    /**
     * A picture of PNG or JPEG {@code bytes} whose header says {@code width}×{@code height}; {@code decoder}
     * turns the bytes into pixels when they are first needed (the caller has checked the file is whole).
     * {@code base64} is the canonical base64 text of the bytes when the caller has it already (else null),
     * so it is not computed again.
     */
    public static Picture encoded(String source, byte[] bytes, String base64, String mimeType, int width, int height,
                                  Function<byte[], BufferedImage> decoder) {
        if (!mimeType.equals("image/png") && !mimeType.equals("image/jpeg")) {
            throw new IllegalArgumentException("only PNG and JPEG bytes are sent as they are, not " + mimeType);
        }
        if (width <= 0 || height <= 0) throw new IllegalArgumentException(source + ": " + width + "x" + height + " is not an image size");
        Objects.requireNonNull(bytes, "bytes");
        Encoding e = base64 == null ? Encoding.of(mimeType, bytes) : new Encoding(mimeType, base64.getBytes(StandardCharsets.ISO_8859_1));
        return new Picture(source, e, width, height, Objects.requireNonNull(decoder, "decoder"));
    }

    /**
     * This picture's encoded bytes under another source name, for another question that shows the same file: the
     * bytes (and their check) are shared, the pixels and sizes derived from them are not, so neither question holds
     * the other's decoded images. Null for a picture made from pixels.
     */
    public Picture sharedAs(String source) {
        if (decoder == null) return null;
        return new Picture(source, encoding, width, height, decoder);
    }

    public String source() { return source; }

    /** The pixels (decoded now if this picture was read from bytes and nothing has needed them yet). Callers must not modify them. */
    public BufferedImage image() {
        BufferedImage img = image;
        if (img != null) return img;
        synchronized (this) {
            if (image == null) {
                BufferedImage decoded = toRgb(decoder.apply(encoding.bytes()));
                if (decoded.getWidth() != width || decoded.getHeight() != height) {
                    throw new ImageException(source + ": the header says " + width + "x" + height + " but the pixels are "
                            + decoded.getWidth() + "x" + decoded.getHeight() + "; the file is corrupt");
                }
                image = decoded;
            }
            return image;
        }
    }

    /** Whether the pixels are in memory (false for a picture read from bytes that nothing has decoded yet). */
    public boolean isDecoded() { return image != null; }

    public int width() { return width; }

    public int height() { return height; }

    public long pixels() { return (long) width * height; }

    /**
     * Scales by {@code factor}, then shrinks further if needed so that width×height ≤ {@code maxPixels}
     * (0 = no cap). Returns {@code this} when the size would not change; each other size is made once and
     * shared by every caller (all agents of a question that see the image at that size).
     */
    public Picture scaled(double factor, long maxPixels) {
        int[] size = scaledSize(width(), height(), factor, maxPixels);
        int nw = size[0], nh = size[1];
        if (nw == width() && nh == height()) return this;
        int tw = nw, th = nh;
        return sizes.computeIfAbsent(((long) tw << 32) | th,
                k -> new Picture(source + "@" + trim(factor) + "x", resize(image(), tw, th), jpegFamily));
    }

    /**
     * The {width, height} {@link #scaled} makes of a {@code width}×{@code height} image: scaled by {@code factor}, then
     * shrunk so that width×height ≤ {@code maxPixels} (0 = no cap). Also for counting what a scaled copy costs from a
     * trace, without the pixels.
     */
    public static int[] scaledSize(int width, int height, double factor, long maxPixels) {
        if (!(factor > 0)) throw new IllegalArgumentException("scale factor must be > 0, got " + factor);
        double w = width * factor, h = height * factor;
        int nw, nh;
        if (maxPixels > 0 && w * h > maxPixels) {
            double shrink = Math.sqrt(maxPixels / (w * h));
            nw = Math.max(1, (int) Math.round(w * shrink));
            nh = Math.max(1, (int) Math.round(h * shrink));
            if ((long) nw * nh > maxPixels) {
                // rounding to nearest overshoots the cap about half the time, and a backend refuses that: round down
                nw = Math.max(1, (int) Math.floor(w * shrink));
                nh = Math.max(1, (int) Math.floor(h * shrink));
            }
        } else {
            nw = Math.max(1, (int) Math.round(w));
            nh = Math.max(1, (int) Math.round(h));
        }
        return new int[]{nw, nh};
    }

    /** Crops a normalised region (at least 1×1 pixel). */
    public Picture crop(Region r) {
        int x0 = (int) Math.floor(r.x0() * width()), y0 = (int) Math.floor(r.y0() * height());
        int x1 = (int) Math.ceil(r.x1() * width()), y1 = (int) Math.ceil(r.y1() * height());
        x0 = Math.min(x0, width() - 1);
        y0 = Math.min(y0, height() - 1);
        int w = Math.max(1, Math.min(width(), x1) - x0), h = Math.max(1, Math.min(height(), y1) - y0);
        BufferedImage sub = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        var g = sub.createGraphics();
        g.drawImage(image(), 0, 0, w, h, x0, y0, x0 + w, y0 + h, null);
        g.dispose();
        return new Picture(source + "#crop" + r, sub, jpegFamily);
    }

    /**
     * What a backend sends: the bytes this picture was read from, or else its pixels encoded once (PNG,
     * lossless, so what the model sees is what we measured; JPEG for a scaled or cropped photo).
     */
    public Encoding encoding() {
        Encoding e = encoding;
        if (e != null) return e;
        synchronized (this) {
            if (encoding == null) encoding = jpegFamily ? Encoding.of("image/jpeg", jpeg(image(), source)) : Encoding.of("image/png", png());
            return encoding;
        }
    }

    /** PNG bytes of the pixels (lossless), encoded once; record/replay keys and the web viewer use them. */
    public byte[] png() {
        byte[] b = png;
        if (b == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, width() * height()));
            write(image(), "png", null, out, source);
            png = b = out.toByteArray();
        }
        return b;
    }

    public String mimeType() { return encoding().mimeType(); }

    public String base64() { return new String(encoding().base64(), StandardCharsets.ISO_8859_1); }

    public String dataUrl() {
        Encoding e = encoding();
        return new String(e.prefix(), StandardCharsets.US_ASCII) + new String(e.base64(), StandardCharsets.ISO_8859_1);
    }

    @Override public String toString() { return source + " (" + width() + "x" + height() + ")"; }

    static BufferedImage toRgb(BufferedImage in) {
        if (in.getType() == BufferedImage.TYPE_INT_RGB) return in;
        BufferedImage out = new BufferedImage(in.getWidth(), in.getHeight(), BufferedImage.TYPE_INT_RGB);
        var g = out.createGraphics();
        g.setColor(java.awt.Color.WHITE); // transparent pixels become white, as most VLM preprocessors do
        g.fillRect(0, 0, in.getWidth(), in.getHeight());
        g.drawImage(in, 0, 0, null);
        g.dispose();
        return out;
    }

    static BufferedImage resize(BufferedImage in, int w, int h) {
        BufferedImage src = in;
        // Halve step by step when shrinking a lot, so bilinear sampling does not alias small text away.
        while (src.getWidth() / 2 >= w && src.getHeight() / 2 >= h) {
            src = draw(src, src.getWidth() / 2, src.getHeight() / 2);
        }
        return draw(src, w, h);
    }

    private static BufferedImage draw(BufferedImage in, int w, int h) {
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        var g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.drawImage(in, 0, 0, w, h, null);
        g.dispose();
        return out;
    }

    private static byte[] jpeg(BufferedImage img, String source) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, img.getWidth() * img.getHeight() / 4));
        write(img, "jpeg", JPEG_QUALITY, out, source);
        return out.toByteArray();
    }

    /** Encodes in memory: ImageIO.write would cache through a temporary file on disk by default. */
    private static void write(BufferedImage img, String format, Float quality, ByteArrayOutputStream out, String source) {
        ImageWriter writer = ImageIO.getImageWritersByFormatName(format).next();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(ios);
            ImageWriteParam p = writer.getDefaultWriteParam();
            if (quality != null) {
                p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                p.setCompressionQuality(quality);
            }
            writer.write(null, new IIOImage(img, null, null), p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + source + " as " + format.toUpperCase(java.util.Locale.ROOT), e);
        } finally {
            writer.dispose();
        }
    }

    private static String trim(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }
}
