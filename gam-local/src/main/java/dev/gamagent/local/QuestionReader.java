package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.ChartKind;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionFamily.Place;
import dev.gamagent.local.QuestionFamily.Relation;
import dev.gamagent.local.QuestionFamily.TextKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Understands a question from its content words rather than from templates: which thing is asked
 * (text, a count, a colour, a shape, a relation, a chart reading), about which object (colour and shape
 * words, "sign", "label", bar labels) and, when options are given, what kind of value each option is.
 * Synonyms ("colour", "hue"; "figure", "form"; "higher", "over"; "how many", "number of") and any word
 * order are read the same. A question naming something this model cannot perceive ("the sky", "people")
 * is {@link QuestionFamily.Unknown}: the reasoner then answers with a uniform distribution.
 */
final class QuestionReader {
    private QuestionReader() { }

    /** What kind of value an option is. */
    enum OptionKind { COLOR, SHAPE, OBJECT, DIRECTION, NUMBER, YES_NO, WORD, NONE }

    private static final Map<String, String> COLOR_SYNONYMS = Map.of("grey", "gray", "violet", "purple");
    /** Colour and shape names this model cannot perceive: a question about them is outside its reach. */
    private static final Set<String> UNSEEN_COLORS = Set.of("pink", "brown", "white", "cyan", "magenta", "teal", "navy",
            "maroon", "beige", "turquoise", "gold", "golden", "silver", "olive", "indigo", "lavender");
    private static final Set<String> UNSEEN_THINGS = Set.of("rectangle", "oval", "ellipse", "pentagon", "octagon", "diamond",
            "heart", "cross", "arrow", "rhombus", "trapezoid", "crescent", "cube", "sphere", "cone", "cylinder", "line", "person",
            "people", "man", "woman", "car", "cat", "dog", "animal", "animals", "tree", "house", "sky", "face", "letter");
    private static final Set<String> GENERIC = Set.of("object", "shape", "figure", "item", "thing", "one", "element", "form",
            "symbol", "icon", "polygon", "mark", "entity");
    private static final Set<String> COLOR_ASKED = Set.of("color", "colored", "hue", "shade", "tint", "painted", "tone");
    private static final Set<String> SHAPE_ASKED = Set.of("shape", "shaped", "figure", "form", "kind", "type", "sort", "geometric",
            "geometry", "outline");
    private static final Set<String> TEXT_CUES = Set.of("written", "writing", "write", "writes", "text", "word", "words", "say", "says",
            "saying", "said", "read", "reads", "reading", "printed", "print", "inscription", "inscribed", "lettering", "letters",
            "caption", "spell", "spells", "spelled", "sign", "signs", "signboard", "signpost", "board", "label", "labels", "tag",
            "sticker", "title", "heading", "note", "message", "poster", "banner", "placard", "plaque", "plate", "proclaim", "proclaims",
            "announce", "announces", "slogan", "headline");
    private static final Set<String> SMALL_PRINT = Set.of("small", "smaller", "smallest", "tiny", "little", "fine", "caption",
            "footnote", "minute", "miniature");
    private static final Set<String> LABEL = Set.of("label", "labels", "jar", "tag", "sticker", "box", "bottle", "tin", "package", "packet");
    private static final Set<String> CHART_CUES = Set.of("bar", "bars", "chart", "graph", "plot", "histogram", "category",
            "categories", "column", "columns", "value", "values", "axis", "data");
    private static final Set<String> SUPERLATIVE_UP = Set.of("tallest", "highest", "largest", "greatest", "biggest", "longest",
            "most", "maximum", "max", "top", "peak");
    private static final Set<String> SUPERLATIVE_DOWN = Set.of("shortest", "lowest", "smallest", "least", "minimum", "min",
            "fewest", "bottom");
    private static final Set<String> COMPARE_UP = Set.of("larger", "bigger", "greater", "higher", "taller", "longer", "more",
            "exceeds", "exceed", "above");
    private static final Set<String> COMPARE_DOWN = Set.of("smaller", "lower", "shorter", "less", "fewer", "below");
    private static final Set<String> VALUE_CUES = Set.of("value", "values", "height", "high", "tall", "much", "number", "reach",
            "reaches", "amount", "level", "worth", "score", "count", "total", "equal", "equals");
    private static final Set<String> LEFT = Set.of("left", "leftmost", "leftward");
    private static final Set<String> RIGHT = Set.of("right", "rightmost", "rightward");
    private static final Set<String> UP = Set.of("above", "over", "higher", "top", "up", "upper", "uppermost", "topmost", "atop");
    private static final Set<String> DOWN = Set.of("below", "under", "beneath", "underneath", "lower", "bottom", "down",
            "lowermost", "bottommost");
    private static final Set<String> NEAR = Set.of("nearest", "closest", "near", "close", "closer", "nearer", "next",
            "neighbour", "neighbor", "neighbouring", "neighboring", "beside", "adjacent", "touching");
    /** Words that mark the object after them as the reference of a relation ("left of the X", "than the X"). */
    private static final Set<String> REFERENCE_MARKERS = Set.of("of", "than", "to", "from", "with", "relative", "compared",
            "versus", "vs", "above", "below", "over", "under", "beneath", "underneath", "beside", "near", "nearest", "closest");
    private static final Set<String> DETERMINERS = Set.of("the", "a", "an", "that", "this", "these", "those", "each", "every", "any", "many");
    private static final Set<String> NUMBER_WORDS = Set.of("zero", "none", "one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
            "nineteen", "twenty");
    /** Words a question about shapes, colours and positions may use besides the cue words above. */
    private static final Set<String> FUNCTION = Set.of((
            "what which where how is are was were be being been do does did has have had can could "
            + "will you i me we us it its they them their there here in on at of to for from with by "
            + "and or but as then so the a an that this these those each every any all both either many "
            + "much some other another same only just also image picture photo scene drawing figure view canvas see "
            + "seen visible shown show shows displayed depicted drawn appear appears lies lie lying sits sit "
            + "sitting placed located positioned situated found find stands standing side position relative "
            + "compared comparison versus vs between among tell name identify give state please answer choose "
            + "select pick option options according based looking look given following one ones exactly directly "
            + "immediately right left up down small big large little tiny size sized single total altogether "
            + "overall number count counting kind type sort colored painted filled solid outlined coloured respect "
            + "regard when while into onto about around inside within out off than more less most least way "
            + "direction what's whats currently now really actually precisely roughly approximately anything "
            + "something nothing everything object objects thing things item items shape shapes figures forms "
            + "elements element symbols icons polygons neighbour neighbor contain contains containing include "
            + "includes including exist exists present notice spot observe detect recognise recognize illustrated "
            + "rendered featured featuring made make makes go goes put set sets area region part portion corner "
            + "middle center centre edge ").strip().split(" "));
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Pattern QUOTED = Pattern.compile("[\"“”'‘’]([^\"“”'‘’]{1,40})[\"“”'‘’]");
    private static final Pattern NAMED = Pattern.compile("(?:labell?ed|named|called|marked|titled)\\s+[\"“'‘]?([\\p{L}\\p{N}][\\p{L}\\p{N} _-]{0,30}?)[\"”'’]?\\s*(?:[?.,:;!]|$|\\s(?:bar|and|or|in|on|have|has|show|reach))",
            Pattern.CASE_INSENSITIVE);

