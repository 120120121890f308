package dev.gamagent.eval;

import dev.gamagent.api.Question;

/**
 * One question as the harness runs it: the question (its {@code id} is unique in the run), the
 * benchmark row it came from ({@code group}; several rotations of one MMBench row share it), the
 * circular rotation (0 = original option order) and the row's split.
 */
public record EvalQuestion(Question question, String group, int rotation, String split) {
    public String id() { return question.id(); }

    public String category() { return question.category() == null || question.category().isBlank() ? "-" : question.category(); }

    public String l2Category() { return question.l2Category() == null || question.l2Category().isBlank() ? "-" : question.l2Category(); }
}
