package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;

import java.util.List;

/**
 * DREAM's uncertainty: ANLL = (1/T)·Σ_t log p(y_t) over generated tokens; u = 1 − exp(ANLL), one minus
 * the geometric-mean token probability (DREAM §3.1; docs/design.md §3). Tokens with probability 0 count as
 * log p = −30 so one impossible token does not make u exactly 1 for a long answer.
 */
public final class Anll {
    private Anll() { }

    public static double averageLogprob(List<TokenLogprob> tokens) {
        if (tokens.isEmpty()) return Double.NEGATIVE_INFINITY;
        double s = 0;
        for (TokenLogprob t : tokens) {
            double lp = t.logprob();
            s += (Double.isNaN(lp) || lp <= -30) ? -30 : Math.min(0, lp);
        }
        return s / tokens.size();
    }

    /** u = 1 − exp(ANLL) in [0,1]; 1 when there are no tokens. */
    public static double uncertainty(List<TokenLogprob> tokens) {
        if (tokens.isEmpty()) return 1.0;
        return Math.max(0, Math.min(1, 1 - Math.exp(averageLogprob(tokens))));
    }
}
