package dev.gamagent.eval.grade;

import java.util.Locale;

/**
 * How one question × method ended. {@code UNMATCHED} (a refusal or an answer naming no single option)
 * counts as not right but is reported apart from {@code WRONG}; {@code ERROR} (the backend failed) is
 * not graded at all and is retried when the run resumes. {@code UNGRADED} is an answer to a question without a
 * public answer (a test split such as MMBench_TEST_EN_V11): kept for the submission file, never counted right or wrong.
 */
public enum Outcome {
    CORRECT, WRONG, UNMATCHED, ERROR, UNGRADED;

    public String label() { return name().toLowerCase(Locale.ROOT); }

    public static Outcome of(String label) { return valueOf(label.toUpperCase(Locale.ROOT)); }
}
