package dev.gamagent.local.ocr;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;

/** Pixel operations the OCR needs: resizing and cropping (possibly rotated) boxes into RGB images. */
final class Images {
    private Images() { }

    static BufferedImage rgb(BufferedImage src) {
        if (src.getType() == BufferedImage.TYPE_INT_RGB) return src;
        BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        g.drawImage(src, 0, 0, null);
        g.dispose();
        return out;
    }

    /** Bilinear resize (what OpenCV's default INTER_LINEAR does for PP-OCR's own preprocessing). */
    static BufferedImage resize(BufferedImage src, int w, int h) {
        if (src.getWidth() == w && src.getHeight() == h && src.getType() == BufferedImage.TYPE_INT_RGB) return src;
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(src, 0, 0, w, h, null);
        g.dispose();
        return out;
    }

    /**
     * Cuts a box out upright. Nearly horizontal boxes are cropped axis-aligned (no resampling blur);
     * others are rotated so the text runs left to right. Area outside the image is filled with the
     * mean colour of the box's border so the recogniser sees background, not a frame.
     */
    static BufferedImage crop(BufferedImage src, RotatedBox box) {
        int iw = src.getWidth(), ih = src.getHeight();
        if (Math.abs(box.angle()) < Math.toRadians(2)) {
            Rectangle r = new RotatedBox(box.cx(), box.cy(), box.width(), box.height(), 0, box.score()).bounds(iw, ih);
            BufferedImage out = new BufferedImage(r.width, r.height, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = out.createGraphics();
            g.drawImage(src, 0, 0, r.width, r.height, r.x, r.y, r.x + r.width, r.y + r.height, null);
            g.dispose();
            return out;
        }
        int w = Math.max(1, (int) Math.round(box.width())), h = Math.max(1, (int) Math.round(box.height()));
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(borderMean(src, box.bounds(iw, ih)));
        g.fillRect(0, 0, w, h);
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        AffineTransform t = new AffineTransform();
        t.translate(w / 2.0, h / 2.0);
        t.rotate(-box.angle());
        t.translate(-box.cx(), -box.cy());
        g.drawImage(src, t, null);
        g.dispose();
        return out;
    }

    static BufferedImage rotate90(BufferedImage src) {
        int w = src.getWidth(), h = src.getHeight();
        BufferedImage out = new BufferedImage(h, w, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) out.setRGB(y, w - 1 - x, src.getRGB(x, y));
        return out;
    }

    private static Color borderMean(BufferedImage src, Rectangle r) {
        long sr = 0, sg = 0, sb = 0, n = 0;
        for (int x = r.x; x < r.x + r.width; x++) {
            for (int y : new int[]{r.y, r.y + r.height - 1}) {
                int p = src.getRGB(x, y);
                sr += (p >> 16) & 0xff; sg += (p >> 8) & 0xff; sb += p & 0xff; n++;
            }
        }
        for (int y = r.y; y < r.y + r.height; y++) {
            for (int x : new int[]{r.x, r.x + r.width - 1}) {
                int p = src.getRGB(x, y);
                sr += (p >> 16) & 0xff; sg += (p >> 8) & 0xff; sb += p & 0xff; n++;
            }
        }
        return new Color((int) (sr / n), (int) (sg / n), (int) (sb / n));
    }
}
