package dev.gamagent.game;

/**
 * C = Σ_{i<j} w_i·w_j·(1 − Sim_ij) / Σ_{i<j} w_i·w_j (DESIGN.md §4): the weight-averaged pairwise
 * disagreement. One agent (or all weight on one agent) has no pairs and no conflict: 0.
 */
public final class Conflict {
    private Conflict() { }

    public static double of(double[] w, double[][] sim) {
        double num = 0, den = 0;
        for (int i = 0; i < w.length; i++) {
            for (int j = i + 1; j < w.length; j++) {
                double ww = w[i] * w[j];
                num += ww * (1 - clamp(sim[i][j]));
                den += ww;
            }
        }
        return den <= 0 ? 0 : Math.max(0, Math.min(1, num / den));
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v)); }
}
