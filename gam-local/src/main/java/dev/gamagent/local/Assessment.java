package dev.gamagent.local;

import java.util.List;

/**
 * A critic's assessment of one claim (docs/CONTRACTS.md §1, the critique reply): its verdict as a distribution over
 * ACCURATE, PARTIALLY ACCURATE and INACCURATE (for the log-probs), the reason and the correction.
 */
record Assessment(int claim, Distribution verdict, String reason, String correction) {
    static final List<String> VERDICTS = List.of("ACCURATE", "PARTIALLY ACCURATE", "INACCURATE");

    String label() { return verdict.best(); }

    double confidence() { return verdict.bestProbability(); }

    /** ACCURATE with P(true), INACCURATE with P(false), a little mass on PARTIALLY ACCURATE. */
    static Distribution verdict(double pTrue, double partial) {
        pTrue = Math.max(0, Math.min(1, pTrue));
        return Distribution.of(VERDICTS, new double[]{pTrue * (1 - partial), partial, (1 - pTrue) * (1 - partial)}).smoothed(Distribution.FLOOR);
    }
}