    /** One word of the question, lower-cased, with its canonical colour or shape when it names one. */
    private record Word(String text, String raw, String color, String shape) {
        boolean is(Set<String> set) { return set.contains(text); }
    }

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

    static QuestionFamily read(String question, List<String> options) { return reading(question, options).family(); }

    static Reading reading(String question, List<String> options) {
        String q = question == null ? "" : question.strip();
        List<Word> words = words(q);
        if (words.isEmpty()) return Reading.unknown();
        // "why", "who", "when" ask for something no perception answers; a negation would invert the answer.
        if (any(words, UNANSWERABLE) || any(words, NEGATIONS)) return Reading.unknown();
        List<String> opts = options == null ? List.of() : options;
        OptionKind kind = kindOf(opts);
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

    // ---------------------------------------------------------------- tokens

    private static List<Word> words(String q) {
        String s = q.replace('’', '\'').replace('‘', '\'').toLowerCase(Locale.ROOT)
                .replaceAll("\\bcolou?r(ed|s)?\\b", "color$1")
                .replaceAll("'s\\b", " ").replaceAll("n't\\b", " not");
        List<Word> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(s);
        Matcher raw = TOKEN.matcher(q.replace('’', '\'').replace('‘', '\'').replaceAll("'s\\b", " "));
        while (m.find()) {
            String t = m.group();
            String r = raw.find() ? raw.group() : t;
            String c = COLOR_SYNONYMS.getOrDefault(t, t);
            String color = QuestionFamily.COLORS.contains(c) ? c : null;
            String sh = QuestionFamily.singular(t);
            String shape = QuestionFamily.SHAPES.contains(sh) ? sh : null;
            out.add(new Word(t, r, color, shape));
        }
        return out;
    }

    private static boolean any(List<Word> words, Set<String> set) {
        for (Word w : words) if (w.is(set)) return true;
        return false;
    }

    private static boolean containsWord(List<Word> words, String w) {
        for (Word x : words) if (x.text().equals(w)) return true;
        return false;
    }

    private static boolean countCue(String q, List<Word> words) {
        String l = q.toLowerCase(Locale.ROOT);
        return l.matches("(?s).*\\bhow\\s+many\\b.*") || l.matches("(?s).*\\bnumber\\s+of\\b.*")
                || containsWord(words, "count") || containsWord(words, "counting") || containsWord(words, "tally")
                || containsWord(words, "enumerate")
                || (containsWord(words, "total") && !any(words, CHART_CUES)) || containsWord(words, "quantity");
    }

    /** A noun right after a determiner that is neither a known shape, colour nor a word of this domain. */
    private static boolean unknownNoun(List<Word> words) {
        for (int i = 0; i < words.size(); i++) {
            Word w = words.get(i);
            if (UNSEEN_COLORS.contains(w.text()) || UNSEEN_THINGS.contains(w.text())
                    || UNSEEN_THINGS.contains(QuestionFamily.singular(w.text().replaceAll("s$", "")))) return true;
            if (i > 0 && words.get(i - 1).is(DETERMINERS) && !known(w)) return true;
        }
        return false;
    }

    private static boolean known(Word w) {
        return w.color() != null || w.shape() != null || w.is(FUNCTION) || w.is(GENERIC) || w.is(COLOR_ASKED) || w.is(SHAPE_ASKED)
                || w.is(LEFT) || w.is(RIGHT) || w.is(UP) || w.is(DOWN) || w.is(NEAR) || w.is(SUPERLATIVE_UP) || w.is(SUPERLATIVE_DOWN)
                || w.is(COMPARE_UP) || w.is(COMPARE_DOWN) || w.is(NUMBER_WORDS) || w.text().matches("\\d+")
                || GENERIC.contains(QuestionFamily.singular(w.text().replaceAll("s$", "")));
    }

    // ---------------------------------------------------------------- options

    static OptionKind kindOf(List<String> options) {
        if (options.isEmpty()) return OptionKind.NONE;
        OptionKind k = null;
        for (String o : options) {
            OptionKind ok = kindOf(o);
            if (k == null) k = ok;
            else if (k != ok) return OptionKind.WORD;
        }
        return k;
    }

    static OptionKind kindOf(String option) {
        String bare = option.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9. ]", " ").strip();
        if (bare.matches("\\d+(\\.\\d+)?") || NUMBER_WORDS.contains(bare)) return OptionKind.NUMBER;
        String s = option.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 ]", " ")
                .replaceAll("\\b(a|an|the|on|to|it|is|at|of|side|one|object|shape)\\b", " ").strip().replaceAll("\\s+", " ");
        if (s.matches("\\d+(\\.\\d+)?") || NUMBER_WORDS.contains(s)) return OptionKind.NUMBER;
        if (s.equals("yes") || s.equals("no")) return OptionKind.YES_NO;
        String[] parts = s.split(" ");
        if (parts.length == 1 && direction(parts[0]) != null) return OptionKind.DIRECTION;
        String colour = null, shape = null;
        int other = 0;
        for (String p : parts) {
            String c = COLOR_SYNONYMS.getOrDefault(p, p);
            if (QuestionFamily.COLORS.contains(c)) colour = c;
            else if (QuestionFamily.SHAPES.contains(QuestionFamily.singular(p))) shape = p;
            else other++;
        }
        if (other == 0 && colour != null && shape != null) return OptionKind.OBJECT;
        if (other == 0 && colour != null) return OptionKind.COLOR;
        if (other == 0 && shape != null) return OptionKind.SHAPE;
        return OptionKind.WORD;
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

