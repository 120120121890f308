package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionFamily.Place;
import dev.gamagent.local.QuestionFamily.Relation;
import dev.gamagent.local.QuestionFamily.TextKind;
import dev.gamagent.local.QuestionWords.Word;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.gamagent.local.ChartQuestionReader.chart;
import static dev.gamagent.local.ChartQuestionReader.comparesLabels;
import static dev.gamagent.local.QuestionWords.CHART_CUES;
import static dev.gamagent.local.QuestionWords.COLOR_ASKED;
import static dev.gamagent.local.QuestionWords.DETERMINERS;
import static dev.gamagent.local.QuestionWords.DOWN;
import static dev.gamagent.local.QuestionWords.GENERIC;
import static dev.gamagent.local.QuestionWords.LABEL;
import static dev.gamagent.local.QuestionWords.LEFT;
import static dev.gamagent.local.QuestionWords.NEAR;
import static dev.gamagent.local.QuestionWords.REFERENCE_MARKERS;
import static dev.gamagent.local.QuestionWords.RIGHT;
import static dev.gamagent.local.QuestionWords.SHAPE_ASKED;
import static dev.gamagent.local.QuestionWords.SMALL_PRINT;
import static dev.gamagent.local.QuestionWords.TEXT_CUES;
import static dev.gamagent.local.QuestionWords.UP;
import static dev.gamagent.local.QuestionWords.VALUE_CUES;
import static dev.gamagent.local.QuestionWords.any;
import static dev.gamagent.local.QuestionWords.containsWord;
import static dev.gamagent.local.QuestionWords.countCue;
import static dev.gamagent.local.QuestionWords.known;
import static dev.gamagent.local.QuestionWords.unknownNoun;
import static dev.gamagent.local.QuestionWords.words;
import static dev.gamagent.local.VideoQuestionReader.video;

/**
 * Understands a question from its content words rather than from templates: which thing is asked
 * (text, a count, a colour, a shape, a relation, a chart reading), about which object (colour and shape
 * words, "sign", "label", bar labels) and, when options are given, what kind of value each option is.
 * Synonyms ("colour", "hue"; "figure", "form"; "higher", "over"; "how many", "number of") and any word
 * order are read the same. A question naming something this model cannot perceive ("the sky", "people")
 * is {@link QuestionFamily.Unknown}: the reasoner then answers with a uniform distribution. The words and their
 * vocabulary are {@link QuestionWords}', the kinds of options {@link OptionKind}'s; a question about a chart or a clip
 * is read by {@link ChartQuestionReader} and {@link VideoQuestionReader}. The question families themselves
 * ({@link QuestionFamily}) know nothing of how they are read.
 */
final class QuestionReader {
    private QuestionReader() { }

    /** An object named in the question, at word index {@code at}; {@code reference} when a relation word points at it. */
    private record Mention(Obj obj, int at, boolean reference) { }

    /**
     * What was understood of a question: its family, and how clearly (1 when every content word was read;
     * halved for each word of a shape, colour, count or position question this model does not know, which
     * it lists in {@code unread}). The answer is mixed with the uniform distribution by 1 − clarity.
     */
    record Reading(QuestionFamily family, double clarity, List<String> unread) {
        Reading { unread = List.copyOf(unread); }

        static Reading unknown() { return new Reading(new QuestionFamily.Unknown(), 0, List.of()); }
    }

    /** Each word this model does not read halves the confidence it may put in its reading of the question. */
    static final double UNREAD_FACTOR = 0.5;

    /** Recognises the family of a question text without options (an open question). */
    static QuestionFamily recognize(String question) { return recognize(question, List.of()); }

    /**
     * Recognises the family, target and relation of a question from its content words and, when given,
     * the kind of value its options are (colours, shapes, objects, directions, numbers, words).
     */
    static QuestionFamily recognize(String question, List<String> options) { return read(question, options).family(); }

