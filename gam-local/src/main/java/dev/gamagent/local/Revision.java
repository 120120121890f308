package dev.gamagent.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an expert revises when critics have re-examined claims (evidence, not peer pressure): its own
 * perception is multiplied by one likelihood per critique of this round,
 * <pre>  p(o) ∝ p_own(o)·Π_c L_c(o)</pre>
 * where a critique of a claim stating option a, with P(claim true) = t from its verdict and
 * confidence, gives L(a) = t and 1 − t to the option its correction names (spread over the others when
 * it names none), mixed with 10 % uniform since a critic may err. Peers' answers and weights, and the
 * expert's own previous answer, are not used: they are not evidence about the image, and a previous
 * answer already holds earlier critiques, so the same critiques shown again would compound.
 */
final class Revision {
    static final double FLOOR = 0.1;
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

    /** @param own the expert's own distribution over the option texts (in option order) */
    static Result revise(Distribution own, List<Evidence> evidence) {
        int k = own.size();
        double[] log = new double[k];
        for (int i = 0; i < k; i++) log[i] = Math.log(Math.max(1e-9, own.p(i)));
        List<Evidence> used = new ArrayList<>();
        for (Evidence e : evidence) {
            int a = own.values().indexOf(e.claimed());
            if (a < 0) continue;
            int b = e.corrected() == null ? -1 : own.values().indexOf(e.corrected());
            for (int i = 0; i < k; i++) {
                double l = i == a ? e.truth() : b >= 0 ? (i == b ? 1 - e.truth() : 0) : (1 - e.truth()) / Math.max(1, k - 1);
                l = (1 - FLOOR) * l + FLOOR / k;
                log[i] += Math.log(l);
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
