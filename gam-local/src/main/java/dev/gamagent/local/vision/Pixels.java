package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.awt.image.SinglePixelPackedSampleModel;
import java.awt.image.WritableRaster;

/**
 * An image's pixels as {@link BufferedImage#getRGB(int, int, int, int, int[], int, int)} returns them (default sRGB,
 * 0xAARRGGBB, row-major), copied straight from the raster for the two integer layouts the model meets (decoded and
 * drawn images are {@code TYPE_INT_RGB}, some decoders give {@code TYPE_INT_ARGB}) instead of through the colour model
 * pixel by pixel; any other layout goes through {@code getRGB}. Also the two colour measures every analyser shares: the
 * distance of two colours and the background colour of an image.
 */
public final class Pixels {
    private Pixels() { }

    public static int[] argb(BufferedImage image) {
        int w = image.getWidth(), h = image.getHeight();
        int type = image.getType();
        WritableRaster r = image.getRaster();
        if ((type == BufferedImage.TYPE_INT_RGB || type == BufferedImage.TYPE_INT_ARGB)
                && r.getDataBuffer() instanceof DataBufferInt db && db.getNumBanks() == 1
                && r.getSampleModel() instanceof SinglePixelPackedSampleModel sm) {
            int stride = sm.getScanlineStride();
            int start = db.getOffset() + sm.getOffset(-r.getSampleModelTranslateX(), -r.getSampleModelTranslateY());
            int[] data = db.getData();
            int[] out = new int[w * h];
            if (type == BufferedImage.TYPE_INT_ARGB) {
                for (int y = 0; y < h; y++) System.arraycopy(data, start + y * stride, out, y * w, w);
            } else {
                for (int y = 0; y < h; y++) {
                    int from = start + y * stride, to = y * w;
                    for (int x = 0; x < w; x++) out[to + x] = 0xFF000000 | data[from + x];
                }
            }
            return out;
        }
        return image.getRGB(0, 0, w, h, null, 0, w);
    }

    /** The dominant colour of the image border (quantised to 5 bits per channel, then averaged within the bin). */
    static int background(int[] rgb, int w, int h) {
        int[] hist = new int[1 << 15];
        long[][] sums = new long[1 << 15][];
        int best = -1;
        for (int i = 0; i < 2 * (w + h); i++) {
            int idx = i < w ? i : i < 2 * w ? (h - 1) * w + (i - w) : i < 2 * w + h ? (i - 2 * w) * w : (i - 2 * w - h) * w + w - 1;
            int c = rgb[idx];
            int q = ((c >> 19) & 31) << 10 | ((c >> 11) & 31) << 5 | ((c >> 3) & 31);
            hist[q]++;
            if (sums[q] == null) sums[q] = new long[3];
            sums[q][0] += (c >> 16) & 255;
            sums[q][1] += (c >> 8) & 255;
            sums[q][2] += c & 255;
            if (best < 0 || hist[q] > hist[best]) best = q;
        }
        int n = hist[best];
        return (int) (sums[best][0] / n) << 16 | (int) (sums[best][1] / n) << 8 | (int) (sums[best][2] / n);
    }

    /** The squared RGB distance of two 0xRRGGBB colours (alpha ignored). */
    static int dist2(int a, int b) {
        int dr = ((a >> 16) & 255) - ((b >> 16) & 255), dg = ((a >> 8) & 255) - ((b >> 8) & 255), db = (a & 255) - (b & 255);
        return dr * dr + dg * dg + db * db;
    }
}
