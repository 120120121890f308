package dev.gamagent.local;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One way of looking at an image: how much each text reader and each segmentation counts ({@code v4} is the weight of
 * PP-OCRv4, the rest PP-OCRv3's; {@code classical} the weight of the classical analyser, the rest the core
 * segmenter's), the image scale (never above 1: the model sees only what it was sent) and the threshold level (0 = the
 * instruments' own thresholds; ±1 = one step stricter or looser). A greedy call reads with its role's weights
 * ({@link #of}): the plain call pools every instrument equally, a role leans on its own. A sampled call, or a second
 * look in a debate, draws one reader and one segmentation by those weights, a scale and a threshold ({@link #draw}),
 * the way a VLM's sampled answer rests on one somewhat different reading of the same pixels: the greedy reading is what
 * the sampled ones average to. Perception is cached per image and instrument, never per request.
 */
public record Look(double v4, double classical, double scale, int threshold) {
    public Look {
        if (threshold < -1 || threshold > 1) throw new IllegalArgumentException("threshold level must be -1, 0 or 1, got " + threshold);
        if (!(scale > 0) || scale > 1) throw new IllegalArgumentException("scale must be in (0, 1] (the model never enlarges what it was sent), got " + scale);
        if (!(v4 >= 0 && v4 <= 1) || !(classical >= 0 && classical <= 1)) {
            throw new IllegalArgumentException("instrument weights must be in [0,1], got " + v4 + " and " + classical);
        }
    }

    /** A look with one reader and one segmentation. */
    public Look(Sight.Reader reader, Sight.Segmentation segmentation, double scale, int threshold) {
        this(reader == Sight.Reader.V4 ? 1 : 0, segmentation == Sight.Segmentation.CLASSICAL ? 1 : 0, scale, threshold);
    }

    /** The role's own reading at the image's own size and thresholds: what a greedy call sees. */
    public static Look of(Expertise e, Calibration c) {
        return new Look(e.weight(Sight.Reader.V4, c), e.weight(Sight.Segmentation.CLASSICAL, c), 1.0, 0);
    }

    /** The weight of reader {@code r}. */
    public double weight(Sight.Reader r) { return r == Sight.Reader.V4 ? v4 : 1 - v4; }

    /** The weight of segmentation {@code s}. */
    public double weight(Sight.Segmentation s) { return s == Sight.Segmentation.CLASSICAL ? classical : 1 - classical; }

    /** A look drawn from the role's reading (see {@link Calibration}): one reader, one segmentation, a scale, a threshold. */
    public static Look draw(Expertise e, SplittableRandom r, Calibration c) {
        Sight.Reader reader = r.nextDouble() < e.weight(Sight.Reader.V4, c) ? Sight.Reader.V4 : Sight.Reader.V3;
        Sight.Segmentation seg = r.nextDouble() < e.weight(Sight.Segmentation.CLASSICAL, c) ? Sight.Segmentation.CLASSICAL : Sight.Segmentation.CORES;
        double scale = scale(r.nextDouble(), c.scaleSpread());
        int threshold = r.nextDouble() < c.thresholdShift() ? (r.nextBoolean() ? 1 : -1) : 0;
        return new Look(reader, seg, scale, threshold);
    }

    /** A scale from {@link Calibration#SCALES}, each weighted by a log-normal density of spread {@code sigma} around 1. */
    static double scale(double u, double sigma) {
        List<Double> grid = Calibration.SCALES;
        if (sigma <= 0) return 1.0;
        double[] w = new double[grid.size()];
        double s = 0;
        for (int i = 0; i < w.length; i++) {
            double z = Math.log(grid.get(i)) / sigma;
            w[i] = Math.exp(-0.5 * z * z);
            s += w[i];
        }
        double x = u * s;
        for (int i = 0; i < w.length; i++) {
            x -= w[i];
            if (x <= 0) return grid.get(i);
        }
        return grid.get(w.length - 1);
    }

    @Override public String toString() {
        return String.format(Locale.ROOT, "%s/%s at %.2fx, thresholds %+d", part(v4, "V4", "V3"), part(classical, "classical", "cores"),
                scale, threshold);
    }

    private static String part(double w, String first, String second) {
        if (w >= 1) return first;
        if (w <= 0) return second;
        return String.format(Locale.ROOT, "%s %.2f + %s %.2f", first, w, second, 1 - w);
    }
}
