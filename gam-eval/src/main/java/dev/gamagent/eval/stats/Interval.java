package dev.gamagent.eval.stats;

/** A two-sided confidence interval [lo, hi] (for a proportion or a difference of proportions). */
public record Interval(double lo, double hi) {
    public Interval {
        if (!(lo <= hi)) throw new IllegalArgumentException("interval bounds out of order: [" + lo + ", " + hi + "]");
    }

    public boolean contains(double x) { return lo <= x && x <= hi; }

    /** Half the width: what a "±" column prints (the Wilson interval is not symmetric about the estimate). */
    public double halfWidth() { return (hi - lo) / 2; }
}
