package dev.gamagent.backend;

import java.util.List;

/**
 * One generated token with its log-probability and the top-k alternatives (possibly empty).
 * A log-prob of {@code Double.NEGATIVE_INFINITY} means probability 0 (servers send -9999 or -inf).
 */
public record TokenLogprob(String token, double logprob, List<Alternative> top) {
    public TokenLogprob { top = top == null ? List.of() : List.copyOf(top); }

    public record Alternative(String token, double logprob) { }

    /** Probability of a log-prob as servers send it: -9999 and below, -inf and NaN are 0. */
    public static double probability(double logprob) {
        if (Double.isNaN(logprob) || logprob <= -9999 || logprob == Double.NEGATIVE_INFINITY) return 0.0;
        return Math.min(1.0, Math.exp(logprob));
    }
}
