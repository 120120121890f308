package dev.gamagent.eval.stats;

import java.util.Locale;

/**
 * How accuracy intervals are computed. {@link #WILSON}: Wilson's score interval for a proportion, and for the
 * difference of two methods on the same questions Newcombe's (1998) method 10, built from the two Wilson
 * intervals with a correction for their correlation. {@link #BOOTSTRAP}: percentile intervals of
 * {@value Bootstrap#RESAMPLES} resamples of the graded items (paired: the same items for both methods), with a
 * fixed seed so that a report is reproducible.
 */
public enum IntervalMethod {
    WILSON("Wilson score", "Newcombe's paired score interval (1998, method 10)"),
    BOOTSTRAP("percentile bootstrap, " + Bootstrap.RESAMPLES + " resamples", "paired percentile bootstrap, " + Bootstrap.RESAMPLES + " resamples");

    private final String label, differenceLabel;

    IntervalMethod(String label, String differenceLabel) {
        this.label = label;
        this.differenceLabel = differenceLabel;
    }

    /** How an accuracy's interval is computed, for output ("Wilson score"). */
    public String label() { return label; }

    /** How a paired difference's interval is computed, for output. */
    public String differenceLabel() { return differenceLabel; }

    public static IntervalMethod of(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "wilson" -> WILSON;
            case "bootstrap" -> BOOTSTRAP;
            default -> throw new IllegalArgumentException("unknown interval method '" + name + "'; use wilson or bootstrap");
        };
    }

    /** A proportion's interval: {@code right} of {@code n} items. */
    public Interval proportion(int right, int n, double level) {
        return this == WILSON ? Binomial.wilson(right, n, level) : Bootstrap.proportion(right, n, level, Bootstrap.RESAMPLES, Bootstrap.SEED);
    }

    /** The interval of the difference (first method − second) on the items both answered. */
    public Interval difference(PairedTable t, double level) {
        return this == WILSON ? t.newcombe(level) : Bootstrap.difference(t, level, Bootstrap.RESAMPLES, Bootstrap.SEED);
    }
}