    /** As {@link #recognize(String, List)}, with how clearly the question was read. */
    static Reading read(String question, List<String> options) {
        String q = question == null ? "" : question.strip();
        List<Word> words = words(q);
        if (words.isEmpty()) return Reading.unknown();
        // "why", "who", "when" ask for something no perception answers; a negation would invert the answer.
        if (any(words, UNANSWERABLE) || any(words, NEGATIONS)) return Reading.unknown();
        List<String> opts = options == null ? List.of() : options;
        OptionKind kind = OptionKind.of(opts);
        QuestionFamily.Video video = video(q, words, kind);
        if (video != null) return new Reading(video, 1, List.of());

        boolean chart = any(words, CHART_CUES) && !any(words, TEXT_ONLY) || comparesLabels(words, opts);
        boolean count = countCue(q, words);
        boolean text = any(words, TEXT_CUES);
        if (chart && !(count && !any(words, Set.of("value", "values")) && kind != OptionKind.WORD && containsWord(words, "how"))) {
            QuestionFamily c = chart(q, words, opts, kind);
            if (c != null) return new Reading(c, 1, List.of());
        }
        if (text && !count && kind != OptionKind.NUMBER && kind != OptionKind.COLOR && kind != OptionKind.SHAPE
                && kind != OptionKind.OBJECT && kind != OptionKind.DIRECTION) {
            return new Reading(text(words), 1, List.of());
        }
        if (unknownNoun(words)) return Reading.unknown();
        List<Mention> mentions = mentions(words);
        QuestionFamily family;
        if (count && (kind == OptionKind.NUMBER || kind == OptionKind.NONE)) family = count(words);
        else {
            family = spatial(words, mentions, kind, opts);
            if (family == null) family = attribute(words, mentions, kind);
        }
        if (family instanceof QuestionFamily.Unknown) return Reading.unknown();
        List<String> unread = new ArrayList<>();
        for (Word w : words) if (!known(w) && !w.is(TEXT_CUES) && !w.is(CHART_CUES) && !w.is(VALUE_CUES)) unread.add(w.raw());
        return new Reading(family, Math.pow(UNREAD_FACTOR, unread.size()), unread);
    }

    private static final Set<String> UNANSWERABLE = Set.of("why", "who", "whom", "when", "whose", "wherefore", "imagine",
            "suppose", "mean", "means", "meaning");
    private static final Set<String> NEGATIONS = Set.of("not", "no", "never", "none", "except", "without", "neither", "nor");

    /** Words that make "value"/"column" text vocabulary rather than a chart's ("what word is written in the column"). */
    private static final Set<String> TEXT_ONLY = Set.of("written", "writing", "sign", "signboard", "signpost", "inscription",
            "lettering", "caption", "print", "printed", "says", "say", "reads");


    // ---------------------------------------------------------------- families

    /** Small, tiny or fine print prefers the smallest text; a label or jar the label; anything else the sign. */
    private static QuestionFamily text(List<Word> words) {
        TextKind k = any(words, SMALL_PRINT) ? TextKind.SMALL_PRINT : any(words, LABEL) ? TextKind.LABEL : TextKind.SIGN;
        return new QuestionFamily.Text(k);
    }

    /** A count of one shape and/or one colour; two shapes or two colours ("circles left of the square") are not read. */
    private static QuestionFamily count(List<Word> words) {
        String shape = null, colour = null;
        for (Word w : words) {
            if (w.shape() != null && shape != null && !shape.equals(w.shape())) return new QuestionFamily.Unknown();
            if (w.color() != null && colour != null && !colour.equals(w.color())) return new QuestionFamily.Unknown();
            if (w.shape() != null) shape = w.shape();
            if (w.color() != null) colour = w.color();
        }
        return new QuestionFamily.Count(shape, colour);
    }

