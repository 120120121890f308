package dev.gamagent.engine;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our reader of agents' replies (used by {@code baseline.ReplyParser} inside methods, and as the
 * {@code extended} grading mode). It is deliberately not VLMEvalKit's exact behaviour, which
 * {@code eval.VlmEvalKitMatcher} reproduces and which grades by default; on 12,758 real VILA-1.5 replies
 * the two differ on 32 (docs/metrics.md). Finds the option letter a free-text answer chose, following VLMEvalKit's {@code can_infer}
 * ({@code vlmeval/utils/matching_util.py}): {@code can_infer_option} (a lone option letter among the
 * tokens, after replacing {@code .()[],:;!*#{}} by spaces; known refusals and a lone "Z" are refusals),
 * then {@code can_infer_text} (exactly one option text contained in the lower-cased answer, answers
 * longer than twice the options' total length excluded). One extension runs first, because our own
 * line format puts "ANSWER: X" before claims that may contain other capital letters: an explicit
 * "ANSWER: X" line, an "ANSWER: option text" line, or "the answer is X" (the last one wins; the letter
 * in any case). A reply that is one lower-case letter ("b") is read between the two VLMEvalKit steps.
 */
public final class AnswerExtractor {
    private static final Pattern EXPLICIT = Pattern.compile(
            "(?i:(?:final\\s+answer|answer|option|choice)\\s*(?:is|:|=)\\s*(?:option\\s*)?)[\\(\\[]?"
                    // a lower-case letter counts only when no word follows: "is c." yes, "is a blue square" no
                    + "([A-Z]|[a-z](?!\\s+[A-Za-z]))[\\)\\]]?(?![A-Za-z0-9])");
    private static final Pattern EXPLICIT_LINE = Pattern.compile(
            "(?im)^\\s*\\**answer\\**\\s*:\\s*\\**\\s*[\\(\\[]?([A-Z])[\\)\\]]?\\s*(?:[.:]|$)");
    private static final Pattern ANSWER_LINE = Pattern.compile("(?im)^\\s*\\**answer\\**\\s*:\\s*(.+?)\\s*$");
    private static final String SEPARATORS = ".()[],:;!*#{}";
    /**
     * VLMEvalKit's reject_to_answer list ({@code can_infer_option}): these replies are refusals, not wrong letters. The one
     * home of the list: {@code eval.VlmEvalKitMatcher} reads it through {@link #refusalIn} (VLMEvalKit's list and ours are
     * the same four phrases).
     */
    private static final List<String> REFUSALS = List.of(
            "Sorry, I can't help with images of people yet.",
            "I can't process this file.",
            "I'm sorry, but without the image provided",
            "Cannot determine the answer");

    /** VLMEvalKit's marker of a failed API call: a reply containing it is read as nothing, not as a refusal or a letter. */
    private static final String API_FAILURE = "Failed to obtain answer via API";

    private AnswerExtractor() { }

    /** VLMEvalKit's refusal phrases, in the order they are tried. */
    public static List<String> refusals() { return REFUSALS; }

    /** The first of VLMEvalKit's refusal phrases {@code reply} contains, or null when it contains none. */
    public static String refusalIn(String reply) {
        for (String r : REFUSALS) if (reply.contains(r)) return r;
        return null;
    }

    /** Whether {@code reply} holds VLMEvalKit's failed-API marker, which {@code can_infer_option} reads as no answer at all. */
    public static boolean isApiFailure(String reply) { return reply.contains(API_FAILURE); }

    /** What the extraction found. */
    public sealed interface Extraction permits Matched, Refused, Unmatched { }

    /** A letter, and which rule found it ({@code explicit}, {@code option}, {@code text}). */
    public record Matched(String letter, String rule) implements Extraction { }

    /** The model declined to answer (a known refusal phrase or a lone "Z" when Z is not an option). */
    public record Refused(String why) implements Extraction { }

    /** Nothing, or more than one option, matched. */
    public record Unmatched(List<String> candidates) implements Extraction {
        public Unmatched { candidates = List.copyOf(candidates); }
    }

    /** The chosen letter among {@code options}' keys, or null when refused or unmatched. */
    public static String option(String text, Map<String, String> options) {
        return extract(text, options) instanceof Matched m ? m.letter() : null;
    }

    /** The full can_infer decision for {@code text} against {@code options} (keys A..Z). */
    public static Extraction extract(String text, Map<String, String> options) {
        if (text == null || options == null || options.isEmpty()) return new Unmatched(List.of());
        String t = text.strip();
        if (t.isEmpty()) return new Unmatched(List.of());
        String explicit = explicitLetter(t, options);
        if (explicit != null) return new Matched(explicit, "explicit");
        Extraction byOption = inferOption(t, options);
        if (!(byOption instanceof Unmatched)) return byOption;
        String letter = singleLetter(t, options);
        if (letter != null) return new Matched(letter, "letter");
        String byText = inferText(t, options);
        if (byText != null) return new Matched(byText, "text");
        return byOption;
    }

    /** "ANSWER: B" on its own line, else "the answer is (B)"; the last statement naming an option wins. */
    static String explicitLetter(String t, Map<String, String> options) {
        String found = null;
        Matcher lm = EXPLICIT_LINE.matcher(t);
        while (lm.find()) if (options.containsKey(up(lm.group(1)))) found = up(lm.group(1));
        if (found != null) return found;
        // "ANSWER: red circle": the answer line's text is exactly one option's text
        Matcher am = ANSWER_LINE.matcher(t);
        while (am.find()) {
            String v = am.group(1).replaceAll("^[\\s*\"']+|[\\s*\"'.]+$", "").toLowerCase(Locale.ROOT);
            for (var e : options.entrySet()) {
                if (e.getValue() != null && v.equals(e.getValue().strip().toLowerCase(Locale.ROOT))) found = e.getKey();
            }
        }
        if (found != null) return found;
        Matcher m = EXPLICIT.matcher(t);
        while (m.find()) if (options.containsKey(up(m.group(1)))) found = up(m.group(1));
        return found;
    }

    /** The whole reply is one letter in any case ("b", "(c)."); checked before text matching, where "b" would match "blue". */
    static String singleLetter(String t, Map<String, String> options) {
        String bare = t.replaceAll("[\\s()\\[\\].:,*]", "");
        return bare.length() == 1 && options.containsKey(up(bare)) ? up(bare) : null;
    }

    private static String up(String s) { return s.toUpperCase(Locale.ROOT); }

    /** VLMEvalKit can_infer_option: exactly one option letter appears as a whole token. */
    static Extraction inferOption(String answer, Map<String, String> options) {
        if (isApiFailure(answer)) return new Unmatched(List.of());
        String refusal = refusalIn(answer);
        if (refusal != null) return new Refused(refusal);
        StringBuilder mod = new StringBuilder(answer.length());
        for (char c : answer.toCharArray()) mod.append(SEPARATORS.indexOf(c) >= 0 ? ' ' : c);
        Set<String> splits = new LinkedHashSet<>(List.of(mod.toString().strip().split("\\s+")));
        List<String> hits = new ArrayList<>();
        for (String letter : options.keySet()) if (splits.contains(letter)) hits.add(letter);
        if (hits.size() == 1) return new Matched(hits.get(0), "option");
        if (hits.isEmpty() && !options.containsKey("Z") && splits.contains("Z")) return new Refused("answered Z (none of the options)");
        return new Unmatched(hits);
    }

    /** VLMEvalKit can_infer_text: exactly one option's text occurs in the lower-cased answer. */
    static String inferText(String answer, Map<String, String> options) {
        String lower = answer.toLowerCase(Locale.ROOT);
        int total = 0;
        for (String v : options.values()) total += v == null ? 0 : v.length();
        if (lower.length() > 2 * total) return null;
        String hit = null;
        for (var e : options.entrySet()) {
            String ot = e.getValue() == null ? "" : e.getValue().toLowerCase(Locale.ROOT);
            if (ot.isEmpty() || !lower.contains(ot)) continue;
            if (hit != null) return null;
            hit = e.getKey();
        }
        return hit;
    }
}
