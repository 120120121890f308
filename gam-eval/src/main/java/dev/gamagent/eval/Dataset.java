package dev.gamagent.eval;

import java.util.List;

/** The usable questions of one benchmark file and the rows that were skipped (with reasons). */
public record Dataset(String name, List<EvalQuestion> questions, List<SkippedRow> skipped) {
    public Dataset {
        questions = List.copyOf(questions);
        skipped = List.copyOf(skipped);
    }
}
