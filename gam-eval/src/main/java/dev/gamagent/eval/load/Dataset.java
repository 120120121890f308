package dev.gamagent.eval.load;

import java.util.List;

/**
 * The usable questions of one benchmark and the rows that were skipped (with reasons). A dataset read from a
 * file is an index: each question holds where its row lies and reads its text and images when asked
 * ({@link EvalQuestion}). {@code sha256} is the file's content hash taken in the same read (null when not known);
 * {@code rows} the file's rows that are not blank, all of them however few {@code --limit} kept (null when not counted),
 * so that a run can say how many of the benchmark's questions it ran.
 */
public record Dataset(String name, List<EvalQuestion> questions, List<SkippedRow> skipped, String sha256, Long rows) {
    public Dataset {
        questions = List.copyOf(questions);
        skipped = List.copyOf(skipped);
    }

    public Dataset(String name, List<EvalQuestion> questions, List<SkippedRow> skipped, String sha256) { this(name, questions, skipped, sha256, null); }

    public Dataset(String name, List<EvalQuestion> questions, List<SkippedRow> skipped) { this(name, questions, skipped, null, null); }
}