    // ---------------------------------------------------------------- time (a video's frames)

    private static final Set<String> MOTION_CUES = Set.of("move", "moves", "moving", "moved", "motion", "movement", "heading",
            "head", "heads", "headed", "travel", "travels", "travelling", "traveling", "travelled", "traveled", "drift", "drifts",
            "drifting", "drifted", "go", "goes", "going", "went", "slide", "slides", "sliding", "glide", "glides", "shift",
            "shifts", "shifting");
    private static final Set<String> APPEAR_CUES = Set.of("appear", "appears", "appeared", "appearing", "show", "shows", "showed",
            "shown", "come", "comes", "came", "view", "arrive", "arrives", "arrived", "enter", "enters", "entered", "emerge",
            "emerges", "emerged", "pop", "pops");
    private static final Set<String> EARLY = Set.of("first", "earliest", "earlier", "before", "initially", "initial", "sooner", "soonest");
    private static final Set<String> LATE = Set.of("last", "latest", "later", "after", "final", "finally", "lastly");

    /**
     * A question about time in a clip, from its words and options: which way an object moves (motion words,
     * direction options), how many times a light blinks (blink or flash words with a count, number options), or
     * which object appears first or last (appearance and order words, object options); else null.
     */
    private static QuestionFamily.Video video(String q, List<Word> words, OptionKind kind) {
        String colour = null, shape = null;
        boolean oneObject = true;
        for (Word w : words) {
            if (w.color() != null) { oneObject &= colour == null || colour.equals(w.color()); colour = w.color(); }
            if (w.shape() != null) { oneObject &= shape == null || shape.equals(w.shape()); shape = w.shape(); }
        }
        if (oneObject && (kind == OptionKind.DIRECTION || kind == OptionKind.NONE && containsWord(words, "which")) && any(words, MOTION_CUES)
                && !any(words, REFERENCE_MARKERS_OF_PLACE) && (colour != null || shape != null)) {
            return new QuestionFamily.Video(QuestionFamily.VideoKind.MOTION, new Obj(colour, shape));
        }
        boolean blinkWord = words.stream().anyMatch(w -> w.text().startsWith("blink") || w.text().startsWith("flash")
                || w.text().startsWith("flicker"))
                || q.toLowerCase(Locale.ROOT).matches("(?s).*\\b(light|lights|lamp)\\s+(up|on)\\b.*")
                || q.toLowerCase(Locale.ROOT).matches("(?s).*\\b(switch|switches|turn|turns)\\s+on\\b.*");
        boolean often = countCue(q, words) || containsWord(words, "often") || containsWord(words, "times");
        if (oneObject && blinkWord && often && (kind == OptionKind.NUMBER || kind == OptionKind.NONE) && colour != null && shape == null) {
            return new QuestionFamily.Video(QuestionFamily.VideoKind.BLINKS, new Obj(colour, null));
        }
        boolean early = any(words, EARLY), late = any(words, LATE);
        if ((kind == OptionKind.OBJECT || kind == OptionKind.NONE) && any(words, APPEAR_CUES) && early != late) {
            return new QuestionFamily.Video(early ? QuestionFamily.VideoKind.FIRST : QuestionFamily.VideoKind.LAST, null);
        }
        return null;
    }

