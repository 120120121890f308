package dev.gamagent.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an expert revises when critics have re-examined claims (evidence, not peer pressure): its own
 * perception, tempered by its previous answer, is multiplied by one likelihood per critique,
 * <pre>  log p(o) = (1 − m)·log p_own(o) + m·log p_prev(o) + γ·Σ_c log L_c(o) + const</pre>
 * where a critique of a claim stating option a, with P(claim true) = t from its verdict and
 * confidence, gives L(a) = t and 1 − t to the option its correction names (spread over the others when
 * it names none), mixed with 10 % uniform since a critic may err. Peers' answers and weights are not
 * used: they are not evidence about the image. With m = γ = ½ the same critiques repeated round after
 * round converge to p_own·Π L instead of compounding.
 */
final class Revision {
    static final double MEMORY = 0.5, GAMMA = 0.5, FLOOR = 0.1;
    private static final Pattern CRITIQUE = Pattern.compile(
            "(?is)^\\s*(?:ALL CLAIMS|CLAIM by ([^:]*):\\s*(.*?))\\s*\\|\\s*(INACCURATE|PARTIALLY ACCURATE|ACCURATE)\\b(.*)$");
    private static final Pattern CORRECTION = Pattern.compile("(?is)\\|\\s*CORRECTION\\s*:\\s*(.*?)\\s*(?:\\|\\s*CONFIDENCE\\s*:|$)");
    private static final Pattern CONFIDENCE = Pattern.compile("(?i)\\|\\s*CONFIDENCE\\s*:\\s*([0-9.]+)\\s*$");

    /** One critique as evidence: the option its claim states, P(claim true), the option its correction names. */
    record Evidence(String critic, String claimed, double truth, String corrected, String verdict) { }

    /** The revised distribution and the critiques that moved it. */
    record Result(Distribution answer, List<Evidence> used) { }

    private Revision() { }

    /** Parses the critiques of a revise prompt into evidence about the options (critiques naming no option are skipped). */
    static List<Evidence> evidence(ParsedPrompt p) {
        List<String> options = new ArrayList<>(p.options().values());
        List<Evidence> out = new ArrayList<>();
        for (ParsedPrompt.Critique c : p.critiques()) {
            Matcher m = CRITIQUE.matcher(c.text());
            if (!m.find() || m.group(2) == null) continue;
            String claimed = OptionText.named(m.group(2), options);
            if (claimed == null) continue;
            String rest = m.group(4);
            Matcher conf = CONFIDENCE.matcher(rest);
            double confidence = conf.find() ? parse(conf.group(1), 0.5) : 0.5;
            if (confidence > 1) confidence /= 100;
            String verdict = m.group(3).toUpperCase(Locale.ROOT);
            double t = switch (verdict) {
                case "ACCURATE" -> confidence;
                case "INACCURATE" -> 1 - confidence;
                default -> 0.5;
            };
            Matcher corr = CORRECTION.matcher(rest);
            String corrected = corr.find() ? OptionText.named(corr.group(1), options) : null;
            if (claimed.equals(corrected)) corrected = null;
            out.add(new Evidence(c.critic(), claimed, Math.max(0, Math.min(1, t)), corrected, verdict));
        }
        return out;
    }

    /**
     * @param own      the expert's own distribution over the option texts (in option order)
     * @param previous the expert's previous answer (an option text) and its stated confidence, or null
     */
    static Result revise(Distribution own, String previous, double previousConfidence, List<Evidence> evidence) {
        int k = own.size();
        double[] log = new double[k];
        for (int i = 0; i < k; i++) {
            double lp = Math.log(Math.max(1e-9, own.p(i)));
            if (previous != null) {
                double c = Math.max(1.0 / k, Math.min(0.99, previousConfidence));
                double pp = own.values().get(i).equals(previous) ? c : (1 - c) / Math.max(1, k - 1);
                lp = (1 - MEMORY) * lp + MEMORY * Math.log(Math.max(1e-9, pp));
            }
            log[i] = lp;
        }
        List<Evidence> used = new ArrayList<>();
        for (Evidence e : evidence) {
            int a = own.values().indexOf(e.claimed());
            if (a < 0) continue;
            int b = e.corrected() == null ? -1 : own.values().indexOf(e.corrected());
            for (int i = 0; i < k; i++) {
                double l = i == a ? e.truth() : b >= 0 ? (i == b ? 1 - e.truth() : 0) : (1 - e.truth()) / Math.max(1, k - 1);
                l = (1 - FLOOR) * l + FLOOR / k;
                log[i] += GAMMA * Math.log(l);
            }
            used.add(e);
        }
        return new Result(Distribution.fromLog(own.values(), log).smoothed(Distribution.FLOOR), used);
    }

    private static double parse(String s, double fallback) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
