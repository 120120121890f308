package dev.gamagent.eval;

/**
 * Where one row of an indexed benchmark file lies (bytes [start, start + length), starting on 1-based
 * {@code line}) and, for a row whose {@code image} names another row (VLMEvalKit's convention), that row.
 * This is all a question of a large file holds until it starts.
 */
final class RowEntry {
    final long start;
    final int length;
    final long line;
    RowEntry imageRow;

    RowEntry(long start, int length, long line) {
        this.start = start;
        this.length = length;
        this.line = line;
    }
}
