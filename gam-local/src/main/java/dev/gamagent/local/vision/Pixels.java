package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.awt.image.SinglePixelPackedSampleModel;
import java.awt.image.WritableRaster;

/**
 * An image's pixels as {@link BufferedImage#getRGB(int, int, int, int, int[], int, int)} returns them (default sRGB,
 * 0xAARRGGBB, row-major), copied straight from the raster for the two integer layouts the model meets (decoded and
 * drawn images are {@code TYPE_INT_RGB}, some decoders give {@code TYPE_INT_ARGB}) instead of through the colour model
 * pixel by pixel; any other layout goes through {@code getRGB}.
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
}
