package dev.gamagent.eval.load;

import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.function.Supplier;

/**
 * One question as the harness runs it: its id (unique in the run), the benchmark row it came from
 * ({@code group}; the rotations of one MMBench row share it), the circular rotation (0 = original option
 * order), the row's split, category and line, and where its text and images come from. A question of an
 * indexed benchmark file holds only these few fields: its text is read again from the file when asked
 * ({@link #shell()}), and its images are decoded only when it starts ({@link #question()}) and dropped when it
 * ends, so memory follows the questions in flight, not the size of the file.
 */
public final class EvalQuestion {
    /** Where a question's text and images come from when they are asked for. */
    public interface Source {
        /** The question (with its answer key) without its pixels. */
        KeyedQuestion shell();

        /** The question (with its answer key) with its images decoded. */
        KeyedQuestion full();

        /**
         * The sizes of the question's images without decoding their pixels where the source can (an image's header;
         * a video's stream size times the frames it gives); this default decodes them.
         */
        default List<ImageLoader.Header> imageSizes() { return sizesOf(full().question().images()); }
    }

    /** The sizes of decoded pictures. */
    public static List<ImageLoader.Header> sizesOf(List<Picture> pictures) {
        return pictures.stream().map(p -> new ImageLoader.Header(null, p.width(), p.height())).toList();
    }

    private final String id;
    private final String group;
    private final int rotation;
    private final String split;
    private final String category;
    private final String l2Category;
    private final int optionCount;
    private final long line;
    private final Source source;

    private EvalQuestion(String id, String group, int rotation, String split, String category, String l2Category, int optionCount,
                         long line, Source source) {
        this.id = id;
        this.group = group;
        this.rotation = rotation;
        this.split = split;
        this.category = dash(category);
        this.l2Category = dash(l2Category);
        this.optionCount = optionCount;
        this.line = line;
        this.source = source;
    }

    /** A question that already holds its images. */
    public EvalQuestion(KeyedQuestion question, String group, int rotation, String split) {
        this(question, null, group, rotation, split);
    }

    /** A question whose images {@code images} decodes when it starts (null: {@code shell} already holds them). */
    public EvalQuestion(KeyedQuestion shell, Supplier<List<Picture>> images, String group, int rotation, String split) {
        this(shell, images, null, group, rotation, split);
    }

    /** As above, with {@code sizes} giving the images' sizes without decoding them (null: decoded to know them). */
    public EvalQuestion(KeyedQuestion shell, Supplier<List<Picture>> images, Supplier<List<ImageLoader.Header>> sizes, String group, int rotation,
                        String split) {
        this(shell.id(), group, rotation, split, shell.category(), shell.l2Category(), shell.options().size(), 0, new Source() {
            @Override public KeyedQuestion shell() { return shell; }

            @Override public KeyedQuestion full() { return images == null ? shell : shell.withImages(images.get()); }

            @Override public List<ImageLoader.Header> imageSizes() {
                if (images == null) return sizesOf(shell.question().images());
                return sizes != null ? sizes.get() : sizesOf(images.get());
            }
        });
    }

    /** A question read from its source when asked; the fields given here are all that is held until then. */
    public static EvalQuestion indexed(String id, String split, String category, String l2Category, int optionCount, long line,
                                       Source source) {
        return new EvalQuestion(id, id, 0, split, category, l2Category, optionCount, line, source);
    }

    /** The question and its answer key without its pixels; an indexed question reads its row again. */
    public KeyedQuestion shell() { return source.shell(); }

    /**
     * The full question with its images and its answer key, decoded now (again on every call: the caller holds them while
     * it runs); a method is given its {@link KeyedQuestion#question()} alone.
     */
    public KeyedQuestion question() { return source.full(); }

    /**
     * Its images' sizes (width, height; the format when known), read from their headers where the source can, so that a
     * plan sizes a whole benchmark holding one row's cell at a time and decoding nothing ({@code gam reproduce --dry-run}).
     */
    public List<ImageLoader.Header> imageSizes() { return source.imageSizes(); }

    public String id() { return id; }

    public String group() { return group; }

    public int rotation() { return rotation; }

    public String split() { return split; }

    /** The category, "-" when none. */
    public String category() { return category; }

    public String l2Category() { return l2Category; }

    /** How many options the question has (0: open question). */
    public int optionCount() { return optionCount; }

    /** The 1-based line of the benchmark file the row starts on, 0 when it did not come from a file. */
    public long line() { return line; }

    /** Circular rotation {@code r} of this question, read from the same source and turned by {@code rotate} (CircularExpansion's). */
    EvalQuestion rotated(int r, java.util.function.UnaryOperator<KeyedQuestion> rotate) {
        Source base = source;
        return new EvalQuestion(id + "#r" + r, group, r, split, category, l2Category, optionCount, line, new Source() {
            @Override public KeyedQuestion shell() { return rotate.apply(base.shell()); }

            @Override public KeyedQuestion full() { return rotate.apply(base.full()); }

            @Override public List<ImageLoader.Header> imageSizes() { return base.imageSizes(); }
        });
    }

    /** The same question counted in another group and rotation (VLMEvalKit's pre-rotated rows). */
    EvalQuestion regrouped(String newGroup, int newRotation) {
        return new EvalQuestion(id, newGroup, newRotation, split, category, l2Category, optionCount, line, source);
    }

    private static String dash(String s) { return s == null || s.isBlank() ? "-" : s; }

    @Override public String toString() { return "EvalQuestion[" + id + (rotation > 0 ? ", rotation " + rotation : "") + "]"; }
}
