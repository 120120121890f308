package dev.gamagent.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Combines the model's own reading with what the debate shows it: q = λ·p_own + (1 − λ)·p_peers, where
 * p_peers ∝ Σ_j w_j·(c_j·[answer_j] + (1 − c_j)/K) from the peers' stated weights w_j and confidences
 * c_j, plus each critique's corrections. λ grows with the model's own certainty (1 − normalised entropy),
 * so a confident perception changes its answer only when the weighted evidence against it is strong.
 */
final class DebatePool {
    private static final Pattern ASSESSMENT = Pattern.compile(
            "(?i)(INACCURATE|PARTIALLY ACCURATE|ACCURATE)[^\\n]*?CORRECTION\\s*:\\s*([^|\\n]*)(?:[^\\n]*?CONFIDENCE\\s*:\\s*([0-9.]+))?");

    /** The pooled distribution and how much the model trusted itself. */
    record Pooled(Distribution answer, double selfWeight, int peersUsed, double agreement) { }

    private DebatePool() { }

    /**
     * @param own    the model's own distribution: over option texts in option order (multiple choice) or open values
     * @param letters option letters in order (empty for an open question)
     * @param minSelf smallest λ (a judge listens more than a reviser)
     */
    static Pooled pool(Distribution own, boolean applicable, ParsedPrompt p, List<String> letters, double minSelf, double maxSelf) {
        boolean mc = !letters.isEmpty();
        List<String> values = new ArrayList<>(own.values());
        Map<String, Double> evidence = new LinkedHashMap<>();
        for (String v : values) evidence.put(v, 0.0);
        double total = 0;
        int used = 0;
        List<String> peerAnswers = new ArrayList<>();
        List<ParsedPrompt.Peer> peers = new ArrayList<>(p.peers());
        if (peers.isEmpty() && p.consensus() != null) peers.add(new ParsedPrompt.Peer("consensus", 1.0, p.consensus()));
        for (ParsedPrompt.Peer peer : peers) {
            String ans = answerOf(peer.text(), p, letters, values);
            if (ans == null) continue;
            if (!evidence.containsKey(ans)) { evidence.put(ans, 0.0); values.add(ans); }
            double c = confidenceOf(peer.text());
            double w = Math.max(0, peer.weight());
            peerAnswers.add(ans);
            evidence.merge(ans, w * c, Double::sum);
            for (String v : own.values()) evidence.merge(v, w * (1 - c) / own.size(), Double::sum);
            total += w;
            used++;
        }
        for (ParsedPrompt.Critique crit : p.critiques()) {
            Matcher m = ASSESSMENT.matcher(crit.text());
            while (m.find()) {
                if (m.group(1).equalsIgnoreCase("ACCURATE")) continue;
                String target = mc ? optionNamed(m.group(2), p) : null;
                if (target == null) continue;
                double c = m.group(3) == null ? 0.5 : parse(m.group(3), 0.5);
                evidence.merge(target, 0.5 * c, Double::sum);
                total += 0.5 * c;
            }
        }
        double lambda = applicable ? Math.max(minSelf, Math.min(maxSelf, 1 - own.normalisedEntropy())) : 0.05;
        if (total <= 0) return new Pooled(own, 1.0, 0, 1.0);
        double[] q = new double[values.size()];
        double es = evidence.values().stream().mapToDouble(Double::doubleValue).sum();
        for (int i = 0; i < q.length; i++) {
            String v = values.get(i);
            q[i] = lambda * own.p(v) + (1 - lambda) * evidence.getOrDefault(v, 0.0) / es;
        }
        Distribution pooled = Distribution.of(values, q);
        String best = pooled.best();
        double agree = peerAnswers.isEmpty() ? 1 : peerAnswers.stream().filter(best::equals).count() / (double) peerAnswers.size();
        return new Pooled(pooled, lambda, used, agree);
    }

    /** A peer's answer as one of the values (an open answer matched to a known value regardless of case). */
    static String answerOf(String text, ParsedPrompt p, List<String> letters, List<String> values) {
        String v = Deliberation.answerOf(text, p, letters);
        if (v == null || !letters.isEmpty()) return v;
        for (String known : values) if (known.equalsIgnoreCase(v)) return known;
        return v;
    }

    /** How sure a peer says it is ({@link Deliberation#stated}: its CONFIDENCE line, else its words). */
    static double confidenceOf(String text) { return Deliberation.stated(text); }

    /** The option whose text is named in a correction, when exactly one is. */
    static String optionNamed(String correction, ParsedPrompt p) {
        String lower = correction.toLowerCase(Locale.ROOT);
        String hit = null;
        for (String opt : p.options().values()) {
            String o = opt.toLowerCase(Locale.ROOT).strip();
            if (o.isEmpty()) continue;
            if (Pattern.compile("(?<![a-z0-9])" + Pattern.quote(o) + "(?![a-z0-9])").matcher(lower).find()) {
                if (hit != null) return null;
                hit = opt;
            }
        }
        return hit;
    }

    private static double parse(String s, double fallback) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
