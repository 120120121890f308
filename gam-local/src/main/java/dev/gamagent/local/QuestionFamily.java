package dev.gamagent.local;

import java.util.List;
import java.util.Locale;

/**
 * The question families the local model answers (the synthetic benchmark's, docs/CONTRACTS.md §3, in any
 * phrasing), recognised by {@code QuestionReader} from the question's content words and its options.
 * Anything else is {@link Unknown}: the local model then says it cannot tell, with a uniform distribution.
 */
public sealed interface QuestionFamily {
    List<String> COLORS = List.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
    List<String> SHAPES = List.of("circle", "square", "triangle", "star", "hexagon");

    /** The benchmark's category name. */
    String category();

    /** "What word is written on the sign?" and friends; {@code kind} says which text to prefer. */
    record Text(TextKind kind) implements QuestionFamily { public String category() { return "text"; } }

    enum TextKind { SIGN, LABEL, SMALL_PRINT }

    /** How many objects, optionally of one shape and/or one colour ("How many red circles"). */
    record Count(String shape, String color) implements QuestionFamily { public String category() { return "count"; } }

    /**
     * The colour of the (unique) object of {@code shape}; {@code shape} null when the question names no
     * shape ("What colour is the object?"), {@code place} non-null when it says where the object is
     * ("the shape on the left").
     */
    record Color(String shape, Place place) implements QuestionFamily {
        public Color(String shape) { this(shape, null); }

        public String category() { return "color"; }
    }

    /** The shape of the (unique) object of {@code color}; either may be null, as for {@link Color}. */
    record Shape(String color, Place place) implements QuestionFamily {
        public Shape(String color) { this(color, null); }

        public String category() { return "shape"; }
    }

    /** Where the asked object stands when the question names no other object: the extreme one that way. */
    enum Place { LEFT, RIGHT, TOP, BOTTOM }

    /**
     * A relation to the target object ({@code color} {@code shape}); {@code other} is set for the
     * two-object direction questions.
     */
    record Spatial(Relation relation, Obj target, Obj other) implements QuestionFamily {
        public String category() { return "spatial"; }
    }

    enum Relation { LEFT_OF, RIGHT_OF, ABOVE, BELOW, NEAREST, LEFT_OR_RIGHT, ABOVE_OR_BELOW }

    /** An object named by colour and shape, e.g. "red circle"; one of them may be null ("the circle"). */
    record Obj(String color, String shape) {
        @Override public String toString() {
            return color == null ? (shape == null ? "object" : shape) : shape == null ? color + " object" : color + " " + shape;
        }
    }

    /** A bar chart question; labels set as the template needs them. */
    record Chart(ChartKind kind, String label, String label2) implements QuestionFamily {
        public String category() { return "chart"; }
    }

    enum ChartKind { TALLEST, SHORTEST, VALUE, LARGER, SMALLER }

    /**
     * A question about time in a video, whose images are the clip's frames in order (issue 30): which way
     * {@code obj} moves ({@link VideoKind#MOTION}), how many times the lamp of {@code color} blinks
     * ({@link VideoKind#BLINKS}), which of the option objects appears first or last ({@link VideoKind#FIRST},
     * {@link VideoKind#LAST}).
     */
    record Video(VideoKind kind, Obj obj) implements QuestionFamily { public String category() { return "video"; } }

    enum VideoKind { MOTION, BLINKS, FIRST, LAST }

    record Unknown() implements QuestionFamily { public String category() { return "unknown"; } }

    /** "circles" → "circle", "boxes" stays a non-shape. */
    static String singular(String w) {
        if (w.endsWith("es") && SHAPES.contains(w.substring(0, w.length() - 2))) return w.substring(0, w.length() - 2);
        if (w.endsWith("s") && SHAPES.contains(w.substring(0, w.length() - 1))) return w.substring(0, w.length() - 1);
        return w;
    }

    /** British spelling and "grey" map to the benchmark's names. */
    static String colour(String w) {
        return "grey".equals(w) ? "gray" : w;
    }

    /** The known colour named in {@code text}, or null. */
    static String colourIn(String text) {
        for (String w : words(text)) if (COLORS.contains(colour(w))) return colour(w);
        return null;
    }

    /** The known shape named in {@code text}, or null. */
    static String shapeIn(String text) {
        for (String w : words(text)) if (SHAPES.contains(singular(w))) return singular(w);
        return null;
    }

    static List<String> words(String text) {
        if (text == null) return List.of();
        return List.of(text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"));
    }
}
