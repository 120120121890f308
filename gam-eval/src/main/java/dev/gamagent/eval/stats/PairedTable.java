package dev.gamagent.eval.stats;

/**
 * Two methods graded on the same n items: {@code bothRight}, {@code onlyFirst} (first right, second wrong),
 * {@code onlySecond} and {@code bothWrong}; Newcombe's e, f, g, h.
 */
public record PairedTable(int bothRight, int onlyFirst, int onlySecond, int bothWrong) {
    public PairedTable {
        if (bothRight < 0 || onlyFirst < 0 || onlySecond < 0 || bothWrong < 0) {
            throw new IllegalArgumentException("paired counts must be ≥ 0: " + bothRight + ", " + onlyFirst + ", " + onlySecond + ", " + bothWrong);
        }
    }

    public int n() { return bothRight + onlyFirst + onlySecond + bothWrong; }

    public int firstRight() { return bothRight + onlyFirst; }

    public int secondRight() { return bothRight + onlySecond; }

    /** First accuracy − second accuracy on these items: (f − g)/n; NaN when n = 0. */
    public double difference() { return n() == 0 ? Double.NaN : (double) (onlyFirst - onlySecond) / n(); }

    /** McNemar's exact two-sided p-value on the discordant items ({@link Binomial#mcNemarExact}). */
    public double mcNemarP() { return Binomial.mcNemarExact(onlyFirst, onlySecond); }

    /**
     * Newcombe's (1998) method 10 for the difference of paired proportions: the square-and-add of the two marginal
     * Wilson intervals with the correlation correction φ (φ = 0 when a margin is empty; continuity-corrected toward 0
     * when the items agree more than chance: (eh − fg − n/2)⁺ / √((e+f)(g+h)(e+g)(f+h))). Null for n = 0.
     */
    public Interval newcombe(double level) {
        int n = n();
        if (n == 0) return null;
        double e = bothRight, f = onlyFirst, g = onlySecond, h = bothWrong;
        double p1 = (e + f) / n, p2 = (e + g) / n, d = (f - g) / n;
        Interval w1 = Binomial.wilson(bothRight + onlyFirst, n, level), w2 = Binomial.wilson(bothRight + onlySecond, n, level);
        double margins = (e + f) * (g + h) * (e + g) * (f + h);
        double phi = 0;
        if (margins > 0) {
            double num = e * h > f * g ? Math.max(e * h - f * g - n / 2.0, 0) : e * h - f * g;
            phi = num / Math.sqrt(margins);
        }
        double dl1 = p1 - w1.lo(), du1 = w1.hi() - p1, dl2 = p2 - w2.lo(), du2 = w2.hi() - p2;
        double lo = d - Math.sqrt(Math.max(0, dl1 * dl1 - 2 * phi * dl1 * du2 + du2 * du2));
        double hi = d + Math.sqrt(Math.max(0, dl2 * dl2 - 2 * phi * dl2 * du1 + du1 * du1));
        return new Interval(Math.max(-1, lo), Math.min(1, hi));
    }
}
