package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.eval.load.KeyedQuestion;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VLMEvalKit's rules that read an option letter out of the reply with a benchmark's own reading (e8e78f05), whether or
 * not the file has option columns; the reply is the method's own option letter when it gave one (what a VLMEvalKit
 * wrapper around the method returns), else its answer text. The rule recorded is {@code <rule>:letter} or
 * {@code <rule>:none}.
 *
 * <ul>
 *   <li>{@code spatial-mcq}: the EASI spatial benchmarks ({@link VlmEvalKitSpatialMcq}).</li>
 *   <li>{@code boxed-option} (SIUO_MCQ, M3oralBench: {@code _extract_option}): the last {@code \boxed{X}}, else the last
 *       {@code (X)}, else the last stand-alone A–G of the upper-cased reply; right when it equals the answer, stripped
 *       and upper-cased.</li>
 *   <li>{@code medqbench-option} (MedqbenchMCQ: {@code _extract_option_letter}): the stripped reply when it is one of
 *       A–D in any case; else, upper-cased, a leading "B." / "B)" / "B ", "answer is B" / "option B", a leading "B -" /
 *       "B:", the first A–D between non-letters; else the reply itself; right when it equals the answer ignoring case.</li>
 * </ul>
 */
public final class VlmEvalKitLetters {
    /** The {@code eval.open_answers} values this class grades. */
    public static final Set<String> RULES = Set.of(VlmEvalKitSpatialMcq.RULE, "boxed-option", "medqbench-option");
    private static final Pattern BOXED = Pattern.compile("\\\\boxed\\{\\s*([A-Z])\\s*\\}", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern PARENS = Pattern.compile("\\(([A-Z])\\)");
    private static final Pattern LONE_A_TO_G = Pattern.compile("\\b([A-G])\\b", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern MED_LEADING = Pattern.compile("^([A-D])[.\\)\\s]", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern MED_PHRASE = Pattern.compile("(?:answer\\s+is\\s+|option\\s+)([A-D])(?:\\s|$|[^A-Z])", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern MED_DASH = Pattern.compile("^([A-D])\\s*[-:]", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern MED_ISOLATED = Pattern.compile("(?:^|[^A-Z])([A-D])(?:[^A-Z]|$)");

    private VlmEvalKitLetters() { }

    /** The grade of {@code a} by {@code rule} (one of {@link #RULES}). */
    public static Grade grade(String rule, KeyedQuestion q, Answer a) {
        if (rule.equals(VlmEvalKitSpatialMcq.RULE)) return VlmEvalKitSpatialMcq.grade(q, a);
        String reply = a.option() != null ? a.option() : a.answer() == null ? "" : a.answer();
        String truth = q.groundTruth() == null ? "" : q.groundTruth();
        return switch (rule) {
            case "boxed-option" -> {
                String pred = boxedOption(reply);
                yield new Grade(pred.equals(truth.strip().toUpperCase(Locale.ROOT)) ? Outcome.CORRECT : Outcome.WRONG, pred,
                        rule + (pred.isEmpty() ? ":none" : ":letter"));
            }
            case "medqbench-option" -> {
                String pred = medqbenchOption(reply);
                yield new Grade(truth.toUpperCase(Locale.ROOT).equals(pred.toUpperCase(Locale.ROOT)) ? Outcome.CORRECT : Outcome.WRONG, pred,
                        rule + (pred.length() == 1 ? ":letter" : ":none"));
            }
            default -> throw new IllegalArgumentException("'" + rule + "' is not a VLMEvalKit letter rule; use one of " + RULES);
        };
    }

    /** SIUO's and M3oralBench's {@code _extract_option}: a letter, or the empty text. */
    static String boxedOption(String pred) {
        String last = last(BOXED.matcher(pred));
        if (last == null) last = last(PARENS.matcher(pred));
        if (last == null) last = last(LONE_A_TO_G.matcher(pred.toUpperCase(Locale.ROOT)));
        return last == null ? "" : last;
    }

    private static String last(Matcher m) {
        String last = null;
        while (m.find()) last = m.group(1);
        return last;
    }

    /** MedqbenchMCQ's {@code _extract_option_letter}: a letter, or the stripped reply when none is read. */
    static String medqbenchOption(String prediction) {
        String p = prediction.strip();
        String upper = p.toUpperCase(Locale.ROOT);
        if (Set.of("A", "B", "C", "D").contains(upper)) return upper;
        for (Pattern pattern : new Pattern[] {MED_LEADING, MED_PHRASE, MED_DASH, MED_ISOLATED}) {
            Matcher m = pattern.matcher(upper);
            if (pattern == MED_LEADING || pattern == MED_DASH ? m.lookingAt() : m.find()) return m.group(1);
        }
        return p;
    }
}
