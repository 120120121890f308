package dev.gamagent.eval.stats;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's (1979) step-down correction for m tests: sorted ascending, p₍ᵢ₎ becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎).
 * Rejecting where the adjusted p is below α keeps the chance of any false rejection among the m at most α, and it
 * never rejects less than Bonferroni.
 */
public final class Holm {
    private Holm() { }

    /** The adjusted p-values, in the order given. */
    public static double[] adjust(double[] p) {
        int m = p.length;
        Integer[] order = IntStream.range(0, m).boxed().sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
        double[] out = new double[m];
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            int i = order[rank];
            if (Double.isNaN(p[i])) throw new IllegalArgumentException("p-value " + i + " is NaN");
            running = Math.max(running, Math.min(1, (m - rank) * p[i]));
            out[i] = running;
        }
        return out;
    }
}
