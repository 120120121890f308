package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;

/**
 * The per-channel 3×3 median filter the analysers and the text surfaces read images through: it removes isolated
 * speckles and one-pixel lines (grid lines, noise) before the background and the components are found.
 */
public final class MedianFilter {
    private static final int RGB = 0xFFFFFF;

    private MedianFilter() { }

    /** The image's RGB pixels (row-major) after the per-channel 3×3 median. */
    public static int[] median(BufferedImage image) {
        int w = image.getWidth(), h = image.getHeight();
        return median3x3(Pixels.argb(image), w, h);
    }

    /**
     * Per-channel 3×3 median (borders copied); removes isolated speckles and one-pixel lines. A pixel whose nine
     * neighbours are all one colour keeps its value as it was (alpha included); any other gets the medians' RGB.
     * Such flat pixels (about three in four of a drawn chart or scene) are found first, by comparing each column of
     * three and the row, and skipped; over each run of the other pixels, each column of three is sorted once, and the
     * median of the nine is the median of the largest low, the median middle and the smallest high of the three
     * columns (exact; no per-pixel sort, no branches).
     */
    static int[] median3x3(int[] src, int w, int h) {
        int[] out = src.clone();
        if (w < 3 || h < 3) return out;
        int[] lo = new int[w], mi = new int[w], hi = new int[w], rgb = new int[w];
        boolean[] flatColumn = new boolean[w]; // the column's three pixels have one RGB
        for (int y = 1; y < h - 1; y++) {
            int up = (y - 1) * w, row = y * w, down = (y + 1) * w;
            for (int x = 0; x < w; x++) {
                int c = src[row + x];
                flatColumn[x] = ((src[up + x] ^ c) & RGB) == 0 && ((src[down + x] ^ c) & RGB) == 0;
            }
            int x = 1;
            while (x < w - 1) {
                if (flat(src, flatColumn, row, x)) {
                    x++;
                    continue;
                }
                int first = x++;
                while (x < w - 1 && !flat(src, flatColumn, row, x)) x++;
                filterRun(src, out, w, up, row, down, first, x, lo, mi, hi, rgb);
            }
        }
        return out;
    }

    /** Whether pixel {@code x} of the row and its eight neighbours share one RGB. */
    private static boolean flat(int[] src, boolean[] flatColumn, int row, int x) {
        int c = src[row + x];
        return flatColumn[x - 1] && flatColumn[x] && flatColumn[x + 1]
                && ((src[row + x - 1] ^ c) & RGB) == 0 && ((src[row + x + 1] ^ c) & RGB) == 0;
    }

    /** The medians of the row's pixels {@code first} to {@code end − 1}, none of them flat, written to {@code out}. */
    private static void filterRun(int[] src, int[] out, int w, int up, int row, int down, int first, int end,
                                  int[] lo, int[] mi, int[] hi, int[] rgb) {
        java.util.Arrays.fill(rgb, first, end, 0);
        for (int shift = 16; shift >= 0; shift -= 8) {
            for (int x = first - 1; x <= end; x++) {
                int a = (src[up + x] >> shift) & 255, b = (src[row + x] >> shift) & 255, c = (src[down + x] >> shift) & 255;
                int l = Math.min(a, b), m = Math.max(a, b);
                hi[x] = Math.max(m, c);
                m = Math.min(m, c);
                lo[x] = Math.min(l, m);
                mi[x] = Math.max(l, m);
            }
            for (int x = first; x < end; x++) {
                int maxLow = Math.max(lo[x - 1], Math.max(lo[x], lo[x + 1]));
                int minHigh = Math.min(hi[x - 1], Math.min(hi[x], hi[x + 1]));
                int midMid = median3(mi[x - 1], mi[x], mi[x + 1]);
                rgb[x] |= median3(maxLow, midMid, minHigh) << shift;
            }
        }
        for (int x = first; x < end; x++) out[row + x] = rgb[x];
    }

    private static int median3(int a, int b, int c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
