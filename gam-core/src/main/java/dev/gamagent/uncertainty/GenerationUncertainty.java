package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;

import java.util.List;

/**
 * Φ_gen from token log-probabilities (GAM-Agent §2, appendix E; docs/design.md §3):
 * Φ_t = α·Ĥ_t + β·(1 − Δ_t), Ĥ_t the entropy of (p_t1..p_tk, residual) over ln(k+1), Δ_t the top-two gap;
 * Φ_gen is the mean over scored tokens. With only the chosen token: Φ_t = 1 − p_t.
 *
 * @param alpha the weight of the normalised entropy Ĥ_t
 * @param beta  the weight of the top-two gap term 1 − Δ_t
 */
public record GenerationUncertainty(double alpha, double beta) {
    public static GenerationUncertainty paperDefaults() { return new GenerationUncertainty(0.5, 0.5); }

    /** Φ_t of one token. */
    public double token(TokenLogprob t) {
        List<TokenLogprob.Alternative> top = t.top();
        if (top.size() < 2) return 1.0 - TokenLogprob.probability(t.logprob());
        int k = top.size();
        double[] p = new double[k];
        double sum = 0;
        for (int j = 0; j < k; j++) {
            p[j] = TokenLogprob.probability(top.get(j).logprob());
            sum += p[j];
        }
        double residual = Math.max(0, 1 - sum);
        double norm = sum + residual; // > 1 only when a server's top-k over-sums from rounding
        double h = 0;
        for (double pj : p) h -= entropyTerm(pj / norm);
        h -= entropyTerm(residual / norm);
        double hNorm = h / Math.log(k + 1);
        double first = 0, second = 0;
        for (double pj : p) {
            if (pj > first) { second = first; first = pj; }
            else if (pj > second) second = pj;
        }
        double gap = Math.min(1, first) - Math.min(1, second);
        return clamp(alpha * clamp(hNorm) + beta * (1 - gap));
    }

    /** Φ_gen: the mean of Φ_t over {@code tokens}; 1 when there are none. */
    public double mean(List<TokenLogprob> tokens) {
        if (tokens.isEmpty()) return 1.0;
        double s = 0;
        for (TokenLogprob t : tokens) s += token(t);
        return clamp(s / tokens.size());
    }

    private static double entropyTerm(double p) { return p <= 0 ? 0 : p * Math.log(p); }

    private static double clamp(double v) { return Double.isNaN(v) ? 1 : Math.max(0, Math.min(1, v)); }
}