    /** Words that make a motion word a place ("the object that goes left of the square" is no video question). */
    private static final Set<String> REFERENCE_MARKERS_OF_PLACE = Set.of("than", "nearest", "closest", "beside");

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
                    ? options.stream().map(QuestionReader::direction).anyMatch(d -> "left".equals(d) || "right".equals(d))
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

    // ---------------------------------------------------------------- charts

    /** "Is apple or pear larger": two words joined by "or" that name no colour, shape or direction. */
    private static boolean comparesLabels(List<Word> words, List<String> options) {
        if (!(any(words, COMPARE_UP) || any(words, COMPARE_DOWN) || any(words, SUPERLATIVE_UP) || any(words, SUPERLATIVE_DOWN))) return false;
        List<String> labels = optionLabelsInQuestion(words, options);
        if (labels.size() >= 2) return true;
        return options.isEmpty() && orPair(words) != null;
    }

    private static List<String> optionLabelsInQuestion(List<Word> words, List<String> options) {
        List<String> out = new ArrayList<>();
        String joined = " " + String.join(" ", words.stream().map(Word::text).toList()) + " ";
        Map<Integer, String> at = new java.util.TreeMap<>();
        for (String o : options) {
            String n = o.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
            if (n.isEmpty() || kindOf(o) != OptionKind.WORD) continue;
            int i = joined.indexOf(" " + n + " ");
            if (i >= 0) at.put(i, o.strip());
        }
        out.addAll(at.values());
        return out; // in the question's order
    }

