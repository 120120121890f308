package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;

/**
 * The per-channel 3×3 median filter the analysers and the text surfaces read images through: it removes isolated
 * speckles and one-pixel lines (grid lines, noise) before the background and the components are found.
 */
public final class MedianFilter {
    private MedianFilter() { }

    /** The image's RGB pixels (row-major) after the per-channel 3×3 median. */
    public static int[] median(BufferedImage image) {
        int w = image.getWidth(), h = image.getHeight();
        return median3x3(Pixels.argb(image), w, h);
    }

    /**
     * Per-channel 3×3 median (borders copied); removes isolated speckles and one-pixel lines. A pixel whose nine
     * neighbours are all one colour keeps its value as it was (alpha included); any other gets the medians' RGB.
     * Each column of three is sorted once, and the median of the nine is the median of the largest low, the
     * median middle and the smallest high of the three columns (exact; no per-pixel sort, no branches).
     */
    static int[] median3x3(int[] src, int w, int h) {
        int[] out = src.clone();
        if (w < 3 || h < 3) return out;
        int[] lo = new int[w], mi = new int[w], hi = new int[w];
        int[] rgb = new int[w], spread = new int[w];
        for (int y = 1; y < h - 1; y++) {
            int up = (y - 1) * w, row = y * w, down = (y + 1) * w;
            java.util.Arrays.fill(rgb, 0);
            java.util.Arrays.fill(spread, 0);
            for (int shift = 16; shift >= 0; shift -= 8) {
                for (int x = 0; x < w; x++) {
                    int a = (src[up + x] >> shift) & 255, b = (src[row + x] >> shift) & 255, c = (src[down + x] >> shift) & 255;
                    int l = Math.min(a, b), m = Math.max(a, b);
                    hi[x] = Math.max(m, c);
                    m = Math.min(m, c);
                    lo[x] = Math.min(l, m);
                    mi[x] = Math.max(l, m);
                }
                for (int x = 1; x < w - 1; x++) {
                    int l0 = lo[x - 1], l1 = lo[x], l2 = lo[x + 1];
                    int h0 = hi[x - 1], h1 = hi[x], h2 = hi[x + 1];
                    int maxLow = Math.max(l0, Math.max(l1, l2));
                    int minHigh = Math.min(h0, Math.min(h1, h2));
                    int midMid = median3(mi[x - 1], mi[x], mi[x + 1]);
                    rgb[x] |= median3(maxLow, midMid, minHigh) << shift;
                    spread[x] |= Math.max(h0, Math.max(h1, h2)) - Math.min(l0, Math.min(l1, l2));
                }
            }
            for (int x = 1; x < w - 1; x++) if (spread[x] != 0) out[row + x] = rgb[x];
        }
        return out;
    }

    private static int median3(int a, int b, int c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
