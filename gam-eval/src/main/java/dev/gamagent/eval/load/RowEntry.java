package dev.gamagent.eval.load;

import dev.gamagent.image.ImageLoader;

import java.util.List;

/**
 * Where one row of an indexed benchmark file lies (bytes [start, start + length), starting on 1-based {@code line}),
 * its index, and, for a row whose {@code image} names another row (VLMEvalKit's convention), that row: all a question
 * of a large file holds until it starts. It is the question's {@link EvalQuestion.Source}: asked, it reads its row again.
 */
final class RowEntry implements EvalQuestion.Source {
    /** What reads a row again by its entry ({@link BenchmarkFile}). */
    interface Rows {
        KeyedQuestion shell(RowEntry e);

        KeyedQuestion full(RowEntry e);

        List<ImageLoader.Header> imageSizes(RowEntry e);
    }

    final Rows file;
    final String idx;
    final long start;
    final int length;
    final long line;
    /** The row whose image this row's image cell names (shared by every row naming it), or null. */
    final RowEntry imageRow;

    RowEntry(Rows file, String idx, long start, int length, long line, RowEntry imageRow) {
        this.file = file;
        this.idx = idx;
        this.start = start;
        this.length = length;
        this.line = line;
        this.imageRow = imageRow;
    }

    @Override public KeyedQuestion shell() { return file.shell(this); }

    @Override public KeyedQuestion full() { return file.full(this); }

    @Override public List<ImageLoader.Header> imageSizes() { return file.imageSizes(this); }
}
