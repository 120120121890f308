package dev.gamagent.eval.grade;

import dev.gamagent.eval.load.KeyedQuestion;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rule-based step of VLMEvalKit's MathVista grading ({@code post_check(line, prefetch=True)} in
 * {@code vlmeval/dataset/utils/mathvista.py}), which decides a reply without the judge: multiple choice by
 * {@code can_infer} (our multiple-choice path), an integer answer when the whole reply is an integer
 * ({@code int(response) == int(answer)}), a float answer when the whole reply is a number equal to it
 * ({@code float(response) == float(answer)}). Every other reply VLMEvalKit sends to its judge, which
 * extracts an answer first; without a judge we cannot, so such a reply is {@link Verdict#NEEDS_JUDGE}.
 * The answer's type is read from the answer itself (MathVista's integer answers are integers, its float
 * answers decimals; text and list answers always go to the judge).
 * <p>With a judge ({@code judged}), the whole of {@code MathVista_auxeval} and {@code post_check(line, prefetch=False)}:
 * what the prefetch does not decide goes to the judge with VLMEvalKit's extraction prompt ({@link HarnessPrompt#MATHVISTA}),
 * and the judge's extraction is compared as the question's answer type says: {@code int()} for integers,
 * {@code float()} for floats, a letter by {@code can_infer} for multiple choice; a list or text answer is never
 * right there ({@code post_check} compares {@code str(None)} with the answer), which we keep, as VLMEvalKit counts it so.
 */
