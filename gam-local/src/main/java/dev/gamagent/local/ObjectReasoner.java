package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.vision.DetectedObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.local.Judgement.lowInformation;
import static dev.gamagent.local.ObjectMatch.colorP;
import static dev.gamagent.local.ObjectMatch.exactlyOne;
import static dev.gamagent.local.ObjectMatch.match;
import static dev.gamagent.local.ObjectMatch.name;
import static dev.gamagent.local.ObjectMatch.shapeP;
import static dev.gamagent.local.ObjectMatch.targetWeights;
import static dev.gamagent.local.Scores.argmax;
import static dev.gamagent.local.Scores.over;
import static dev.gamagent.local.Scores.sigmoid;
import static dev.gamagent.local.Scores.stated;

/**
 * Answers questions about the detected objects themselves: an object's colour, its shape, and where objects stand
 * relative to each other (left of, above, nearest to), each as a distribution from the vision scores.
 */
final class ObjectReasoner {
    private ObjectReasoner() { }

    /** How the question names its object: "triangle", "red object", "object on the left". */
    private static String described(String colour, String shape, QuestionFamily.Place place) {
        String base = new Obj(colour, shape).toString();
        return place == null ? base : base + " on the " + place.name().toLowerCase(Locale.ROOT);
    }

    static Judgement colour(QuestionFamily.Color q, Perception v, List<String> candidates) {
        return attribute(q, Attribute.COLOUR, q.shape(), described(null, q.shape(), q.place()), q.place(), v, candidates);
    }

    static Judgement shape(QuestionFamily.Shape q, Perception v, List<String> candidates) {
        return attribute(q, Attribute.SHAPE, q.color(), described(q.color(), null, q.place()), q.place(), v, candidates);
    }

    /** An attribute of an object a question asks for (its colour, or its shape) and the object's other one. */
    private enum Attribute {
        COLOUR(QuestionFamily.COLORS, "colour", " is"), SHAPE(QuestionFamily.SHAPES, "shape", " is a");

        final List<String> values;
        final String word;
        final String is;

        Attribute(List<String> values, String word, String is) {
            this.values = values;
            this.word = word;
            this.is = is;
        }

        Attribute other() { return this == COLOUR ? SHAPE : COLOUR; }

        /** P(the object's attribute is {@code value}). */
        double p(DetectedObject o, String value) { return this == COLOUR ? colorP(o, value) : shapeP(o, value); }

        /** The attribute's value a text names (an option), or null. */
        String in(String text) { return this == COLOUR ? QuestionFamily.colourIn(text) : QuestionFamily.shapeIn(text); }

        Map<String, Double> scores(DetectedObject o) { return this == COLOUR ? o.colorScores() : o.shapeScores(); }
    }

