package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;

/**
 * Whether a piece of text sits on a bounded surface (a sign board, a label, a card) or on the open
 * background: from the text box, flood through the colour that dominates inside it (3×3
 * median first, so speckle does not stop it). A flood that reaches the image border and covers more
 * than 5 % of the image is the open background; one that stops at the surface's edge (a colour change
 * or a drawn outline), or stays small, is a surface, and its extent is the surface's box.
 */
public final class Surfaces {
    /** The surface found around one text box: {@code bounded} false when the text is on the open background. */
    public record Surface(boolean bounded, Rectangle box, int color, double contrast) { }

    /** A flood reaching the border over more than this share of the image is the open background. */
    static final double OPEN_AREA = 0.05;

    private final int w, h;
    private final int[] rgb;
    private final int background;

    public Surfaces(BufferedImage image) { this(image, MedianFilter.median(image)); }

    /** @param denoised the image's pixels after the 3×3 median ({@link ClassicalSceneAnalyzer#median}) */
    public Surfaces(BufferedImage image, int[] denoised) {
        this.w = image.getWidth();
        this.h = image.getHeight();
        this.rgb = denoised;
        this.background = Pixels.background(rgb, w, h);
    }

    public int width() { return w; }

    public int height() { return h; }

    /** The surface under the text in {@code box} (pixel coordinates of this image). */
    public Surface around(Rectangle box) {
        Rectangle b = box.intersection(new Rectangle(0, 0, w, h));
        if (b.isEmpty()) return new Surface(false, new Rectangle(0, 0, w, h), background, 0);
        // The surface colour: the median inside the text box, where the thin glyph strokes are the minority.
        ChannelMedian median = new ChannelMedian();
        for (int y = b.y; y < b.y + b.height; y++) {
            for (int x = b.x; x < b.x + b.width; x++) median.add(rgb[y * w + x]);
        }
        int color = median.rgb();
        int limit2 = 28 * 28;
        boolean[] seen = new boolean[w * h];
        int[] queue = new int[w * h];
        int head = 0, tail = 0;
        for (int y = b.y; y < b.y + b.height; y++) {
            for (int x = b.x; x < b.x + b.width; x++) {
                int p = y * w + x;
                if (Pixels.dist2(rgb[p], color) > limit2) continue;
                seen[p] = true;
                queue[tail++] = p;
            }
        }
        int x0 = b.x, y0 = b.y, x1 = b.x + b.width - 1, y1 = b.y + b.height - 1;
        boolean border = false;
        double openArea = OPEN_AREA * w * h;
        // once the flood has reached the border and covers the open area, the surface is open whatever else it
        // reaches (an open surface's box is the image), so the flood stops there rather than cover the background
        while (head < tail && !(border && tail > openArea)) {
            int p = queue[head++];
            int x = p % w, y = p / w;
            x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
            if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { border = true; continue; }
            for (int k = 0; k < 4; k++) {
                int q = k == 0 ? p - 1 : k == 1 ? p + 1 : k == 2 ? p - w : p + w;
                if (seen[q] || Pixels.dist2(rgb[q], color) > limit2) continue;
                seen[q] = true;
                queue[tail++] = q;
            }
        }
        // Open: the colour runs on to the image border over a large area. A small region that touches the border
        // only through a thin part of the same colour (a sign's pole) is still a surface.
        boolean open = border && tail > openArea;
        double contrast = Math.sqrt(Pixels.dist2(color, background));
        if (open) return new Surface(false, new Rectangle(0, 0, w, h), color, contrast);
        return new Surface(true, new Rectangle(x0, y0, x1 - x0 + 1, y1 - y0 + 1), color, contrast);
    }
}
