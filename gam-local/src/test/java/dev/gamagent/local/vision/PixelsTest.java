package dev.gamagent.local.vision;

import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The raster copy gives what {@code getRGB} gives, for every layout, sub-images included. */
class PixelsTest {
    private static BufferedImage noisy(int type, int w, int h, long seed) {
        BufferedImage img = new BufferedImage(w, h, type);
        Random rnd = new Random(seed);
        Graphics2D g = img.createGraphics();
        for (int i = 0; i < 40; i++) {
            g.setColor(new Color(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
            g.fillOval(rnd.nextInt(w), rnd.nextInt(h), 1 + rnd.nextInt(w), 1 + rnd.nextInt(h));
        }
        g.dispose();
        return img;
    }

    private static int[] viaColorModel(BufferedImage img) {
        return img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    }

    @Test void everyLayoutAndSubImage() {
        int[] types = {BufferedImage.TYPE_INT_RGB, BufferedImage.TYPE_INT_ARGB, BufferedImage.TYPE_INT_ARGB_PRE, BufferedImage.TYPE_INT_BGR,
                BufferedImage.TYPE_3BYTE_BGR, BufferedImage.TYPE_4BYTE_ABGR, BufferedImage.TYPE_BYTE_GRAY};
        for (int type : types) {
            BufferedImage img = noisy(type, 37, 23, type);
            assertThat(Pixels.argb(img)).as("type %d", type).isEqualTo(viaColorModel(img));
            BufferedImage sub = img.getSubimage(5, 3, 20, 11);
            assertThat(Pixels.argb(sub)).as("sub-image of type %d", type).isEqualTo(viaColorModel(sub));
        }
    }

    @Test void theUnusedTopByteOfAnRgbPixelIsIgnored() {
        BufferedImage img = new BufferedImage(2, 1, BufferedImage.TYPE_INT_RGB);
        int[] data = ((java.awt.image.DataBufferInt) img.getRaster().getDataBuffer()).getData();
        data[0] = 0x12345678;
        data[1] = 0x00ABCDEF;
        assertThat(Pixels.argb(img)).containsExactly(0xFF345678, 0xFFABCDEF).isEqualTo(viaColorModel(img));
    }
}
