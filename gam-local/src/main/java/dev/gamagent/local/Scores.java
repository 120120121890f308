package dev.gamagent.local;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The arithmetic the family reasoners share: a distribution over the options from a score per option, what a claim
 * states, the logistic and normal curves their scores go through, and the index of the largest value.
 */
final class Scores {
    private Scores() { }

    /** What a claim states: the answer over the options when there are options (so claim and answer agree), else the perceived values. */
    static Distribution stated(Distribution perceived, Distribution answer, List<String> candidates) {
        return candidates.isEmpty() ? perceived : answer;
    }

    /** A distribution over candidates from a score per candidate, smoothed so no option is impossible. */
    static Distribution over(List<String> candidates, ToDoubleFunction<String> score) {
        double[] s = new double[candidates.size()];
        for (int i = 0; i < s.length; i++) s[i] = Math.max(0, score.applyAsDouble(candidates.get(i)));
        return Distribution.of(candidates, s).smoothed(Distribution.FLOOR);
    }

    static int argmax(double[] v) {
        int b = 0;
        for (int i = 1; i < v.length; i++) if (v[i] > v[b]) b = i;
        return b;
    }

    static double sigmoid(double x) { return 1 / (1 + Math.exp(-x)); }

    /** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf). */
    static double phi(double x) {
        double t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.sqrt(2));
        double y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
                * Math.exp(-x * x / 2);
        return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
    }
}
