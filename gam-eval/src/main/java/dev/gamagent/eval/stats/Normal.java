package dev.gamagent.eval.stats;

/** The standard normal distribution's CDF and quantile, to the precision the intervals need (about 1e-14). */
public final class Normal {
    private Normal() { }

    /**
     * Φ(x). For |x| ≤ 6 from the series erf(t) = 2/√π · e^(−t²) · Σ 2ⁿ t^(2n+1) / (1·3·…·(2n+1)) (Abramowitz and
     * Stegun 7.1.6), whose terms are all positive, so nothing cancels; beyond ±6 it is 0 or 1 to double precision.
     */
    public static double cdf(double x) {
        if (Double.isNaN(x)) return Double.NaN;
        if (x > 6) return 1;
        if (x < -6) return 0;
        double t = Math.abs(x) / Math.sqrt(2);
        double term = t, sum = t;
        for (int n = 1; n < 500 && term > 1e-17 * sum; n++) {
            term *= 2 * t * t / (2 * n + 1);
            sum += term;
        }
        double erf = 2 / Math.sqrt(Math.PI) * Math.exp(-t * t) * sum;
        return x >= 0 ? 0.5 + erf / 2 : 0.5 - erf / 2;
    }

    /** The p-quantile, 0 &lt; p &lt; 1, by bisection on {@link #cdf} (monotone, so this cannot go wrong). */
    public static double quantile(double p) {
        if (!(p > 0 && p < 1)) throw new IllegalArgumentException("a normal quantile needs 0 < p < 1, got " + p);
        double lo = -7, hi = 7;
        for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid) < p) lo = mid; else hi = mid;
        }
        return (lo + hi) / 2;
    }

    /** The z of a two-sided interval at {@code level} (1.959964 at 0.95). */
    public static double twoSidedZ(double level) {
        if (!(level > 0 && level < 1)) throw new IllegalArgumentException("a confidence level is between 0 and 1, got " + level);
        return quantile(1 - (1 - level) / 2);
    }
}
