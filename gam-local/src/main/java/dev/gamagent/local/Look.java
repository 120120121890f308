package dev.gamagent.local;

import java.util.SplittableRandom;

/**
 * One way of looking at an image: the text reader, the segmentation, the image scale and the threshold level
 * (0 = the instruments' own thresholds; ±1 = one step stricter or looser). A greedy call looks the role's way
 * ({@link #of}); a sampled call, or a second look in a debate, draws its look ({@link #draw}), the way a VLM's
 * sampled answer rests on a somewhat different reading of the same pixels. Perception is cached per image and
 * look, never per request, so drawn looks repeat the work only for a look not seen before.
 */
public record Look(Sight.Reader reader, Sight.Segmentation segmentation, double scale, int threshold) {
    public Look {
        if (threshold < -1 || threshold > 1) throw new IllegalArgumentException("threshold level must be -1, 0 or 1, got " + threshold);
        if (!(scale > 0)) throw new IllegalArgumentException("scale must be > 0, got " + scale);
    }

    /** The role's own instruments at the image's own size and thresholds: what a greedy call sees. */
    public static Look of(Expertise e) { return new Look(e.reader(), e.segmentation(), 1.0, 0); }

    /** Whether this is the role's own look (nothing drawn differently). */
    boolean isPlain(Expertise e) { return equals(of(e)); }

    /** A look drawn around the role's own one (see {@link Calibration}). */
    public static Look draw(Expertise e, SplittableRandom r, Calibration c) {
        Sight.Reader reader = r.nextDouble() < c.swapReader() ? other(e.reader()) : e.reader();
        Sight.Segmentation seg = r.nextDouble() < c.swapSegmentation() ? other(e.segmentation()) : e.segmentation();
        double scale = scale(r.nextDouble(), c.scaleSpread());
        int threshold = r.nextDouble() < c.thresholdShift() ? (r.nextBoolean() ? 1 : -1) : 0;
        return new Look(reader, seg, scale, threshold);
    }

    /** A scale from {@link Calibration#SCALES}, each weighted by a log-normal density of spread {@code sigma} around 1. */
    static double scale(double u, double sigma) {
        double[] grid = Calibration.SCALES;
        if (sigma <= 0) return 1.0;
        double[] w = new double[grid.length];
        double s = 0;
        for (int i = 0; i < grid.length; i++) {
            double z = Math.log(grid[i]) / sigma;
            w[i] = Math.exp(-0.5 * z * z);
            s += w[i];
        }
        double x = u * s;
        for (int i = 0; i < grid.length; i++) {
            x -= w[i];
            if (x <= 0) return grid[i];
        }
        return grid[grid.length - 1];
    }

    private static Sight.Reader other(Sight.Reader r) { return r == Sight.Reader.V4 ? Sight.Reader.V3 : Sight.Reader.V4; }

    private static Sight.Segmentation other(Sight.Segmentation s) {
        return s == Sight.Segmentation.CLASSICAL ? Sight.Segmentation.CORES : Sight.Segmentation.CLASSICAL;
    }

    @Override public String toString() {
        return String.format(java.util.Locale.ROOT, "%s/%s at %.2fx, thresholds %+d", reader, segmentation, scale, threshold);
    }
}
