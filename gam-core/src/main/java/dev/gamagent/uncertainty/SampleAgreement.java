package dev.gamagent.uncertainty;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Uncertainty from how n sampled answers agree with an agent's answer, for backends without log-probs (docs/GAM.md,
 * "Without log-probs"). Multiple choice: the option distribution is the sample frequencies plus one pseudo-sample q,
 * p(k) = (c_k + q_k) / (n + 1) (an unreadable sample counts 1/K for every option); q is what the reply says of itself
 * when it says anything (a reported confidence or a hedge), else uniform. U inverts DESIGN §4's smoothing,
 * U = (1 − p(chosen))·K/(K − 1), so the smoothed one-hot at this U gives the same p(chosen).
 * Open answers: U = 1 − the mean pairwise similarity of the answer and its samples.
 */
public final class SampleAgreement {
    private SampleAgreement() { }

    /** Sample frequencies over {@code letters} smoothed by one uniform pseudo-sample. */
    public static Map<String, Double> frequencies(List<String> keys, List<String> letters) {
        return frequencies(keys, letters, null);
    }

    /**
     * Sample frequencies over {@code letters} smoothed by one pseudo-sample distributed as {@code prior} (a distribution
     * over {@code letters}; uniform when null); a key that is not an option letter counts as unreadable.
     */
    public static Map<String, Double> frequencies(List<String> keys, List<String> letters, Map<String, Double> prior) {
        int k = letters.size();
        Map<String, Double> p = new LinkedHashMap<>();
        for (String l : letters) p.put(l, 0.0);
        for (String key : keys) {
            if (key != null && p.containsKey(key)) p.merge(key, 1.0, Double::sum);
            else for (String l : letters) p.merge(l, 1.0 / k, Double::sum);
        }
        double total = keys.size() + 1;
        p.replaceAll((l, c) -> (c + (prior == null ? 1.0 / k : prior.getOrDefault(l, 0.0))) / total);
        return p;
    }

    /** U of the chosen option under distribution {@code p}: (1 − p(chosen))·K/(K − 1); 1 without a chosen option. */
    public static double optionUncertainty(Map<String, Double> p, String chosen) {
        int k = p.size();
        if (chosen == null || !p.containsKey(chosen) || k < 2) return 1.0;
        return clamp((1 - p.get(chosen)) * k / (k - 1));
    }

    /** 1 − mean pairwise similarity ({@code sim} symmetric, n×n); 1 with fewer than two answers. */
    public static double openUncertainty(double[][] sim) {
        int n = sim.length;
        if (n < 2) return 1.0;
        double s = 0;
        int pairs = 0;
        for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) { s += sim[i][j]; pairs++; }
        return clamp(1 - s / pairs);
    }

    /**
     * Open answers with one pseudo-sample of uncertainty {@code prior} (what the reply says of itself): the n samples'
     * U and the prior weighted n : 1, as the pseudo-sample weighs in the option frequencies.
     */
    public static double withPrior(double u, int samples, double prior) {
        return clamp((samples * u + prior) / (samples + 1));
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 1 : Math.max(0, Math.min(1, v)); }
}
