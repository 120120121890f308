package dev.gamagent.influence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The weighted consensus of one round (docs/design.md §6), shared by the controller and {@code gam sweep}.
 * Multiple choice: argmax_k Σ_i w_i·p_i(k) over the options that at least one expert with an opinion chose;
 * a tie, or a mixture so flat that no option stands out, goes to the experts' weighted choices instead.
 * Open answers: the answer of the heaviest expert with an opinion. Experts without an opinion (not
 * applicable, unreadable, declined) keep their weight but take no part (docs/design.md §5); {@link #noOpinion} is the
 * one rule that says which they are, for the controller and for DREAM's rollback alike.
 */
public final class Consensus {
    /** Below this spread (max − min of the mixture over all options) the mixture says nothing: count choices. */
    public static final double NEAR_UNIFORM = 0.05;
    /** Two candidates closer than this are tied. */
    static final double TIE = 1e-9;

    /**
     * An answer that only declines: "cannot determine", "unable to tell from the image", "unknown", "I don't know".
     * An answer that says what it saw is an opinion, even when it hedges.
     */
    private static final Pattern DECLINES = Pattern.compile(
            "(?i)^\\W*(?:(?:i|we)\\s+|it\\s+is\\s+|it's\\s+|this\\s+is\\s+)?(?:"
            // a verb of refusal, with a short tail ("cannot determine from the image")
            + "(?:cannot|can't|can not|could not|couldn't|am unable to|are unable to|unable to|(?:is\\s+)?impossible to|not possible to)\\s+"
            + "(?:be\\s+)?(?:determined?|tell|told|say|said|answer(?:ed)?|know|known|see|seen|read)\\b"
            + "(?:\\W+(?!(?:but|though|although|however|yet|looks|says|reads|appears|seems|probably|likely|maybe|perhaps)\\b)\\w+){0,6}"
            // or a bare word of ignorance and nothing else ("Unknown." but not "Unknown soldier")
            + "|(?:(?:do not|don't)\\s+know|unknown|undeterminable|indeterminate|not sure|unsure|unclear|no idea|uncertain|not determinable)"
            + ")\\W*$");

    private Consensus() { }

    /**
     * Whether an answer only declines to answer ("cannot determine", "unknown"): for an open question it holds
     * no opinion (its expert's U is 1 and it is left out of the decision, docs/design.md §5).
     */
    public static boolean declines(String answer) { return answer != null && DECLINES.matcher(answer.strip()).matches(); }

    /**
     * Why a reply holds no opinion, or null when it holds one (docs/design.md §5): the one rule the controller and DREAM's
     * rollback ({@code GamMethod#decide}) both apply.
     *
     * @param notApplicable the expert declared that its specialty does not apply ("NOT APPLICABLE", "N/A", "no text")
     * @param readable      an answer was found in the reply (false: blank, broken, nothing parsed)
     * @param answer        the answer found, or null
     * @param option        the option letter it names (multiple choice), or null
     * @return {@code "not applicable"}, {@code "unreadable"} (no answer, or a multiple-choice answer naming no option),
     *         {@code "declined"} (an open answer that only declines), or null
     */
    public static String noOpinion(boolean notApplicable, boolean readable, String answer, String option, boolean multipleChoice) {
        if (notApplicable) return "not applicable";
        if (!readable || answer == null || (multipleChoice && option == null)) return "unreadable";
        if (!multipleChoice && declines(answer)) return "declined"; // "cannot determine" is no answer to weigh
        return null;
    }

    /** The key two answers share when they agree: the option letter, else the answer's words, lower-cased. */
    public static String key(String answer, String option) {
        if (option != null) return option;
        if (answer == null) return "";
        return answer.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    /**
     * Whether every vote with an opinion names the same answer (same option letter, or the same {@link #key} for open
     * answers); true when fewer than two hold one. The "no uncertainty" ablation ends its debate on it (docs/design.md §6).
     */
    public static boolean agreed(List<Vote> votes) {
        String first = null;
        for (Vote v : votes) {
            if (!v.opinion()) continue;
            String k = key(v.answer(), v.option());
            if (first == null) first = k;
            else if (!first.equals(k)) return false;
        }
        return true;
    }

    /**
     * One expert's say in a round.
     *
     * @param option  the option letter it chose (multiple choice), or null
     * @param answer  its answer text, or null
     * @param dist    its option distribution (null: one-hot on {@code option})
     * @param opinion false for an expert that is not applicable or unreadable
     */
    public record Vote(String option, String answer, Map<String, Double> dist, boolean opinion) { }

    /** How a round's answer was reached, for the trace. */
    public enum Rule {
        /** argmax of the weighted mixture over the chosen options */
        MIXTURE("mixture"),
        /** a tie or a near-uniform mixture: the option with the most weight behind it */
        CHOICES("weighted_choices"),
        /** open answer: the heaviest expert's */
        HEAVIEST("heaviest"),
        /** no expert had an opinion: no answer */
        NONE("none");

        private final String label;

        Rule(String label) { this.label = label; }

        public String label() { return label; }
    }

    /**
     * A round's answer. {@code confidence} is the mixture mass of the chosen option among the experts with an
     * opinion (their weights renormalised), 0 without an answer; {@code index} is the deciding expert for open answers;
     * {@code mixture} is that mixture over every option letter (multiple choice; empty for open answers), the
     * numbers that decided.
     */
    public record Verdict(String option, String answer, double confidence, Rule rule, int index, Map<String, Double> mixture) {
        public Verdict {
            mixture = mixture == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(mixture));
        }

        public Verdict(String option, String answer, double confidence, Rule rule, int index) {
            this(option, answer, confidence, rule, index, Map.of());
        }
    }

    /**
     * The multiple-choice verdict over {@code letters}; {@code options} maps letters to their text (the answer).
     * Votes and weights are aligned (the experts that answered the round, in panel order).
     */
    public static Verdict multipleChoice(List<Vote> votes, double[] w, List<String> letters, Map<String, String> options) {
        Map<String, Double> mix = new LinkedHashMap<>();
        for (String l : letters) mix.put(l, 0.0);
        Map<String, Double> behind = new LinkedHashMap<>(); // weight of the experts that chose each option
        double mass = 0;
        for (int i = 0; i < votes.size(); i++) {
            Vote v = votes.get(i);
            if (!v.opinion() || v.option() == null || !mix.containsKey(v.option())) continue;
            mass += w[i];
            behind.merge(v.option(), w[i], Double::sum);
            if (v.dist() == null) {
                mix.merge(v.option(), w[i], Double::sum);
            } else {
                for (var e : v.dist().entrySet()) if (mix.containsKey(e.getKey())) mix.merge(e.getKey(), w[i] * e.getValue(), Double::sum);
            }
        }
        if (behind.isEmpty()) return new Verdict(null, null, 0, Rule.NONE, -1, mix);
        if (mass > 0) for (var e : mix.entrySet()) e.setValue(e.getValue() / mass);
        // candidates in letter order, so every remaining tie goes to the earlier letter
        List<String> candidates = new ArrayList<>();
        for (String l : letters) if (behind.containsKey(l)) candidates.add(l);
        String best = argmax(candidates, mix, null);
        String runnerUp = null;
        for (String c : candidates) if (!c.equals(best) && (runnerUp == null || mix.get(c) > mix.get(runnerUp))) runnerUp = c;
        double max = mix.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = mix.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        boolean tied = runnerUp != null && mix.get(best) - mix.get(runnerUp) <= TIE;
        Rule rule = Rule.MIXTURE;
        if (tied || (candidates.size() > 1 && max - min < NEAR_UNIFORM)) {
            best = argmax(candidates, behind, mix);
            rule = Rule.CHOICES;
        }
        return new Verdict(best, options.getOrDefault(best, best), clamp(mix.get(best)), rule, -1, mix);
    }

    /** The open-answer verdict: the answer of the heaviest expert with an opinion (earliest on ties); confidence is left to the caller. */
    public static Verdict open(List<Vote> votes, double[] w) {
        int top = -1;
        for (int i = 0; i < votes.size(); i++) {
            Vote v = votes.get(i);
            if (!v.opinion() || v.answer() == null) continue;
            if (top < 0 || w[i] > w[top]) top = i;
        }
        return top < 0 ? new Verdict(null, null, 0, Rule.NONE, -1) : new Verdict(null, votes.get(top).answer(), 0, Rule.HEAVIEST, top);
    }

    /** The key with the largest score (ties: the secondary score, then the earlier key). */
    private static String argmax(List<String> keys, Map<String, Double> score, Map<String, Double> secondary) {
        String best = null;
        for (String k : keys) {
            if (best == null) { best = k; continue; }
            double d = score.get(k) - score.get(best);
            if (d > TIE || (d >= -TIE && secondary != null && secondary.get(k) - secondary.get(best) > TIE)) best = k;
        }
        return best;
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v)); }
}
