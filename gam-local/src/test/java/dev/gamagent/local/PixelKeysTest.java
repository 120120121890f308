package dev.gamagent.local;

import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The perception cache's pixel keys: the field arithmetic modulo 2^61 − 1 against BigInteger, the same key for the same
 * pixels in other image objects, a different key for every one-pixel change (colour or alpha, first pixel, last, the odd
 * pixel of an odd count), and other random points giving other keys that agree on equality.
 */
class PixelKeysTest {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE);

    @Test void theFieldArithmeticIsExact() {
        SplittableRandom r = new SplittableRandom(61);
        long p = P.longValueExact();
        long[] edges = {0, 1, 2, p - 1, p - 2, 1L << 60, (1L << 60) - 1, 0xFFFFFFFFFFFFL};
        for (int t = 0; t < 200_000; t++) {
            long a = t < 64 ? edges[t % edges.length] : r.nextLong(p), b = t < 64 ? edges[(t / edges.length) % edges.length] : r.nextLong(p);
            long w = t % 3 == 0 ? r.nextLong(1L << 48) : edges[t % edges.length] & 0xFFFFFFFFFFFFL;
            assertThat(PixelKeys.mul(a, b)).as("%d·%d", a, b)
                    .isEqualTo(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).mod(P).longValueExact());
            assertThat(PixelKeys.add(a, w)).as("%d+%d", a, w)
                    .isEqualTo(BigInteger.valueOf(a).add(BigInteger.valueOf(w)).mod(P).longValueExact());
        }
    }

    private static BufferedImage copy(BufferedImage src, int type) {
        BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), type);
        out.setRGB(0, 0, src.getWidth(), src.getHeight(), src.getRGB(0, 0, src.getWidth(), src.getHeight(), null, 0, src.getWidth()),
                0, src.getWidth());
        return out;
    }

    @Test void samePixelsSameKeyAndEveryOnePixelChangeAnother() {
        PixelKeys keys = new PixelKeys(new SplittableRandom(1));
        BufferedImage img = copy(new BenchmarkGenerator(3).generate(0, Family.CHART).image(), BufferedImage.TYPE_INT_RGB);
        String key = keys.of(img);
        assertThat(key).hasSize(32).matches("[0-9a-f]{32}");
        assertThat(keys.of(copy(img, BufferedImage.TYPE_INT_RGB))).as("the same pixels in another image object").isEqualTo(key);
        Random rnd = new Random(5);
        int w = img.getWidth(), h = img.getHeight();
        Set<String> seen = new HashSet<>(Set.of(key));
        for (int t = 0; t < 60; t++) {
            BufferedImage changed = copy(img, BufferedImage.TYPE_INT_RGB);
            int x = t == 0 ? 0 : t == 1 ? w - 1 : rnd.nextInt(w), y = t == 0 ? 0 : t == 1 ? h - 1 : rnd.nextInt(h);
            int bit = 1 << rnd.nextInt(24);
            changed.setRGB(x, y, changed.getRGB(x, y) ^ bit);
            assertThat(seen.add(keys.of(changed))).as("pixel (%d, %d) with bit %x flipped has a key of its own", x, y, bit).isTrue();
        }
    }

    @Test void oddPixelCountsAndAlphaCount() {
        PixelKeys keys = new PixelKeys(new SplittableRandom(2));
        BufferedImage odd = new BufferedImage(3, 3, BufferedImage.TYPE_INT_RGB); // nine pixels: the last one alone in its word
        String blank = keys.of(odd);
        odd.setRGB(2, 2, 0x000001);
        assertThat(keys.of(odd)).as("the odd last pixel is read").isNotEqualTo(blank);

        BufferedImage argb = new BufferedImage(4, 2, BufferedImage.TYPE_INT_ARGB);
        argb.setRGB(1, 1, 0xFF102030);
        String opaque = keys.of(argb);
        argb.setRGB(1, 1, 0x7F102030);
        assertThat(keys.of(argb)).as("alpha is read where the image has it").isNotEqualTo(opaque);
    }

    @Test void otherPointsOtherKeysSameEquality() {
        BufferedImage a = new BenchmarkGenerator(3).generate(1, Family.COUNT).image(), b = new BenchmarkGenerator(3).generate(2, Family.COUNT).image();
        PixelKeys one = new PixelKeys(), two = new PixelKeys();
        assertThat(one.of(a)).as("points drawn at random: keys are not comparable across processes").isNotEqualTo(two.of(a));
        assertThat(one.of(a)).isEqualTo(one.of(copy(a, BufferedImage.TYPE_INT_RGB))).isNotEqualTo(one.of(b));
        assertThat(two.of(a)).isEqualTo(two.of(copy(a, BufferedImage.TYPE_INT_RGB))).isNotEqualTo(two.of(b));
    }

    /** The key as the definition says: Horner's rule over the words in order, then the reading's word, in BigInteger. */
    private static String reference(BufferedImage img, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        BigInteger pm1 = P.subtract(BigInteger.ONE);
        BigInteger[] points = {BigInteger.valueOf(r.nextLong()).mod(pm1).add(BigInteger.ONE), BigInteger.valueOf(r.nextLong()).mod(pm1).add(BigInteger.ONE)};
        int w = img.getWidth(), h = img.getHeight();
        int[] px = img.getRGB(0, 0, w, h, null, 0, w);
        boolean alpha = img.getColorModel().hasAlpha();
        java.util.List<Long> words = new java.util.ArrayList<>();
        if (alpha) {
            for (int v : px) words.add(v & 0xFFFFFFFFL);
        } else {
            for (int i = 0; i < px.length; i += 2) {
                words.add(i + 1 < px.length ? (long) (px[i] & 0xFFFFFF) << 24 | (px[i + 1] & 0xFFFFFF) : px[i] & 0xFFFFFF);
            }
        }
        words.add(alpha ? 1L : 2L);
        StringBuilder key = new StringBuilder();
        for (BigInteger x : points) {
            BigInteger acc = BigInteger.ZERO;
            for (long word : words) acc = acc.multiply(x).add(BigInteger.valueOf(word)).mod(P);
            key.append(String.format(java.util.Locale.ROOT, "%016x", acc.longValueExact()));
        }
        return key.toString();
    }

    @Test void theKeyIsTheDefinitionsPolynomialWhateverThePixelCount() {
        Random rnd = new Random(9);
        for (int t = 0; t < 40; t++) {
            int w = 1 + rnd.nextInt(7), h = 1 + rnd.nextInt(5);
            BufferedImage img = new BufferedImage(w, h, t % 3 == 0 ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) img.setRGB(x, y, rnd.nextInt());
            assertThat(new PixelKeys(new SplittableRandom(t)).of(img)).as("%dx%d, alpha %s", w, h, t % 3 == 0).isEqualTo(reference(img, t));
        }
    }
}
