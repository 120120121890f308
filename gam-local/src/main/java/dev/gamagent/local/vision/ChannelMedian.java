package dev.gamagent.local.vision;

/**
 * The per-channel median of the colours added (each channel's lower median, 0..255): a region's colour that a
 * minority of other pixels (glyph strokes, an anti-aliased edge) does not move.
 */
final class ChannelMedian {
    private final int[][] hist = new int[3][256];
    private int n;

    void add(int rgb) {
        hist[0][(rgb >> 16) & 255]++;
        hist[1][(rgb >> 8) & 255]++;
        hist[2][rgb & 255]++;
        n++;
    }

    /** How many colours were added. */
    int count() { return n; }

    /** The median as 0xRRGGBB (black when nothing was added). */
    int rgb() {
        int out = 0;
        for (int ch = 0; ch < 3; ch++) {
            int acc = 0, v = 0;
            while (v < 255 && (acc += hist[ch][v]) * 2 < n) v++;
            out = out << 8 | v;
        }
        return out;
    }
}