    /**
     * The {@code asked} attribute of the object the question names by its other attribute ({@code named}, may be
     * null) and place: each object's scores weighted by how well it fits the name.
     */
    private static Judgement attribute(QuestionFamily q, Attribute asked, String named, String what, QuestionFamily.Place place, Perception v,
                                       List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        if (objs.isEmpty()) return lowInformation(q, candidates, false, "no object was found", Region.FULL);
        Attribute by = asked.other();
        double[] w = targetWeights(objs, named == null ? null : objs.stream().mapToDouble(o -> by.p(o, named)).toArray(), place, v);
        double[] mass = new double[asked.values.size()];
        for (int i = 0; i < objs.size(); i++) {
            for (int c = 0; c < mass.length; c++) mass[c] += w[i] * asked.p(objs.get(i), asked.values.get(c));
        }
        Distribution values = Distribution.of(asked.values, mass);
        DetectedObject target = objs.get(argmax(w));
        Distribution answer = candidates.isEmpty() ? values : over(candidates, c -> values.p(asked.in(c)));
        String evidence = String.format(Locale.ROOT, "%s %s %.2f for the object at %s; %s scores %s", named != null ? named : what,
                named != null ? "score" : "weight", named != null ? by.p(target, named) : w[argmax(w)], centre(target), asked.word,
                top(asked.scores(target), 3));
        Distribution said = stated(values, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + what + asked.is), Piece.best(" ", said)),
                said.bestProbability(), evidence, v.region(target.box()));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    static Judgement spatial(QuestionFamily.Spatial q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        if (objs.size() < 2) return lowInformation(q, candidates, false, "fewer than two objects were found", Region.FULL);
        double[] wt = exactlyOne(objs.stream().mapToDouble(o -> match(o, q.target())).toArray());
        double sx = 0.02 * v.width(), sy = 0.02 * v.height(), sd = 0.02 * v.diagonal();
        DetectedObject target = objs.get(argmax(wt));
        if (q.other() != null) {
            double[] wo = exactlyOne(objs.stream().mapToDouble(o -> match(o, q.other())).toArray());
            boolean horizontal = q.relation() == QuestionFamily.Relation.LEFT_OR_RIGHT;
            double pFirst = 0, norm = 0;
            for (int i = 0; i < objs.size(); i++) {
                for (int j = 0; j < objs.size(); j++) {
                    if (i == j) continue;
                    double w = wt[i] * wo[j];
                    DetectedObject a = objs.get(i), b = objs.get(j);
                    pFirst += w * (horizontal ? sigmoid((b.centerX() - a.centerX()) / sx) : sigmoid((b.centerY() - a.centerY()) / sy));
                    norm += w;
                }
            }
            pFirst = norm > 0 ? pFirst / norm : 0.5;
            List<String> words = horizontal ? List.of("left", "right") : List.of("above", "below");
            Distribution dirs = Distribution.of(words, new double[]{pFirst, 1 - pFirst});
            Distribution answer = candidates.isEmpty() ? dirs : over(candidates, c -> {
                String dir = OptionKind.direction(c);
                return words.get(0).equals(dir) ? dirs.p(0) : words.get(1).equals(dir) ? dirs.p(1) : 0;
            });
            DetectedObject other = objs.get(argmax(wo));
            Distribution phrase = horizontal ? dirs.renamed(List.of("to the left of", "to the right of")) : dirs;
            String evidence = String.format(Locale.ROOT, "the %s is centred at %s and the %s at %s", q.target(), centre(target), q.other(), centre(other));
            Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + q.target() + " is"), Piece.best(" ", phrase),
                    Piece.plain(" the " + q.other())), dirs.bestProbability(), evidence, v.region(target.box().union(other.box())));
            return new Judgement(q, true, false, answer, null, List.of(f), evidence);
        }
        // P(object o is the answer) = Σ_t P(t is the target) · P(o stands in the relation to t), normalised over o ≠ t.
        double[] po = new double[objs.size()];
        for (int t = 0; t < objs.size(); t++) {
            if (wt[t] <= 0) continue;
            DetectedObject tt = objs.get(t);
            double[] r = new double[objs.size()];
            double sum = 0;
            double nearest = Double.MAX_VALUE;
            for (int o = 0; o < objs.size(); o++) if (o != t) nearest = Math.min(nearest, dist(objs.get(o), tt));
            for (int o = 0; o < objs.size(); o++) {
                if (o == t) continue;
                DetectedObject oo = objs.get(o);
                r[o] = switch (q.relation()) {
                    case LEFT_OF -> sigmoid((tt.centerX() - oo.centerX()) / sx);
                    case RIGHT_OF -> sigmoid((oo.centerX() - tt.centerX()) / sx);
                    case ABOVE -> sigmoid((tt.centerY() - oo.centerY()) / sy);
                    case BELOW -> sigmoid((oo.centerY() - tt.centerY()) / sy);
                    default -> Math.exp(-(dist(oo, tt) - nearest) / sd);
                };
                sum += r[o];
            }
            for (int o = 0; o < objs.size(); o++) if (sum > 0) po[o] += wt[t] * r[o] / sum;
        }
        Map<String, Double> byName = new LinkedHashMap<>();
        for (int o = 0; o < objs.size(); o++) byName.merge(name(objs.get(o)), po[o], Double::sum);
        Distribution names = Distribution.of(new ArrayList<>(byName.keySet()), byName.values().stream().mapToDouble(Double::doubleValue).toArray());
        Distribution answer = candidates.isEmpty() ? names : over(candidates, c -> {
            String col = QuestionFamily.colourIn(c), sh = QuestionFamily.shapeIn(c);
            if (col == null || sh == null) return 0;
            Obj want = new Obj(col, sh);
            double s = 0;
            for (int o = 0; o < objs.size(); o++) s += po[o] * match(objs.get(o), want);
            return s;
        });
        DetectedObject chosen = objs.get(argmax(po));
        String rel = switch (q.relation()) {
            case LEFT_OF -> "to the left of"; case RIGHT_OF -> "to the right of"; case ABOVE -> "above";
            case BELOW -> "below"; default -> "nearest to";
        };
        String evidence = String.format(Locale.ROOT, "the %s is centred at %s; the %s at %s", q.target(), centre(target), name(chosen), centre(chosen));
        Distribution said = stated(names, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The object " + rel + " the " + q.target() + " is the"),
                Piece.best(" ", said)), said.bestProbability(), evidence, v.region(target.box().union(chosen.box())));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    private static double dist(DetectedObject a, DetectedObject b) {
        return Math.hypot(a.centerX() - b.centerX(), a.centerY() - b.centerY());
    }

    private static String centre(DetectedObject o) { return "(" + (int) o.centerX() + "," + (int) o.centerY() + ")"; }

    private static String top(Map<String, Double> scores, int k) {
        return scores.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(k)
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue())).reduce((a, b) -> a + ", " + b).orElse("none");
    }
}
