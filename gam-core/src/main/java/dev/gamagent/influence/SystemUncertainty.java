package dev.gamagent.influence;

/** U_sys = Σ_j w_j·U_j (GAM-Agent §3.4; docs/design.md §5), clipped to [0,1] against rounding. */
final class SystemUncertainty {
    private SystemUncertainty() { }

    public static double of(double[] w, double[] u) {
        if (w.length != u.length) throw new IllegalArgumentException(w.length + " weights for " + u.length + " uncertainties");
        if (w.length == 0) return 1.0;
        // a weighted mean of equal values is that value: summing could land a hair above it, and θ_U compares strictly
        boolean equal = true;
        for (double x : u) equal &= x == u[0];
        if (equal) return Math.max(0, Math.min(1, u[0]));
        double s = 0;
        for (int j = 0; j < w.length; j++) s += w[j] * u[j];
        return Math.max(0, Math.min(1, s));
    }
}
