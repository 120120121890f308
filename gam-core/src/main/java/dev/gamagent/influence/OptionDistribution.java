package dev.gamagent.influence;

import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.uncertainty.AnswerSpan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent's probability over the option letters (docs/design.md §4): from the top-k log-probs of the token
 * that spells its answer letter, restricted to option letters and renormalised; without them, one-hot on
 * the chosen letter smoothed by its uncertainty, p(chosen) = 1 − U·(K−1)/K, the rest shared equally.
 */
public final class OptionDistribution {
    private OptionDistribution() { }

    /**
     * The distribution read from the answer-letter token's alternatives, or null when no token spelling
     * {@code chosen} carries at least two alternatives, or none of them is an option letter with non-zero
     * mass. One option letter among the alternatives gives a one-hot distribution (docs/design.md §4 restricts
     * and renormalises; the other letters ranked below the top-k, so their mass is negligible).
     */
    public static Map<String, Double> fromLogprobs(List<TokenLogprob> tokens, List<String> letters, String chosen) {
        if (chosen == null || tokens.isEmpty()) return null;
        TokenLogprob letterToken = null;
        // prefer the letter inside the located answer span ("ANSWER: B", "answer": "B"), else the last one
        for (TokenLogprob t : AnswerSpan.tokens(tokens, chosen)) {
            if (chosen.equals(letterOf(t.token())) && t.top().size() >= 2) { letterToken = t; break; }
        }
        if (letterToken == null) {
            for (int i = tokens.size() - 1; i >= 0 && letterToken == null; i--) {
                TokenLogprob t = tokens.get(i);
                if (chosen.equals(letterOf(t.token())) && t.top().size() >= 2) letterToken = t;
            }
        }
        if (letterToken == null) return null;
        Map<String, Double> p = zeros(letters);
        double sum = 0;
        int distinct = 0;
        for (TokenLogprob.Alternative a : letterToken.top()) {
            String l = letterOf(a.token());
            if (l == null || !p.containsKey(l)) continue;
            double pr = TokenLogprob.probability(a.logprob());
            if (pr > 0 && p.get(l) == 0) distinct++;
            p.merge(l, pr, Double::sum); // " B" and "B" are the same option
            sum += pr;
        }
        if (sum <= 0 || distinct < 1) return null;
        for (var e : p.entrySet()) e.setValue(e.getValue() / sum);
        return p;
    }

    /**
     * Whether a distribution read from log-probs describes the reply's choice (docs/design.md §4: the distribution follows
     * the reply's chosen option and its U): {@code chosen} carries the largest mass and the distribution is not near
     * uniform (max − min ≥ {@link Consensus#NEAR_UNIFORM}). A letter token spread evenly over the options says nothing
     * about which option the reply chose; read as the expert's distribution it made three experts that chose three
     * different options look identical (Bhattacharyya 1, conflict 0: demo item 5), so such a reply falls back to the
     * one-hot on its choice smoothed by its U.
     */
    public static boolean follows(Map<String, Double> dist, String chosen) {
        if (dist == null || chosen == null || !dist.containsKey(chosen)) return false;
        if (dist.size() < 2) return true;
        double max = Double.NEGATIVE_INFINITY, min = Double.POSITIVE_INFINITY;
        for (double v : dist.values()) {
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        return dist.get(chosen) >= max - Consensus.TIE && max - min >= Consensus.NEAR_UNIFORM;
    }

    /** One-hot on {@code chosen} smoothed by U; uniform when nothing was chosen. */
    public static Map<String, Double> smoothed(List<String> letters, String chosen, double u) {
        Map<String, Double> p = zeros(letters);
        int k = letters.size();
        if (k == 0) return p;
        if (chosen == null || !p.containsKey(chosen) || k == 1) {
            for (String l : letters) p.put(l, 1.0 / k);
            return p;
        }
        double uc = Math.max(0, Math.min(1, u));
        double top = 1 - uc * (k - 1) / k;
        double rest = (1 - top) / (k - 1);
        for (String l : letters) p.put(l, l.equals(chosen) ? top : rest);
        return p;
    }

    /** The option letter a token spells ("B", " B", "(B", "B." …), or null. Upper case only: "a" is a word. */
    static String letterOf(String token) {
        if (token == null) return null;
        char letter = 0;
        for (int i = 0; i < token.length(); i++) {
            char ch = token.charAt(i);
            if (Character.isWhitespace(ch) || "()[].:,*\"'`".indexOf(ch) >= 0) continue; // hot path: no regex
            if (letter != 0 || ch < 'A' || ch > 'Z') return null;
            letter = ch;
        }
        return letter == 0 ? null : String.valueOf(letter);
    }

    private static Map<String, Double> zeros(List<String> letters) {
        Map<String, Double> p = new LinkedHashMap<>();
        for (String l : letters) p.put(l, 0.0);
        return p;
    }
}