public final class VlmEvalKitMathVista {
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+(?:_\\d+)*");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:\\d+(?:_\\d+)*(?:\\.(?:\\d+(?:_\\d+)*)?)?|\\.\\d+(?:_\\d+)*)(?:[eE][+-]?\\d+)?");

    private static final Pattern FLOAT_WORD = Pattern.compile("[+-]?(?:inf|infinity|nan)", Pattern.CASE_INSENSITIVE);
    static final String RULE = "mathvista";

    /** What the rule says about one free-form reply. */
    public enum Verdict { RIGHT, WRONG, NEEDS_JUDGE }

    /** MathVista's {@code answer_type} of a free-form question. */
    enum AnswerType { INTEGER, FLOAT, LIST, TEXT }

    /**
     * The answer type: read from the hint MathVista puts in each free-form question ("requiring an integer answer",
     * "a floating-point number", "a Python list"), else from the answer's form (a file without the hint).
     */
    static AnswerType answerType(String question, String answer) {
        String q = question == null ? "" : question;
        if (q.contains("requiring an integer answer")) return AnswerType.INTEGER;
        if (q.contains("requiring a floating-point number")) return AnswerType.FLOAT;
        if (q.contains("requiring a Python list")) return AnswerType.LIST;
        String a = pyStrip(answer == null ? "" : answer);
        return INTEGER.matcher(a).matches() ? AnswerType.INTEGER : FLOAT.matcher(a).matches() ? AnswerType.FLOAT : AnswerType.TEXT;
    }

    /**
     * VLMEvalKit's grading of a free-form reply with the judge: the prefetch decides a reply equal to the answer (a
     * zero it leaves to the judge, as Python reads the value 0 as "not decided"); every other reply goes to the judge,
     * whose extraction {@link #postCheck} compares.
     */
    static Grade judgedOpen(KeyedQuestion q, String reply, HarnessJudge judge) {
        AnswerType type = answerType(q.text(), q.groundTruth());
        Number value = value(reply, type);
        if (value != null && value.equals(value(q.groundTruth(), type)) && !isZero(value)) {
            return new Grade(Outcome.CORRECT, pyStrip(reply), RULE + ":prefetch");
        }
        String res = judge.ask(HarnessPrompt.MATHVISTA.render(q.text(), reply));
        if (res == null) return new Grade(Outcome.UNMATCHED, null, RULE + ":judge-failed");
        return new Grade(postCheck(res, q.groundTruth(), type) ? Outcome.CORRECT : Outcome.WRONG, res.strip(), RULE + ":judge");
    }

    /** A multiple-choice reply the rules could not read: the judge's extraction read by {@code can_infer}. */
    static Grade judgedChoice(KeyedQuestion q, String reply, HarnessJudge judge, HarnessPrompt prompt, String rule) {
        String res = judge.ask(prompt.render(q.text(), reply));
        if (res == null) return new Grade(Outcome.UNMATCHED, null, rule + ":judge-failed");
        String letter = VlmEvalKitMatcher.infer(res, q.options(), VlmEvalKitMatcher.Rules.V2026).letter();
        if (letter == null) return new Grade(Outcome.UNMATCHED, null, rule + ":judge");
        return new Grade(letter.equals(q.groundTruth()) ? Outcome.CORRECT : Outcome.WRONG, letter, rule + ":judge");
    }

    /** {@code post_check(line, prefetch=False)} of a free-form question: the judge's extraction {@code res} against the answer. */
    static boolean postCheck(String res, String answer, AnswerType type) {
        return switch (type) {
            case INTEGER, FLOAT -> {
                Number r = value(res, type);
                yield r != null && r.equals(value(answer, type));
            }
            // res = str(None): only an answer reading "None" would equal it
            case LIST, TEXT -> "None".equals(answer);
        };
    }

    /** Python's {@code int(s)} or {@code float(s)} as an exact value, or null where Python raises ValueError. */
    static Number value(String s, AnswerType type) {
        if (s == null) return null;
        String t = pyStrip(s);
        if (type == AnswerType.INTEGER) {
            return INTEGER.matcher(t).matches() ? new BigInteger(t.replace("_", "").replace("+", "")) : null;
        }
        if (type != AnswerType.FLOAT) return null;
        if (FLOAT_WORD.matcher(t).matches()) {
            // nan equals nothing in Python, so it is as good as unreadable here; inf equals inf
            String w = t.toLowerCase(Locale.ROOT);
            return w.contains("nan") ? null : w.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (!FLOAT.matcher(t).matches()) return null;
        // float() rounds to the nearest double: equal doubles are equal values (1.0 == 1.00), compared exactly
        double d = Double.parseDouble(t.replace("_", ""));
        return Double.isInfinite(d) ? (Number) d : BigDecimal.valueOf(d).stripTrailingZeros();
    }

    private static boolean isZero(Number n) {
        return n instanceof BigInteger b ? b.signum() == 0 : n instanceof BigDecimal d && d.signum() == 0;
    }

    private VlmEvalKitMathVista() { }

    /** post_check's prefetch for a free-form question with ground truth {@code answer}. */
    public static Verdict prefetch(String reply, String answer) {
        String a = pyStrip(answer == null ? "" : answer), r = pyStrip(reply == null ? "" : reply);
        if (INTEGER.matcher(a).matches()) {
            // a reply int() cannot read goes to the judge; one it reads is compared as VLMEvalKit's judge would find it
            if (!INTEGER.matcher(r).matches()) return Verdict.NEEDS_JUDGE;
            return new java.math.BigInteger(r.replace("_", "").replace("+", "")).equals(new java.math.BigInteger(a.replace("_", "").replace("+", "")))
                    ? Verdict.RIGHT : Verdict.WRONG;
        }
        if (FLOAT.matcher(a).matches()) {
            if (!FLOAT.matcher(r).matches()) return Verdict.NEEDS_JUDGE;
            return Double.parseDouble(r.replace("_", "")) == Double.parseDouble(a.replace("_", "")) ? Verdict.RIGHT : Verdict.WRONG;
        }
        return Verdict.NEEDS_JUDGE;
    }

    /** Python's str.strip(): leading and trailing str.isspace characters go (int() and float() allow them). */
    static String pyStrip(String s) {
        int b = 0, e = s.length();
        while (b < e && VlmEvalKitMatcher.isPySpace(s.charAt(b))) b++;
        while (e > b && VlmEvalKitMatcher.isPySpace(s.charAt(e - 1))) e--;
        return s.substring(b, e);
    }
}
