package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;

import java.util.List;

/**
 * DebUnc's uncertainty measure (Yoffe et al. 2024; the authors' code runs lm-polygraph's {@code MeanTokenEntropy}): the
 * mean over the generated tokens of the entropy −Σ p·ln p of each token's distribution, in nats (not normalised). The
 * authors read the full vocabulary from the model; an HTTP server gives the top-k alternatives, so the mass outside them
 * counts as one more outcome (a lower bound of the full entropy). With only the chosen token's probability p the token's
 * entropy is that of (p, 1 − p).
 */
public final class MeanTokenEntropy {
    private MeanTokenEntropy() { }

    /** The mean token entropy in nats, or NaN when there are no tokens. */
    public static double of(List<TokenLogprob> tokens) {
        if (tokens.isEmpty()) return Double.NaN;
        double s = 0;
        for (TokenLogprob t : tokens) s += token(t);
        return s / tokens.size();
    }

    /** One token's entropy: over its top-k alternatives and the residual mass, or (p, 1 − p) without alternatives. */
    static double token(TokenLogprob t) {
        List<TokenLogprob.Alternative> top = t.top();
        if (top.size() < 2) {
            double p = TokenLogprob.probability(t.logprob());
            return -term(p) - term(1 - p);
        }
        double sum = 0, h = 0;
        double[] p = new double[top.size()];
        for (int j = 0; j < p.length; j++) {
            p[j] = TokenLogprob.probability(top.get(j).logprob());
            sum += p[j];
        }
        double residual = Math.max(0, 1 - sum);
        double norm = sum + residual; // > 1 only when a server's top-k over-sums from rounding
        for (double pj : p) h -= term(pj / norm);
        return h - term(residual / norm);
    }

    private static double term(double p) { return p <= 0 ? 0 : p * Math.log(p); }
}
