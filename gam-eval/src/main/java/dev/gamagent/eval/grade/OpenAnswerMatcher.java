package dev.gamagent.eval.grade;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grades open (free-form) answers against the ground truth: exact match, then normalised match (case,
 * punctuation, articles and extra spaces removed, as in the VQA answer normalisation), then numbers
 * within a relative tolerance. A reply in our line format is graded on its {@code ANSWER:} line.
 */
public final class OpenAnswerMatcher {
    private static final Pattern ANSWER_LINE = Pattern.compile("(?im)^\\s*\\**answer\\**\\s*:\\s*(.+?)\\s*$");
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d[\\d,]*(?:\\.\\d+)?|[-+]?\\.\\d+");

    /** How an open answer matched. */
    public enum Match { EXACT, NORMALISED, NUMERIC, NONE }

    private final double relativeTolerance;

    /** @param relativeTolerance numbers match when |p - g| ≤ tol·max(1, |g|) */
    public OpenAnswerMatcher(double relativeTolerance) { this.relativeTolerance = relativeTolerance; }

    public Match match(String prediction, String groundTruth) {
        if (prediction == null || groundTruth == null) return Match.NONE;
        String p = answerPart(prediction);
        if (p.strip().equals(groundTruth.strip())) return Match.EXACT;
        String np = normalise(p), ng = normalise(groundTruth);
        if (!ng.isEmpty() && np.equals(ng)) return Match.NORMALISED;
        Double g = number(groundTruth.strip(), true);
        if (g != null) {
            Double v = number(p, false);
            if (v != null && Math.abs(v - g) <= relativeTolerance * Math.max(1, Math.abs(g))) return Match.NUMERIC;
        }
        return Match.NONE;
    }

    static String answerPart(String text) {
        Matcher m = ANSWER_LINE.matcher(text);
        String last = null;
        while (m.find()) last = m.group(1);
        return last != null ? last : text.strip();
    }

    /** Lower case, punctuation to spaces (a decimal point between digits stays), articles dropped, spaces collapsed. */
    static String normalise(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("(?<!\\d)\\.|\\.(?!\\d)", " ").replaceAll("[\\p{Punct}&&[^.]]", " ");
        t = t.replaceAll("\\b(a|an|the)\\b", " ");
        return t.replaceAll("\\s+", " ").strip();
    }

    /** The number the text states: the whole text when {@code whole}, else the only number in it. */
    static Double number(String s, boolean whole) {
        String t = s.strip().replaceAll("[%$€£]", "").strip();
        Matcher m = NUMBER.matcher(t);
        Double found = null;
        int count = 0;
        while (m.find()) {
            if (whole && (m.start() != 0 || m.end() != t.length())) return null;
            count++;
            found = Double.parseDouble(m.group().replace(",", ""));
        }
        if (count == 0 && !whole) return wordNumber(t);
        return count == 1 ? found : null;
    }

    private static final List<String> WORDS = List.of("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
            "nine", "ten", "eleven", "twelve");

    private static Double wordNumber(String t) {
        String n = normalise(t);
        int i = WORDS.indexOf(n);
        return i < 0 ? null : (double) i;
    }
}
