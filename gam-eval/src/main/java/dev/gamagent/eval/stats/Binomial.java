package dev.gamagent.eval.stats;

/** Intervals and exact tests for binomial counts. */
public final class Binomial {
    private Binomial() { }

    /**
     * Wilson's score interval for {@code k} successes in {@code n} trials (Wilson 1927; Newcombe 1998, method 3):
     * (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n). Unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not
     * empty at 0 or n successes. Null for n = 0 (nothing was graded).
     */
    public static Interval wilson(int k, int n, double level) {
        if (k < 0 || k > n) throw new IllegalArgumentException("successes " + k + " out of range for " + n + " trials");
        if (n == 0) return null;
        double z = Normal.twoSidedZ(level), p = (double) k / n, z2 = z * z;
        double centre = p + z2 / (2 * n), spread = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)), d = 1 + z2 / n;
        // at k = 0 or k = n one bound is exactly 0 or 1; rounding must not push it past
        double lo = k == 0 ? 0 : Math.max(0, (centre - spread) / d), hi = k == n ? 1 : Math.min(1, (centre + spread) / d);
        return new Interval(lo, hi);
    }

    /**
     * Two-sided exact p-value of the sign test on the discordant pairs: P(X ≤ min(b, c)) doubled, capped at 1, for
     * X ~ Binomial(b + c, ½). This is McNemar's exact test (McNemar 1947; the "exact" or "mid-p-less" version of
     * Fagerland, Lydersen and Laake 2013); 1 when there is no discordant pair. Summed in log space, so any n works.
     */
    public static double mcNemarExact(int b, int c) {
        if (b < 0 || c < 0) throw new IllegalArgumentException("discordant counts must be ≥ 0, got " + b + " and " + c);
        int n = b + c, m = Math.min(b, c);
        if (n == 0 || b == c) return 1;
        double ln2n = n * Math.log(2), logC = 0, maxLog = -ln2n;
        double[] logs = new double[m + 1];
        for (int i = 0; i <= m; i++) {
            if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
            logs[i] = logC - ln2n;
            maxLog = Math.max(maxLog, logs[i]);
        }
        double sum = 0;
        for (double l : logs) sum += Math.exp(l - maxLog);
        return Math.min(1, 2 * Math.exp(maxLog + Math.log(sum)));
    }
}
