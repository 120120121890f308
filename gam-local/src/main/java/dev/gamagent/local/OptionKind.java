package dev.gamagent.local;

import java.util.List;
import java.util.Locale;

import static dev.gamagent.local.QuestionWords.COLOR_SYNONYMS;
import static dev.gamagent.local.QuestionWords.NUMBER_WORDS;

/**
 * What kind of value an option is (a colour, a shape, an object, a direction, a number, yes or no, any other word; NONE
 * for an open question), read from the option's words: how the readers of questions tell which family a question
 * with options belongs to.
 */
enum OptionKind {
    COLOR, SHAPE, OBJECT, DIRECTION, NUMBER, YES_NO, WORD, NONE;

    /** The kind all of {@code options} share: NONE for no options, WORD when they are of different kinds. */
    static OptionKind of(List<String> options) {
        if (options.isEmpty()) return NONE;
        OptionKind k = null;
        for (String o : options) {
            OptionKind ok = of(o);
            if (k == null) k = ok;
            else if (k != ok) return WORD;
        }
        return k;
    }

    static OptionKind of(String option) {
        String bare = option.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9. ]", " ").strip();
        if (bare.matches("\\d+(\\.\\d+)?") || NUMBER_WORDS.contains(bare)) return NUMBER;
        String s = option.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 ]", " ")
                .replaceAll("\\b(a|an|the|on|to|it|is|at|of|side|one|object|shape)\\b", " ").strip().replaceAll("\\s+", " ");
        if (s.matches("\\d+(\\.\\d+)?") || NUMBER_WORDS.contains(s)) return NUMBER;
        if (s.equals("yes") || s.equals("no")) return YES_NO;
        String[] parts = s.split(" ");
        if (parts.length == 1 && direction(parts[0]) != null) return DIRECTION;
        String colour = null, shape = null;
        int other = 0;
        for (String p : parts) {
            String c = COLOR_SYNONYMS.getOrDefault(p, p);
            if (QuestionFamily.COLORS.contains(c)) colour = c;
            else if (QuestionFamily.SHAPES.contains(QuestionFamily.singular(p))) shape = p;
            else other++;
        }
        if (other == 0 && colour != null && shape != null) return OBJECT;
        if (other == 0 && colour != null) return COLOR;
        if (other == 0 && shape != null) return SHAPE;
        return WORD;
    }

    /** "left", "on the right", "Above", "higher" → left, right, above, below; null for anything else. */
    static String direction(String option) {
        String s = option == null ? "" : option.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", " ")
                .replaceAll("\\b(a|an|the|on|to|it|is|at|of|side|hand|in|of)\\b", " ").strip().replaceAll("\\s+", " ");
        return switch (s) {
            case "left", "leftward", "leftwards" -> "left";
            case "right", "rightward", "rightwards" -> "right";
            case "above", "over", "higher", "up", "top", "upper", "higher up" -> "above";
            case "below", "under", "beneath", "underneath", "lower", "down", "bottom", "lower down" -> "below";
            default -> null;
        };
    }
}
