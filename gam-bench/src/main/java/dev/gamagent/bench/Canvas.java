package dev.gamagent.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.util.Random;

/**
 * An RGB image being drawn in a {@link RenderStyle}: shapes (filled or outlined), text in the style's font,
 * speckle noise, and JPEG compression when the style asks for it, applied by {@link #finish()}.
 */
final class Canvas {
    final BufferedImage image;
    final Graphics2D g;
    final Color background;
    final RenderStyle style;
    /** Left unfinished by {@link Draft#item}: no speckle noise, no JPEG round trip ({@link BenchmarkGenerator#questions}). */
    boolean sketch;

    Canvas(int width, int height, Color background) { this(width, height, background, RenderStyle.CLASSIC); }

    Canvas(int width, int height, Color background, RenderStyle style) {
        this.image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        this.background = background;
        this.style = style;
        this.g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, style.antialias() ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
                style.antialias() ? RenderingHints.VALUE_TEXT_ANTIALIAS_ON : RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_OFF);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setColor(background);
        g.fillRect(0, 0, width, height);
    }

    int width() { return image.getWidth(); }

    int height() { return image.getHeight(); }

    /** The outline of a named shape with circumradius {@code r}, rotated by {@code rot} radians about its centre. */
    static Shape outline(String shape, double cx, double cy, double r, double rot) {
        Shape s = switch (shape) {
            case "circle" -> new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r);
            case "square" -> regular(cx, cy, r, 4, Math.PI / 4);
            case "triangle" -> regular(cx, cy, r, 3, -Math.PI / 2);
            case "hexagon" -> regular(cx, cy, r, 6, 0);
            case "star" -> star(cx, cy, r, 0.45 * r);
            default -> throw new IllegalArgumentException("unknown shape '" + shape + "': use one of " + Palette.SHAPES);
        };
        if (rot == 0 || shape.equals("circle")) return s;
        return AffineTransform.getRotateInstance(rot, cx, cy).createTransformedShape(s);
    }

    private static Path2D regular(double cx, double cy, double r, int n, double start) {
        Path2D.Double p = new Path2D.Double();
        for (int i = 0; i < n; i++) {
            double a = start + 2 * Math.PI * i / n;
            if (i == 0) p.moveTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
            else p.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
        }
        p.closePath();
        return p;
    }

    private static Path2D star(double cx, double cy, double outer, double inner) {
        Path2D.Double p = new Path2D.Double();
        for (int i = 0; i < 10; i++) {
            double a = -Math.PI / 2 + Math.PI * i / 5;
            double rr = i % 2 == 0 ? outer : inner;
            if (i == 0) p.moveTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
            else p.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
        }
        p.closePath();
        return p;
    }

    /** Fills a shape and returns the pixel box it covers (clipped to the image). */
    Rectangle fill(Shape s, Color c) {
        g.setColor(c);
        g.fill(s);
        return pixelBounds(s);
    }

    /** Draws one of the scene's shapes of circumradius {@code r}: filled, or outlined when the style says so. */
    Rectangle paint(Shape s, Color c, double r) {
        if (!style.outlined()) return fill(s, c);
        BasicStroke stroke = new BasicStroke(RenderStyle.outlineWidth(r), BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 4f);
        g.setColor(c);
        g.setStroke(stroke);
        g.draw(s);
        return pixelBounds(stroke.createStrokedShape(s));
    }

    Rectangle pixelBounds(Shape s) {
        var b = s.getBounds2D();
        int x0 = (int) Math.floor(b.getMinX()), y0 = (int) Math.floor(b.getMinY());
        int x1 = (int) Math.ceil(b.getMaxX()), y1 = (int) Math.ceil(b.getMaxY());
        return new Rectangle(x0, y0, x1 - x0, y1 - y0).intersection(new Rectangle(0, 0, width(), height()));
    }

    /** The style's font at {@code px} pixels. */
    Font font(int px, boolean bold) {
        return new Font(style.font(), (bold ? Font.BOLD : Font.PLAIN) | (style.italic() ? Font.ITALIC : 0), px);
    }

    /** Draws {@code text} centred on (cx, cy), rotated by {@code rotDeg}; returns its pixel box. */
    Rectangle textCentered(String text, Font font, Color c, double cx, double cy, double rotDeg) {
        g.setFont(font);
        FontMetrics fm = g.getFontMetrics();
        double w = fm.stringWidth(text);
        double asc = fm.getAscent() * 0.78, desc = fm.getDescent() * 0.3;
        double x = cx - w / 2, baseline = cy + (asc - desc) / 2;
        AffineTransform saved = g.getTransform();
        if (rotDeg != 0) g.rotate(Math.toRadians(rotDeg), cx, cy);
        g.setColor(c);
        g.drawString(text, (float) x, (float) baseline);
        g.setTransform(saved);
        Shape box = new Rectangle.Double(x, baseline - fm.getAscent(), w, fm.getAscent() + fm.getDescent());
        if (rotDeg != 0) box = AffineTransform.getRotateInstance(Math.toRadians(rotDeg), cx, cy).createTransformedShape(box);
        return pixelBounds(box);
    }

    /** Draws {@code text} with its left end at x and its baseline at y (no rotation); returns its pixel box. */
    Rectangle textAt(String text, Font font, Color c, double x, double baseline) {
        g.setFont(font);
        FontMetrics fm = g.getFontMetrics();
        g.setColor(c);
        g.drawString(text, (float) x, (float) baseline);
        return pixelBounds(new Rectangle.Double(x, baseline - fm.getAscent(), fm.stringWidth(text), fm.getAscent() + fm.getDescent()));
    }

    int textWidth(String text, Font font) {
        return g.getFontMetrics(font).stringWidth(text);
    }

    void line(Color c, float width, double x0, double y0, double x1, double y1) {
        g.setColor(c);
        g.setStroke(new BasicStroke(width));
        g.draw(new java.awt.geom.Line2D.Double(x0, y0, x1, y1));
    }

    /** Perturbs a fraction of pixels by Gaussian noise (sigma 40 per channel): sparse speckle, kept compressible. */
    void speckle(double fraction, Random rng) {
        if (fraction <= 0) return;
        int w = width(), h = height();
        int n = (int) Math.round(fraction * w * h);
        for (int i = 0; i < n; i++) {
            int x = rng.nextInt(w), y = rng.nextInt(h);
            int rgb = image.getRGB(x, y);
            int d = (int) Math.round(rng.nextGaussian() * 40);
            int r = Palette.clamp(((rgb >> 16) & 255) + d), gg = Palette.clamp(((rgb >> 8) & 255) + d), b = Palette.clamp((rgb & 255) + d);
            image.setRGB(x, y, (r << 16) | (gg << 8) | b);
        }
    }

    /** The image as drawn, without the JPEG round trip ({@link BenchmarkGenerator#questions}). */
    BufferedImage unfinished() {
        g.dispose();
        return image;
    }

    /** The finished image: JPEG-compressed and decoded again when the style asks for it. */
    BufferedImage finish() {
        g.dispose();
        return style.jpegQuality() > 0 ? jpeg(image, style.jpegQuality()) : image;
    }

    /** {@code img} after a JPEG round trip at {@code quality} (the JDK's encoder: deterministic for a given JDK). */
    static BufferedImage jpeg(BufferedImage img, double quality) {
        try {
            javax.imageio.ImageWriter writer = javax.imageio.ImageIO.getImageWritersByFormatName("jpeg").next();
            javax.imageio.ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(javax.imageio.ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality((float) quality);
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (javax.imageio.stream.ImageOutputStream out = javax.imageio.ImageIO.createImageOutputStream(bytes)) {
                writer.setOutput(out);
                writer.write(null, new javax.imageio.IIOImage(img, null, null), param);
            } finally {
                writer.dispose();
            }
            BufferedImage decoded = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(bytes.toByteArray()));
            BufferedImage rgb = new BufferedImage(decoded.getWidth(), decoded.getHeight(), BufferedImage.TYPE_INT_RGB);
            Graphics2D g2 = rgb.createGraphics();
            g2.drawImage(decoded, 0, 0, null);
            g2.dispose();
            return rgb;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("JPEG round trip of a generated image failed", e);
        }
    }
}
