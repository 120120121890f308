package dev.gamagent.influence;

/**
 * Influence weights from the utility game (GAM-Agent appendix E; docs/design.md §5). The total utility
 * Σ_i 𝒰_i(w) is linear in w, Σ_j w_j·s_j with s_j = (1 − U_j) + λ·Σ_{i≠j} Sim_ij − γ·N·U_j, and its
 * entropy-regularised maximum over the simplex has the closed form w = softmax(s/τ).
 */
public record InfluenceWeights(double lambda, double gamma, double tau) {
    public InfluenceWeights {
        if (!(tau >= 0)) throw new IllegalArgumentException("gam.tau must be ≥ 0, got " + tau);
    }


    /** s_j for every agent; {@code sim} is the symmetric N×N similarity matrix (diagonal ignored). */
    public double[] scores(double[] u, double[][] sim) {
        int n = u.length;
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            double agree = 0;
            for (int i = 0; i < n; i++) if (i != j) agree += sim[i][j];
            s[j] = (1 - u[j]) + lambda * agree - gamma * n * u[j];
        }
        return s;
    }

    /** w = softmax(s/τ) (appendix E, with the entropy regulariser of docs/design.md §5). */
    public double[] weights(double[] u, double[][] sim) { return softmax(scores(u, sim), tau); }

    /**
     * softmax(s/τ), shifted by max(s) so a tiny τ cannot overflow exp; τ = 0 (or an infinite score) gives the
     * uniform weight over the best agents.
     */
    public static double[] softmax(double[] s, double tau) {
        int n = s.length;
        double[] w = new double[n];
        if (n == 0) return w;
        // a NaN score (bad input) carries no weight rather than turning every weight into NaN
        double[] sc = new double[n];
        for (int j = 0; j < n; j++) sc[j] = Double.isNaN(s[j]) ? Double.NEGATIVE_INFINITY : s[j];
        double max = Double.NEGATIVE_INFINITY;
        for (double v : sc) max = Math.max(max, v);
        if (max == Double.NEGATIVE_INFINITY) {
            java.util.Arrays.fill(w, 1.0 / n); // nothing to prefer: uniform
            return w;
        }
        if (tau == 0 || max == Double.POSITIVE_INFINITY) {
            int ties = 0;
            for (double v : sc) if (v == max) ties++;
            for (int j = 0; j < n; j++) w[j] = sc[j] == max ? 1.0 / ties : 0;
            return w;
        }
        double z = 0;
        for (int j = 0; j < n; j++) {
            double x = (sc[j] - max) / tau; // NaN only for −∞/∞ (a NaN score under τ = ∞): no weight
            w[j] = Double.isNaN(x) ? 0 : Math.exp(x);
            z += w[j];
        }
        for (int j = 0; j < n; j++) w[j] /= z;
        return w;
    }

    /** The regularised objective Σ_j w_j·s_j + τ·H(w) that {@link #softmax} maximises over the simplex. */
    public static double objective(double[] w, double[] s, double tau) {
        double lin = 0, h = 0;
        for (int j = 0; j < w.length; j++) {
            lin += w[j] * s[j];
            if (w[j] > 0) h -= w[j] * Math.log(w[j]);
        }
        return lin + tau * h;
    }

    /** Σ_i 𝒰_i(w) computed term by term from the per-agent utilities of appendix E (for tests and traces). */
    public double totalUtility(double[] w, double[] u, double[][] sim) {
        int n = u.length;
        double uSys = SystemUncertainty.of(w, u);
        double total = 0;
        for (int i = 0; i < n; i++) {
            double collab = 0;
            for (int j = 0; j < n; j++) if (j != i) collab += w[j] * sim[i][j];
            total += w[i] * (1 - u[i]) + lambda * collab - gamma * uSys;
        }
        return total;
    }
}
