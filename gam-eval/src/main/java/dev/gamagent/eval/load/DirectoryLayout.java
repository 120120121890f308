package dev.gamagent.eval.load;

import java.nio.file.Path;

/**
 * A directory read as a dataset because it holds a layout the project knows (a benchmark's own download, e.g.
 * MVBench's). {@link BenchmarkLoader} holds the list of them; {@code --data DIR} uses the first that
 * {@link #matches} the directory.
 */
public interface DirectoryLayout {
    /** The benchmark or layout's name, e.g. "MVBench". */
    String name();

    /** What a directory must hold to be this layout, for the message when none matches. */
    String expects();

    boolean matches(Path dir);

    /**
     * What {@code dir} lacks to be this layout, in a few words (e.g. "no json/ folder"), for the message when no
     * layout {@link #matches}; null when it matches, or when the layout says no more than {@link #expects}.
     */
    default String lacks(Path dir) { return null; }

    Dataset load(Path dir, RowFilter filter, Images images);
}
