package dev.gamagent.uncertainty;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Φ_sem from hedge language when no log-probs exist (GAM-Agent §2; docs/design.md §3): a three-tier lexicon
 * (strong 3, medium 2, weak 1), density ρ = Σ weights / words (+2 for a question mark that is not the
 * last character), Φ_sem = σ(60·(ρ − 0.04)); empty text → 1; a reported confidence c blends in:
 * Φ = (Φ_sem + (1 − c)) / 2.
 */
public final class SemanticUncertainty {
    static final List<String> STRONG = List.of(
            "cannot determine", "can't determine", "cannot tell", "can't tell", "impossible to tell",
            "impossible to determine", "not possible to determine", "unable to determine", "unable to tell",
            "no way to know", "not visible", "cannot see", "can't see", "cannot be determined", "unclear",
            "i don't know", "i do not know", "not sure", "unsure", "no idea", "illegible", "unreadable",
            "not applicable", "insufficient information", "too blurry", "too small to read",
            // refusals: a model that declines has not answered, so it must not look confident
            "can't help", "cannot help", "unable to help", "can't assist", "cannot assist", "unable to assist",
            "can't answer", "cannot answer", "unable to answer", "i'm sorry", "i am sorry");
    static final List<String> MEDIUM = List.of(
            "probably", "likely", "unlikely", "seems", "seem to", "appears", "appear to", "suggests", "suggest",
            "i think", "i believe", "my guess", "guess", "presumably", "apparently", "roughly", "approximately",
            "somewhat", "uncertain", "not certain", "hard to say", "difficult to say",
            "ambiguous", "partially");
    static final List<String> WEAK = List.of(
            "maybe", "perhaps", "possibly", "might", "may", "could", "can be", "either", "sort of",
            "kind of", "fairly", "relatively");
    /**
     * "about"/"around" hedge only before a quantity ("about 5 cars"), not as prepositions ("a question about
     * colour"); "or" and "if" are left out: an answer restating "left or right" is not uncertain.
     */
    private static final Pattern APPROXIMATE = Pattern.compile("(?<![\\p{L}])(?:about|around)\\s+(?:\\d|one|two|three|four|five|six|seven|eight|nine|ten|a dozen|half)");

    private static final Pattern CONFIDENCE = Pattern.compile(
            "confidence\\s*[:=]?\\s*(\\d{1,3}(?:\\.\\d+)?)\\s*(%)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}']+");

    // Compiled once: every agent reply of every method is scored against the whole lexicon.
    private static final List<Pattern> STRONG_P = compile(STRONG), MEDIUM_P = compile(MEDIUM), WEAK_P = compile(WEAK);

    private final List<Pattern> strong, medium, weak;

    /** The project's lexicon (compiled once for every instance). */
    public SemanticUncertainty() {
        this.strong = STRONG_P;
        this.medium = MEDIUM_P;
        this.weak = WEAK_P;
    }

    /** Another lexicon, for measuring variants of it (bench/hedge.sh); the formula is unchanged. */
    SemanticUncertainty(List<String> strong, List<String> medium, List<String> weak) {
        this.strong = compile(strong);
        this.medium = compile(medium);
        this.weak = compile(weak);
    }

    /** Hedge density ρ of a text. */
    public double density(String text) {
        // typographic apostrophes ("can’t") must match the lexicon's "can't"
        String t = text.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
        int words = 0;
        Matcher wm = WORD.matcher(t);
        while (wm.find()) words++;
        if (words == 0) return 0;
        double w = 3 * count(strong, t) + 2 * (count(medium, t) + count(List.of(APPROXIMATE), t)) + count(weak, t);
        String stripped = t.strip();
        int q = stripped.indexOf('?');
        if (q >= 0 && q < stripped.length() - 1) w += 2;
        return w / words;
    }

    /** Φ_sem of a text, blended with a reported confidence when one is found. */
    public double of(String text) {
        if (text == null || text.isBlank()) return 1.0;
        double phi = 1 / (1 + Math.exp(-60 * (density(stripConfidence(text)) - 0.04)));
        Double c = reportedConfidence(text);
        return c == null ? phi : (phi + (1 - c)) / 2;
    }

    /**
     * Whether Φ_sem has anything to say about this text: a hedge or a reported confidence. Without either it is
     * the constant σ(−2.4) ≈ 0.083, which carries no information to blend with another signal.
     */
    public boolean fires(String text) {
        return text != null && !text.isBlank() && (density(stripConfidence(text)) > 0 || reportedConfidence(text) != null);
    }

    /** A confidence the text reports ("CONFIDENCE: 80%", "confidence 0.8"), in [0,1], or null. */
    public static Double reportedConfidence(String text) {
        Matcher m = CONFIDENCE.matcher(text);
        Double last = null;
        while (m.find()) {
            double v = Double.parseDouble(m.group(1));
            if (m.group(2) != null || v > 1) v /= 100;
            if (v >= 0 && v <= 1) last = v;
        }
        return last;
    }

    private static String stripConfidence(String text) { return CONFIDENCE.matcher(text).replaceAll(" "); }

    private static int count(List<Pattern> ps, String t) {
        int n = 0;
        for (Pattern p : ps) {
            Matcher m = p.matcher(t);
            while (m.find()) n++;
        }
        return n;
    }

    private static List<Pattern> compile(List<String> phrases) {
        return phrases.stream().map(s -> Pattern.compile("(?<![\\p{L}])" + Pattern.quote(s) + "(?![\\p{L}])")).toList();
    }
}
