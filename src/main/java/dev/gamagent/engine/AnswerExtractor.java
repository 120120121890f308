package dev.gamagent.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the option letter a free-text answer chose, the way VLMEvalKit's {@code can_infer} does:
 * an explicit "ANSWER: X" / "answer is X", a lone option letter among the tokens, or a unique
 * option-text match. Returns null when nothing (or more than one thing) matches.
 */
public final class AnswerExtractor {
    private static final Pattern EXPLICIT = Pattern.compile(
            "(?i)(?:final\\s+answer|answer|option|choice)\\s*(?:is|:|=)?\\s*(?:option\\s*)?[\\(\\[]?([A-Z])[\\)\\]]?(?![A-Za-z])");
    private static final Pattern LONE = Pattern.compile("(?<![A-Za-z])([A-Z])(?![A-Za-z])");

    private AnswerExtractor() { }

    /** The chosen letter among {@code options}' keys, or null. */
    public static String option(String text, Map<String, String> options) {
        if (text == null || options.isEmpty()) return null;
        String t = text.strip();
        if (t.isEmpty()) return null;
        // 1. "ANSWER: B" / "the answer is (B)": the last explicit statement wins
        String explicit = null;
        Matcher m = EXPLICIT.matcher(t);
        while (m.find()) if (options.containsKey(m.group(1))) explicit = m.group(1);
        if (explicit != null) return explicit;
        // 2. the whole reply is a letter, possibly with punctuation: "B", "(B)", "B."
        String bare = t.replaceAll("[\\s\\(\\)\\[\\]\\.:,*]", "");
        if (bare.length() == 1 && options.containsKey(bare.toUpperCase(Locale.ROOT))) return bare.toUpperCase(Locale.ROOT);
        // 3. exactly one distinct option letter appears as a lone capital token
        List<String> seen = new ArrayList<>();
        Matcher lm = LONE.matcher(t);
        while (lm.find()) {
            String c = lm.group(1);
            if (options.containsKey(c) && !seen.contains(c) && !isArticle(t, lm.start())) seen.add(c);
        }
        if (seen.size() == 1) return seen.get(0);
        // 4. a unique option text contained in the answer
        String lower = t.toLowerCase(Locale.ROOT);
        String hit = null;
        for (var e : options.entrySet()) {
            String ot = e.getValue() == null ? "" : e.getValue().strip().toLowerCase(Locale.ROOT);
            if (ot.isEmpty()) continue;
            if (containsWord(lower, ot)) {
                if (hit != null) return null;
                hit = e.getKey();
            }
        }
        return hit;
    }

    private static boolean isArticle(String t, int pos) {
        // "A" used as an article inside a sentence ("A red car") is not an answer letter
        return t.charAt(pos) == 'A' && pos + 2 < t.length() && t.charAt(pos + 1) == ' '
                && Character.isLowerCase(t.charAt(pos + 2));
    }

    private static boolean containsWord(String hay, String needle) {
        int i = hay.indexOf(needle);
        while (i >= 0) {
            boolean startOk = i == 0 || !Character.isLetterOrDigit(hay.charAt(i - 1));
            int end = i + needle.length();
            boolean endOk = end == hay.length() || !Character.isLetterOrDigit(hay.charAt(end));
            if (startOk && endOk) return true;
            i = hay.indexOf(needle, i + 1);
        }
        return false;
    }
}
