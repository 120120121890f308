package dev.gamagent.eval;

import dev.gamagent.api.Question;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.function.Supplier;

/**
 * One question as the harness runs it: the question without its pixels ({@code shell}; its {@code id}
 * is unique in the run), how to decode its images ({@code images}, null when the shell already holds
 * them), the benchmark row it came from ({@code group}; the rotations of one MMBench row share it), the
 * circular rotation (0 = original option order) and the row's split. Images are decoded only while the
 * question is in flight, so a benchmark of thousands of images does not have to fit in memory.
 */
public record EvalQuestion(Question shell, Supplier<List<Picture>> images, String group, int rotation, String split) {
    /** A question that already holds its images. */
    public EvalQuestion(Question question, String group, int rotation, String split) {
        this(question, null, group, rotation, split);
    }

    /** The full question; decodes the images (again) when they are loaded lazily. */
    public Question question() { return images == null ? shell : shell.withImages(images.get()); }

    public String id() { return shell.id(); }

    public String category() { return shell.category() == null || shell.category().isBlank() ? "-" : shell.category(); }

    public String l2Category() { return shell.l2Category() == null || shell.l2Category().isBlank() ? "-" : shell.l2Category(); }
}
