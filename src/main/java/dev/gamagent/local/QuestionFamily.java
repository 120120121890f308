package dev.gamagent.local;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The synthetic benchmark's question families (docs/CONTRACTS.md §3), recognised from the question text
 * with tolerant patterns. Anything else is {@link Unknown}: the local model then says it cannot tell.
 */
public sealed interface QuestionFamily {
    List<String> COLORS = List.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
    List<String> SHAPES = List.of("circle", "square", "triangle", "star", "hexagon");

    /** The benchmark's category name. */
    String category();

    /** "What word is written on the sign?" and friends; {@code kind} says which text to prefer. */
    record Text(TextKind kind) implements QuestionFamily { public String category() { return "text"; } }

    enum TextKind { SIGN, LABEL, SMALL_PRINT }

    /** How many objects, optionally of one shape or one colour (at most one of them is set). */
    record Count(String shape, String color) implements QuestionFamily { public String category() { return "count"; } }

    /** The colour of the (unique) object of {@code shape}. */
    record Color(String shape) implements QuestionFamily { public String category() { return "color"; } }

    /** The shape of the (unique) object of {@code color}. */
    record Shape(String color) implements QuestionFamily { public String category() { return "shape"; } }

    /**
     * A relation to the target object ({@code color} {@code shape}); {@code other} is set for the
     * two-object direction questions.
     */
    record Spatial(Relation relation, Obj target, Obj other) implements QuestionFamily {
        public String category() { return "spatial"; }
    }

    enum Relation { LEFT_OF, RIGHT_OF, ABOVE, BELOW, NEAREST, LEFT_OR_RIGHT, ABOVE_OR_BELOW }

    /** An object named by colour and shape, e.g. "red circle". */
    record Obj(String color, String shape) {
        @Override public String toString() { return color + " " + shape; }
    }

    /** A bar chart question; labels set as the template needs them. */
    record Chart(ChartKind kind, String label, String label2) implements QuestionFamily {
        public String category() { return "chart"; }
    }

    enum ChartKind { TALLEST, SHORTEST, VALUE, LARGER, SMALLER }

    record Unknown() implements QuestionFamily { public String category() { return "unknown"; } }

    Pattern TEXT = Pattern.compile("what (?:word|text) is (?:written|shown|printed)|what does the (label|sign) say|what is (?:written|printed) in the (small print)|what is written|what (?:word|text) (?:is|appears)", Pattern.CASE_INSENSITIVE);
    Pattern COUNT = Pattern.compile("how many\\s+([a-z ]+?)\\s+(?:are|is)\\s+(?:there|in|shown|visible)", Pattern.CASE_INSENSITIVE);
    Pattern COLOR = Pattern.compile("what colou?r is the\\s+([a-z]+)", Pattern.CASE_INSENSITIVE);
    Pattern SHAPE = Pattern.compile("what shape is the\\s+([a-z]+)", Pattern.CASE_INSENSITIVE);
    Pattern WHICH_OBJECT = Pattern.compile(
            "which (?:object|shape) is (to the left of|left of|to the right of|right of|above|below|nearest to|closest to|nearest|closest)\\s+the\\s+([a-z]+)\\s+([a-z]+)",
            Pattern.CASE_INSENSITIVE);
    Pattern DIRECTION = Pattern.compile(
            "is the\\s+([a-z]+)\\s+([a-z]+)\\s+(to the left of or to the right of|left or right of|to the left or right of|above or below)\\s+the\\s+([a-z]+)\\s+([a-z]+)",
            Pattern.CASE_INSENSITIVE);
    Pattern BAR_EXTREME = Pattern.compile("which bar is the\\s+(tallest|highest|longest|largest|shortest|lowest|smallest)", Pattern.CASE_INSENSITIVE);
    Pattern BAR_VALUE = Pattern.compile("what is the value of the bar label(?:l)?ed\\s+[\"'“]?(.+?)[\"'”]?\\s*\\??\\s*$", Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);
    Pattern BAR_COMPARE = Pattern.compile("which is (larger|bigger|greater|higher|smaller|lower)\\s*,?\\s*[\"'“]?(.+?)[\"'”]?\\s+or\\s+[\"'“]?(.+?)[\"'”]?\\s*\\??\\s*$", Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

    /** Recognises the family of a question text. */
    static QuestionFamily recognize(String question) {
        String q = question == null ? "" : question.strip();
        Matcher m;
        if ((m = BAR_EXTREME.matcher(q)).find()) {
            String w = m.group(1).toLowerCase(Locale.ROOT);
            return new Chart(w.matches("shortest|lowest|smallest") ? ChartKind.SHORTEST : ChartKind.TALLEST, null, null);
        }
        if ((m = BAR_VALUE.matcher(q)).find()) return new Chart(ChartKind.VALUE, m.group(1).strip(), null);
        if ((m = BAR_COMPARE.matcher(q)).find()) {
            boolean smaller = m.group(1).toLowerCase(Locale.ROOT).matches("smaller|lower");
            return new Chart(smaller ? ChartKind.SMALLER : ChartKind.LARGER, m.group(2).strip(), m.group(3).strip());
        }
        if ((m = DIRECTION.matcher(q)).find()) {
            Obj a = obj(m.group(1), m.group(2)), b = obj(m.group(4), m.group(5));
            if (a != null && b != null) {
                Relation r = m.group(3).toLowerCase(Locale.ROOT).contains("above") ? Relation.ABOVE_OR_BELOW : Relation.LEFT_OR_RIGHT;
                return new Spatial(r, a, b);
            }
        }
        if ((m = WHICH_OBJECT.matcher(q)).find()) {
            Obj t = obj(m.group(2), m.group(3));
            String r = m.group(1).toLowerCase(Locale.ROOT);
            Relation rel = r.contains("left") ? Relation.LEFT_OF : r.contains("right") ? Relation.RIGHT_OF
                    : r.contains("above") ? Relation.ABOVE : r.contains("below") ? Relation.BELOW : Relation.NEAREST;
            if (t != null) return new Spatial(rel, t, null);
        }
        if ((m = COUNT.matcher(q)).find()) {
            String shape = null, color = null;
            for (String w : m.group(1).toLowerCase(Locale.ROOT).split("\\s+")) {
                String s = singular(w);
                if (SHAPES.contains(s)) shape = s;
                else if (COLORS.contains(colour(w))) color = colour(w);
                else if (!s.matches("(object|shape|thing|item|figure)s?|different|distinct|total|in|the")) return new Unknown();
            }
            return new Count(shape, color);
        }
        if ((m = COLOR.matcher(q)).find()) {
            String s = singular(m.group(1).toLowerCase(Locale.ROOT));
            return SHAPES.contains(s) ? new Color(s) : new Unknown();
        }
        if ((m = SHAPE.matcher(q)).find()) {
            String c = colour(m.group(1).toLowerCase(Locale.ROOT));
            return COLORS.contains(c) ? new Shape(c) : new Unknown();
        }
        if ((m = TEXT.matcher(q)).find()) {
            String lower = q.toLowerCase(Locale.ROOT);
            TextKind k = lower.contains("small print") || lower.contains("fine print") ? TextKind.SMALL_PRINT
                    : lower.contains("label") ? TextKind.LABEL : TextKind.SIGN;
            return new Text(k);
        }
        return new Unknown();
    }

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

    private static Obj obj(String color, String shape) {
        String c = colour(color.toLowerCase(Locale.ROOT)), s = singular(shape.toLowerCase(Locale.ROOT));
        return COLORS.contains(c) && SHAPES.contains(s) ? new Obj(c, s) : null;
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
