package dev.gamagent.local.vision;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The column-sorted 3×3 median gives, bit for bit, what a per-pixel sort of the nine values gives (the filter it
 * replaced, kept here as the reference): on noise, on flat areas with speckles (where the untouched pixels keep their
 * alpha), on generated benchmark images and on the smallest sizes.
 */
class MedianFilterTest {
    @Test
    void equalsTheSortedNineOnNoise() {
        Random rnd = new Random(7);
        for (int t = 0; t < 40; t++) {
            int w = 1 + rnd.nextInt(40), h = 1 + rnd.nextInt(40);
            int[] src = new int[w * h];
            int levels = 1 + rnd.nextInt(t % 2 == 0 ? 4 : 256); // few levels: many ties; many: JPEG-like noise
            for (int i = 0; i < src.length; i++) {
                int r = rnd.nextInt(levels), g = rnd.nextInt(levels), b = rnd.nextInt(levels);
                src[i] = (rnd.nextBoolean() ? 0xFF000000 : 0) | r << 16 | g << 8 | b;
            }
            assertThat(MedianFilter.median3x3(src, w, h)).as("%dx%d, %d levels", w, h, levels)
                    .isEqualTo(reference(src, w, h));
        }
    }

    @Test
    void flatAreasKeepTheirPixelsAndSpecklesGo() {
        int w = 30, h = 20;
        int[] src = new int[w * h];
        java.util.Arrays.fill(src, 0xFFF0F0F0);
        src[5 * w + 7] = 0xFF000000; // a speckle
        for (int x = 0; x < w; x++) src[12 * w + x] = 0xFF202020; // a one-pixel line
        int[] out = MedianFilter.median3x3(src, w, h);
        assertThat(out).isEqualTo(reference(src, w, h));
        assertThat(out[5 * w + 7] & 0xFFFFFF).isEqualTo(0xF0F0F0);
        assertThat(out[12 * w + 10] & 0xFFFFFF).isEqualTo(0xF0F0F0);
        assertThat(out[2 * w + 2]).as("a flat pixel keeps its alpha").isEqualTo(0xFFF0F0F0);
    }

    @Test
    void equalsTheSortedNineOnGeneratedImages() {
        BenchmarkGenerator gen = new BenchmarkGenerator(424242L);
        int i = 0;
        for (Family f : Family.values()) {
            for (int k = 0; k < 3; k++) {
                BenchItem it = gen.generate(i++, f);
                BufferedImage img = it.image();
                int w = img.getWidth(), h = img.getHeight();
                int[] src = img.getRGB(0, 0, w, h, null, 0, w);
                assertThat(MedianFilter.median3x3(src, w, h)).as("%s item %d", f, i).isEqualTo(reference(src, w, h));
            }
        }
    }

    /** The per-pixel filter: the nine values of each channel sorted; a pixel among nine of its own colour untouched. */
    private static int[] reference(int[] src, int w, int h) {
        int[] out = src.clone();
        int[] r = new int[9], g = new int[9], b = new int[9];
        for (int y = 1; y < h - 1; y++) {
            for (int x = 1; x < w - 1; x++) {
                int k = 0;
                boolean same = true;
                int c0 = src[y * w + x] & 0xFFFFFF;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int c = src[(y + dy) * w + x + dx];
                        if ((c & 0xFFFFFF) != c0) same = false;
                        r[k] = (c >> 16) & 255;
                        g[k] = (c >> 8) & 255;
                        b[k] = c & 255;
                        k++;
                    }
                }
                if (same) continue;
                java.util.Arrays.sort(r);
                java.util.Arrays.sort(g);
                java.util.Arrays.sort(b);
                out[y * w + x] = r[4] << 16 | g[4] << 8 | b[4];
            }
        }
        return out;
    }
}
