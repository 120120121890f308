package dev.gamagent.image;

import dev.gamagent.api.Region;

import javax.imageio.ImageIO;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Objects;

/**
 * An image in memory (RGB pixels) with the name of where it came from. Immutable: scaling and cropping
 * return new pictures. The PNG encoding is computed once on demand and cached.
 */
public final class Picture {
    private final String source;
    private final BufferedImage image;
    private volatile byte[] png;

    public Picture(String source, BufferedImage image) {
        this.source = Objects.requireNonNullElse(source, "image");
        this.image = toRgb(Objects.requireNonNull(image, "image"));
    }

    public String source() { return source; }

    /** The pixels. Callers must not modify them. */
    public BufferedImage image() { return image; }

    public int width() { return image.getWidth(); }

    public int height() { return image.getHeight(); }

    public long pixels() { return (long) width() * height(); }

    /**
     * Scales by {@code factor}, then shrinks further if needed so that width×height ≤ {@code maxPixels}
     * (0 = no cap). Returns {@code this} when the size would not change.
     */
    public Picture scaled(double factor, long maxPixels) {
        if (!(factor > 0)) throw new IllegalArgumentException("scale factor must be > 0, got " + factor);
        double w = width() * factor, h = height() * factor;
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
        if (nw == width() && nh == height()) return this;
        return new Picture(source + "@" + trim(factor) + "x", resize(image, nw, nh));
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
        g.drawImage(image, 0, 0, w, h, x0, y0, x0 + w, y0 + h, null);
        g.dispose();
        return new Picture(source + "#crop" + r, sub);
    }

    /** PNG bytes (lossless, so what the model sees is what we measured). */
    public byte[] png() {
        byte[] b = png;
        if (b == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, width() * height()));
            try {
                ImageIO.write(image, "png", out);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode " + source + " as PNG", e);
            }
            png = b = out.toByteArray();
        }
        return b;
    }

    public String mimeType() { return "image/png"; }

    public String base64() { return Base64.getEncoder().encodeToString(png()); }

    public String dataUrl() { return "data:" + mimeType() + ";base64," + base64(); }

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

    private static String trim(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }
}