    /** Objects named by colour and/or shape words standing next to each other ("red circle", "the circle"). */
    private static List<Mention> mentions(List<Word> words) {
        List<Mention> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            Word w = words.get(i);
            String colour = null, shape = null;
            int start = i;
            if (w.color() != null) {
                colour = w.color();
                int j = i + 1;
                if (j < words.size() && words.get(j).shape() != null) { shape = words.get(j).shape(); i = j; }
                else if (j < words.size() && words.get(j).is(GENERIC)) i = j;
                else if (j + 1 < words.size() && words.get(j).is(COLOR_ASKED) && words.get(j + 1).shape() != null) {
                    shape = words.get(j + 1).shape();
                    i = j + 1;
                }
            } else if (w.shape() != null) {
                shape = w.shape();
            } else continue;
            out.add(new Mention(new Obj(colour, shape), start, isReference(words, start)));
        }
        return out;
    }

    private static boolean isReference(List<Word> words, int at) {
        int k = at - 1;
        while (k >= 0 && words.get(k).is(DETERMINERS)) k--;
        return k >= 0 && (words.get(k).is(REFERENCE_MARKERS) || words.get(k).is(LEFT) || words.get(k).is(RIGHT) || words.get(k).is(UP)
                || words.get(k).is(DOWN));
    }

    private static QuestionFamily spatial(List<Word> words, List<Mention> mentions, OptionKind kind, List<String> options) {
        boolean horizontal = any(words, LEFT) || any(words, RIGHT);
        boolean vertical = any(words, UP) || any(words, DOWN);
        boolean near = any(words, NEAR);
        List<Mention> full = mentions.stream().filter(m -> m.obj().color() != null && m.obj().shape() != null).toList();
        List<Mention> named = full.size() >= 2 ? full : mentions;
        boolean either = containsWord(words, "or") || containsWord(words, "where") || containsWord(words, "side");
        if ((kind == OptionKind.DIRECTION || (kind == OptionKind.NONE && either)) && named.size() >= 2 && (horizontal || vertical)) {
            Mention subject = named.get(0), reference = named.get(1);
            if (subject.reference() && !reference.reference()) { Mention t = subject; subject = reference; reference = t; }
            boolean h = kind == OptionKind.DIRECTION
                    ? options.stream().map(OptionKind::direction).anyMatch(d -> "left".equals(d) || "right".equals(d))
                    : horizontal && !vertical || count(words, LEFT) + count(words, RIGHT) >= count(words, UP) + count(words, DOWN);
            return new QuestionFamily.Spatial(h ? Relation.LEFT_OR_RIGHT : Relation.ABOVE_OR_BELOW, subject.obj(), reference.obj());
        }
        if (kind == OptionKind.DIRECTION) return null;
        boolean asksObject = kind == OptionKind.OBJECT
                || (kind == OptionKind.NONE && !any(words, COLOR_ASKED) && (containsWord(words, "which") || containsWord(words, "what")));
        List<Mention> refs = full.isEmpty() ? mentions : full;
        if (!asksObject || refs.isEmpty() || !(horizontal || vertical || near)) return null;
        Mention ref = refs.get(refs.size() - 1);
        for (Mention m : refs) if (m.reference()) { ref = m; break; }
        if (kind != OptionKind.OBJECT && !ref.reference()) return null; // "the circle on the left": an attribute question
        int rel = relationIndex(words, ref.at());
        Word w = rel < 0 ? null : words.get(rel);
        Relation r;
        if (w == null || w.is(NEAR)) r = Relation.NEAREST;
        else if (w.is(LEFT)) r = Relation.LEFT_OF;
        else if (w.is(RIGHT)) r = Relation.RIGHT_OF;
        else if (w.is(UP)) r = Relation.ABOVE;
        else r = Relation.BELOW;
        return new QuestionFamily.Spatial(r, ref.obj(), null);
    }

    private static int count(List<Word> words, Set<String> set) {
        int n = 0;
        for (Word w : words) if (w.is(set)) n++;
        return n;
    }

    /** The relation word nearest before the reference object (else anywhere), or −1. */
    private static int relationIndex(List<Word> words, int refAt) {
        for (int i = refAt - 1; i >= 0; i--) if (isRelation(words.get(i))) return i;
        for (int i = refAt + 1; i < words.size(); i++) if (isRelation(words.get(i))) return i;
        return -1;
    }

    private static boolean isRelation(Word w) {
        return w.is(NEAR) || w.is(LEFT) || w.is(RIGHT) || w.is(UP) || w.is(DOWN);
    }

    private static QuestionFamily attribute(List<Word> words, List<Mention> mentions, OptionKind kind) {
        String colour = null, shape = null;
        for (Mention m : mentions) {
            if (m.obj().color() != null && colour == null) colour = m.obj().color();
            if (m.obj().shape() != null && shape == null) shape = m.obj().shape();
        }
        boolean colourWord = any(words, COLOR_ASKED), shapeWord = any(words, SHAPE_ASKED)
                || words.stream().anyMatch(w -> w.is(GENERIC) && !w.text().equals("one"));
        Place place = place(words);
        boolean asksColour = kind == OptionKind.COLOR || (kind == OptionKind.NONE && colourWord && (colour == null || shape != null));
        boolean asksShape = kind == OptionKind.SHAPE || (kind == OptionKind.NONE && !asksColour && (shapeWord || colour != null)
                && shape == null);
        if (asksColour && (colourWord || shape != null || place != null || shapeWord)) return new QuestionFamily.Color(shape, place);
        if (asksShape && (shapeWord || colour != null || place != null)) return new QuestionFamily.Shape(colour, place);
        return new QuestionFamily.Unknown();
    }

    /** "on the left", "at the top", "rightmost": where the asked object is, when no other object is named. */
    private static Place place(List<Word> words) {
        for (Word w : words) {
            if (w.is(LEFT)) return Place.LEFT;
            if (w.is(RIGHT)) return Place.RIGHT;
            if (w.is(UP)) return Place.TOP;
            if (w.is(DOWN)) return Place.BOTTOM;
        }
        return null;
    }
}
