package dev.gamagent.uncertainty;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Uncertainty from how n sampled answers agree with an agent's answer, for backends without log-probs (docs/GAM.md,
 * "Without log-probs"). Multiple choice: the option distribution is the sample frequencies plus one uniform
 * pseudo-sample, p(k) = (c_k + 1/K) / (n + 1) (an unreadable sample counts 1/K for every option), and U inverts
 * DESIGN §4's smoothing, U = (1 − p(chosen))·K/(K − 1), so the smoothed one-hot at this U gives the same p(chosen).
 * Open answers: U = 1 − the mean pairwise similarity of the answer and its samples.
 */
public final class SampleAgreement {
    private SampleAgreement() { }

    /** Smoothed sample frequencies over {@code letters}; a key that is not an option letter counts as unreadable. */
    public static Map<String, Double> frequencies(List<String> keys, List<String> letters) {
        int k = letters.size();
        Map<String, Double> p = new LinkedHashMap<>();
        for (String l : letters) p.put(l, 0.0);
        for (String key : keys) {
            if (key != null && p.containsKey(key)) p.merge(key, 1.0, Double::sum);
            else for (String l : letters) p.merge(l, 1.0 / k, Double::sum);
        }
        double total = keys.size() + 1;
        p.replaceAll((l, c) -> (c + 1.0 / k) / total);
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

    /** The even blend of two option distributions over the same letters. */
    public static Map<String, Double> blend(Map<String, Double> a, Map<String, Double> b) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (var e : a.entrySet()) out.put(e.getKey(), (e.getValue() + b.getOrDefault(e.getKey(), 0.0)) / 2);
        return out;
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 1 : Math.max(0, Math.min(1, v)); }
}
