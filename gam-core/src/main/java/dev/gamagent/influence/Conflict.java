package dev.gamagent.influence;

import java.util.Arrays;

/**
 * {@code C = Σ_{i<j} w_i·w_j·(1 − Sim_ij) / Σ_{i<j} w_i·w_j} (docs/design.md §4): the weight-averaged pairwise
 * disagreement. One agent (or all weight on one agent) has no pairs and no conflict: 0.
 */
final class Conflict {
    private Conflict() { }

    public static double of(double[] w, double[][] sim) {
        boolean[] all = new boolean[w.length];
        Arrays.fill(all, true);
        return of(w, sim, all);
    }

    /** C over the pairs of agents that hold an opinion: an agent without one cannot disagree (docs/design.md §5). */
    public static double of(double[] w, double[][] sim, boolean[] opinion) {
        double num = 0, den = 0;
        for (int i = 0; i < w.length; i++) {
            if (!opinion[i]) continue;
            for (int j = i + 1; j < w.length; j++) {
                if (!opinion[j]) continue;
                double ww = w[i] * w[j];
                num += ww * (1 - clamp(sim[i][j]));
                den += ww;
            }
        }
        return den <= 0 ? 0 : Math.max(0, Math.min(1, num / den));
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v)); }
}
