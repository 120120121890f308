package dev.gamagent.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words of a question as this model reads them: the question split into lower-cased words, each with the
 * canonical colour or shape it names, and the vocabulary each kind of question is recognised by (cue words for text,
 * charts, counts, colours, shapes and places; the words this model knows it cannot perceive).
 */
final class QuestionWords {
    private QuestionWords() { }

    static final Map<String, String> COLOR_SYNONYMS = Map.of("grey", "gray", "violet", "purple");
    /** Colour and shape names this model cannot perceive: a question about them is outside its reach. */
    private static final Set<String> UNSEEN_COLORS = Set.of("pink", "brown", "white", "cyan", "magenta", "teal", "navy",
            "maroon", "beige", "turquoise", "gold", "golden", "silver", "olive", "indigo", "lavender");
    private static final Set<String> UNSEEN_THINGS = Set.of("rectangle", "oval", "ellipse", "pentagon", "octagon", "diamond",
            "heart", "cross", "arrow", "rhombus", "trapezoid", "crescent", "cube", "sphere", "cone", "cylinder", "line", "person",
            "people", "man", "woman", "car", "cat", "dog", "animal", "animals", "tree", "house", "sky", "face", "letter");
    static final Set<String> GENERIC = Set.of("object", "shape", "figure", "item", "thing", "one", "element", "form",
            "symbol", "icon", "polygon", "mark", "entity");
    static final Set<String> COLOR_ASKED = Set.of("color", "colored", "hue", "shade", "tint", "painted", "tone");
    static final Set<String> SHAPE_ASKED = Set.of("shape", "shaped", "figure", "form", "kind", "type", "sort", "geometric",
            "geometry", "outline");
    static final Set<String> TEXT_CUES = Set.of("written", "writing", "write", "writes", "text", "word", "words", "say", "says",
            "saying", "said", "read", "reads", "reading", "printed", "print", "inscription", "inscribed", "lettering", "letters",
            "caption", "spell", "spells", "spelled", "sign", "signs", "signboard", "signpost", "board", "label", "labels", "tag",
            "sticker", "title", "heading", "note", "message", "poster", "banner", "placard", "plaque", "plate", "proclaim", "proclaims",
            "announce", "announces", "slogan", "headline");
    static final Set<String> SMALL_PRINT = Set.of("small", "smaller", "smallest", "tiny", "little", "fine", "caption",
            "footnote", "minute", "miniature");
    static final Set<String> LABEL = Set.of("label", "labels", "jar", "tag", "sticker", "box", "bottle", "tin", "package", "packet");
    static final Set<String> CHART_CUES = Set.of("bar", "bars", "chart", "graph", "plot", "histogram", "category",
            "categories", "column", "columns", "value", "values", "axis", "data");
    static final Set<String> SUPERLATIVE_UP = Set.of("tallest", "highest", "largest", "greatest", "biggest", "longest",
            "most", "maximum", "max", "top", "peak");
    static final Set<String> SUPERLATIVE_DOWN = Set.of("shortest", "lowest", "smallest", "least", "minimum", "min",
            "fewest", "bottom");
    static final Set<String> COMPARE_UP = Set.of("larger", "bigger", "greater", "higher", "taller", "longer", "more",
            "exceeds", "exceed", "above");
    static final Set<String> COMPARE_DOWN = Set.of("smaller", "lower", "shorter", "less", "fewer", "below");
    static final Set<String> VALUE_CUES = Set.of("value", "values", "height", "high", "tall", "much", "number", "reach",
            "reaches", "amount", "level", "worth", "score", "count", "total", "equal", "equals");
    static final Set<String> LEFT = Set.of("left", "leftmost", "leftward");
    static final Set<String> RIGHT = Set.of("right", "rightmost", "rightward");
    static final Set<String> UP = Set.of("above", "over", "higher", "top", "up", "upper", "uppermost", "topmost", "atop");
    static final Set<String> DOWN = Set.of("below", "under", "beneath", "underneath", "lower", "bottom", "down",
            "lowermost", "bottommost");
    static final Set<String> NEAR = Set.of("nearest", "closest", "near", "close", "closer", "nearer", "next",
            "neighbour", "neighbor", "neighbouring", "neighboring", "beside", "adjacent", "touching");
    /** Words that mark the object after them as the reference of a relation ("left of the X", "than the X"). */
    static final Set<String> REFERENCE_MARKERS = Set.of("of", "than", "to", "from", "with", "relative", "compared",
            "versus", "vs", "above", "below", "over", "under", "beneath", "underneath", "beside", "near", "nearest", "closest");
    static final Set<String> DETERMINERS = Set.of("the", "a", "an", "that", "this", "these", "those", "each", "every", "any", "many");
    static final Set<String> NUMBER_WORDS = Set.of("zero", "none", "one", "two", "three", "four", "five", "six", "seven",
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

    /** One word of the question, lower-cased, with its canonical colour or shape when it names one. */
    record Word(String text, String raw, String color, String shape) {
        boolean is(Set<String> set) { return set.contains(text); }
    }

    static List<Word> words(String q) {
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

    static boolean any(List<Word> words, Set<String> set) {
        for (Word w : words) if (w.is(set)) return true;
        return false;
    }

    static boolean containsWord(List<Word> words, String w) {
        for (Word x : words) if (x.text().equals(w)) return true;
        return false;
    }

    static boolean countCue(String q, List<Word> words) {
        String l = q.toLowerCase(Locale.ROOT);
        return l.matches("(?s).*\\bhow\\s+many\\b.*") || l.matches("(?s).*\\bnumber\\s+of\\b.*")
                || containsWord(words, "count") || containsWord(words, "counting") || containsWord(words, "tally")
                || containsWord(words, "enumerate")
                || (containsWord(words, "total") && !any(words, CHART_CUES)) || containsWord(words, "quantity");
    }

    /** A noun right after a determiner that is neither a known shape, colour nor a word of this domain. */
    static boolean unknownNoun(List<Word> words) {
        for (int i = 0; i < words.size(); i++) {
            Word w = words.get(i);
            if (UNSEEN_COLORS.contains(w.text()) || UNSEEN_THINGS.contains(w.text())
                    || UNSEEN_THINGS.contains(QuestionFamily.singular(w.text().replaceAll("s$", "")))) return true;
            if (i > 0 && words.get(i - 1).is(DETERMINERS) && !known(w)) return true;
        }
        return false;
    }

    static boolean known(Word w) {
        return w.color() != null || w.shape() != null || w.is(FUNCTION) || w.is(GENERIC) || w.is(COLOR_ASKED) || w.is(SHAPE_ASKED)
                || w.is(LEFT) || w.is(RIGHT) || w.is(UP) || w.is(DOWN) || w.is(NEAR) || w.is(SUPERLATIVE_UP) || w.is(SUPERLATIVE_DOWN)
                || w.is(COMPARE_UP) || w.is(COMPARE_DOWN) || w.is(NUMBER_WORDS) || w.text().matches("\\d+")
                || GENERIC.contains(QuestionFamily.singular(w.text().replaceAll("s$", "")));
    }
}
