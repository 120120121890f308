package dev.gamagent.eval.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap intervals over graded items (Efron and Tibshirani 1993, ch. 13): resample the n items with
 * replacement, recompute the statistic, take the (1−level)/2 and (1+level)/2 quantiles of the resampled values. A
 * paired difference resamples items, so both methods keep their answers to the same question. The seed is fixed:
 * the same data gives the same interval in every report.
 */
public final class Bootstrap {
    private Bootstrap() { }

    public static final int RESAMPLES = 2000;
    public static final long SEED = 20261201L;

    /** The interval of a proportion, {@code right} of {@code n} items; null for n = 0. */
    public static Interval proportion(int right, int n, double level, int resamples, long seed) {
        if (right < 0 || right > n) throw new IllegalArgumentException("successes " + right + " out of range for " + n + " items");
        if (n == 0) return null;
        SplittableRandom rng = new SplittableRandom(seed);
        double[] stats = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            int k = 0;
            for (int i = 0; i < n; i++) if (rng.nextInt(n) < right) k++;
            stats[b] = (double) k / n;
        }
        return percentile(stats, level);
    }

    /** The interval of first − second accuracy on paired items; null for n = 0. */
    public static Interval difference(PairedTable t, double level, int resamples, long seed) {
        int n = t.n();
        if (n == 0) return null;
        SplittableRandom rng = new SplittableRandom(seed);
        int f = t.onlyFirst(), g = t.onlySecond();
        double[] stats = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            int diff = 0;
            for (int i = 0; i < n; i++) {
                // items are ordered [onlyFirst | onlySecond | the concordant rest]; only the discordant ones move Δ
                int pick = rng.nextInt(n);
                if (pick < f) diff++;
                else if (pick < f + g) diff--;
            }
            stats[b] = (double) diff / n;
        }
        return percentile(stats, level);
    }

    /** The two-sided percentile interval of the values (quantiles by linear interpolation, R's type 7). */
    static Interval percentile(double[] values, double level) {
        if (!(level > 0 && level < 1)) throw new IllegalArgumentException("a confidence level is between 0 and 1, got " + level);
        double[] v = values.clone();
        Arrays.sort(v);
        return new Interval(quantile(v, (1 - level) / 2), quantile(v, (1 + level) / 2));
    }

    static double quantile(double[] sorted, double q) {
        double h = (sorted.length - 1) * q;
        int i = (int) Math.floor(h);
        if (i >= sorted.length - 1) return sorted[sorted.length - 1];
        return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
    }
}
