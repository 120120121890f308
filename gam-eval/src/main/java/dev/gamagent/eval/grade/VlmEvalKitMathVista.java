package dev.gamagent.eval.grade;

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
 */
public final class VlmEvalKitMathVista {
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+(?:_\\d+)*");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:\\d+(?:_\\d+)*(?:\\.(?:\\d+(?:_\\d+)*)?)?|\\.\\d+(?:_\\d+)*)(?:[eE][+-]?\\d+)?");

    /** What the rule says about one free-form reply. */
    public enum Verdict { RIGHT, WRONG, NEEDS_JUDGE }

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