    /** The unknown words on either side of "or" / "and" ("apple or pear"), or null. */
    private static String[] orPair(List<Word> words) {
        for (int i = 1; i + 1 < words.size(); i++) {
            Word w = words.get(i);
            if (!(w.text().equals("or") || w.text().equals("and") || w.text().equals("vs") || w.text().equals("versus"))) continue;
            Word a = words.get(i - 1), b = words.get(i + 1);
            if (label(a) && label(b)) return new String[]{a.raw(), b.raw()};
        }
        return null;
    }

    private static boolean label(Word w) {
        return !known(w) && !w.is(CHART_CUES) && !w.is(TEXT_CUES) && !w.is(VALUE_CUES) || w.text().matches("[a-z]?\\d+[a-z]?") && w.text().length() <= 4;
    }

    private static QuestionFamily chart(String q, List<Word> words, List<String> options, OptionKind kind) {
        boolean up = any(words, COMPARE_UP), down = any(words, COMPARE_DOWN);
        boolean supUp = any(words, SUPERLATIVE_UP), supDown = any(words, SUPERLATIVE_DOWN);
        List<String> labels = optionLabelsInQuestion(words, options);
        String[] pair = labels.size() >= 2 ? new String[]{labels.get(0), labels.get(1)} : orPair(words);
        if (pair == null && labels.isEmpty() && options.isEmpty()) pair = twoLabels(words);
        if (kind != OptionKind.NUMBER && pair != null && (up || down || supUp || supDown)) {
            boolean smaller = (down || supDown) && !(up || supUp);
            return new QuestionFamily.Chart(smaller ? ChartKind.SMALLER : ChartKind.LARGER, pair[0], pair[1]);
        }
        if (kind != OptionKind.NUMBER && (supUp || supDown)) {
            return new QuestionFamily.Chart(supDown && !supUp ? ChartKind.SHORTEST : ChartKind.TALLEST, null, null);
        }
        if (kind == OptionKind.NUMBER || kind == OptionKind.NONE && any(words, VALUE_CUES)) {
            String label = valueLabel(q, words);
            if (label != null) return new QuestionFamily.Chart(ChartKind.VALUE, label, null);
        }
        return null;
    }

    /** Two separate runs of unknown words ("between apple and pear"), for an open comparison. */
    private static String[] twoLabels(List<Word> words) {
        List<String> runs = labelRuns(words);
        return runs.size() == 2 ? new String[]{runs.get(0), runs.get(1)} : null;
    }

    private static List<String> labelRuns(List<Word> words) {
        List<String> runs = new ArrayList<>();
        StringBuilder cur = null;
        for (Word w : words) {
            if (label(w)) {
                if (cur == null) cur = new StringBuilder(w.raw());
                else cur.append(' ').append(w.raw());
            } else if (cur != null) {
                runs.add(cur.toString());
                cur = null;
            }
        }
        if (cur != null) runs.add(cur.toString());
        return runs;
    }

    /** The bar a value question names: quoted, after "labeled"/"named", else the one run of words that are not question words. */
    private static String valueLabel(String q, List<Word> words) {
        Matcher m = QUOTED.matcher(q);
        if (m.find()) return m.group(1).strip();
        Matcher n = NAMED.matcher(q);
        if (n.find()) return n.group(1).strip();
        List<String> runs = labelRuns(words);
        return runs.isEmpty() ? null : runs.get(0);
    }
}
