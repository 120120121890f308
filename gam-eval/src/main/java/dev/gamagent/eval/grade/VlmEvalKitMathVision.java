package dev.gamagent.eval.grade;

import dev.gamagent.eval.load.KeyedQuestion;

import java.util.Locale;

/**
 * VLMEvalKit's MathVision grading ({@code vlmeval/dataset/utils/mathv.py} at e8e78f05): a multiple-choice reply is read
 * by {@code can_infer} (our multiple-choice path) and, where that finds no letter, the judge's extraction is; a
 * free-form reply equal to the answer by {@link #isEqual} is decided without the judge (the prefetch), every other
 * one goes to the judge with VLMEvalKit's MathVision prompt ({@link HarnessPrompt#MATHVISION}) and its extraction is
 * compared by {@link #isEqual}. Without a judge the prefetch alone decides, and what it leaves is undecided.
 */
final class VlmEvalKitMathVision {
    static final String RULE = "mathvision";
    /** {@code is_equal}'s tolerance. */
    private static final double TOLERANCE = 1e-6;

    private VlmEvalKitMathVision() { }

    /** A free-form reply: the prefetch, then (with a judge) the judge's extraction. */
    static Grade open(KeyedQuestion q, String reply, HarnessJudge judge) {
        String r = reply == null ? "" : reply;
        if (!r.isEmpty() && isEqual(r, q.groundTruth())) return new Grade(Outcome.CORRECT, r.strip(), RULE + ":prefetch");
        if (judge == null) return new Grade(Outcome.UNMATCHED, r.strip(), RULE + ":needs-judge");
        String res = judge.ask(HarnessPrompt.MATHVISION.render(q.text(), r));
        if (res == null) return new Grade(Outcome.UNMATCHED, null, RULE + ":judge-failed");
        return new Grade(isEqual(res, q.groundTruth()) ? Outcome.CORRECT : Outcome.WRONG, res.strip(), RULE + ":judge");
    }

    /**
     * {@code is_equal(asw, gt_asw)}: equal after lower-casing and stripping, else both read as numbers (Python's
     * {@code eval}, then latex2sympy's value of a numeric LaTeX expression) within 1e-6.
     */
    static boolean isEqual(String answer, String truth) {
        String a = VlmEvalKitMathVista.pyStrip(answer.toLowerCase(Locale.ROOT));
        String g = VlmEvalKitMathVista.pyStrip(truth == null ? "none" : truth.toLowerCase(Locale.ROOT));
        if (a.equals(g)) return true;
        if (close(NumericExpression.python(g), NumericExpression.python(a))) return true;
        return close(NumericExpression.latex(g), NumericExpression.latex(a));
    }

    private static boolean close(Double a, Double b) {
        return a != null && b != null && Math.abs(a - b) < TOLERANCE;
    }
}
