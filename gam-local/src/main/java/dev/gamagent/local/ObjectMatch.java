package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.vision.DetectedObject;

import java.util.List;

import static dev.gamagent.local.Scores.sigmoid;

/**
 * How well each detected object fits what a question names (a colour, a shape, a place): the classifier's scores as
 * probabilities, and the weight of each object being the one asked about. The object reasoners, the counter, the
 * critics and the video reasoner read objects through it.
 */
final class ObjectMatch {
    private ObjectMatch() { }

    /**
     * P(object i is the one asked about): it matches the named attribute ({@code match}, null when none
     * was named: every object) and, when a place is given, no other matching object lies further that way.
     */
    static double[] targetWeights(List<DetectedObject> objs, double[] match, QuestionFamily.Place place, Perception v) {
        int n = objs.size();
        double[] m = match == null ? java.util.Collections.nCopies(n, 1.0).stream().mapToDouble(Double::doubleValue).toArray() : match;
        if (place == null) return match == null ? exactlyOne(new double[n]) : exactlyOne(m);
        double sx = 0.02 * v.width(), sy = 0.02 * v.height();
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            double p = Math.min(1, Math.max(0, m[i]));
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                DetectedObject a = objs.get(i), b = objs.get(j);
                double beyond = switch (place) {
                    case LEFT -> sigmoid((a.centerX() - b.centerX()) / sx);
                    case RIGHT -> sigmoid((b.centerX() - a.centerX()) / sx);
                    case TOP -> sigmoid((a.centerY() - b.centerY()) / sy);
                    case BOTTOM -> sigmoid((b.centerY() - a.centerY()) / sy);
                };
                p *= 1 - Math.min(1, Math.max(0, m[j])) * beyond;
            }
            w[i] = p;
        }
        return Distribution.of(java.util.Collections.nCopies(n, "o"), w).probabilities();
    }

    /** P(object i is the unique match) ∝ m_i/(1−m_i): exactly one object matches, independently scored. */
    static double[] exactlyOne(double[] m) {
        double[] w = new double[m.length];
        double s = 0;
        for (int i = 0; i < m.length; i++) {
            double mi = Math.min(1 - 1e-6, Math.max(0, m[i]));
            w[i] = mi / (1 - mi);
            s += w[i];
        }
        for (int i = 0; i < w.length; i++) w[i] = s > 0 ? w[i] / s : 1.0 / w.length;
        return w;
    }

    /**
     * P(the object is a {@code shape}): the classifier's score, trusted as far as the region looks like any
     * prototype at all (a region far from every prototype, e.g. two objects merged or a shape a few pixels
     * wide, gets a score nearer the uniform 1/5).
     */
    static double shapeP(DetectedObject o, String shape) {
        if (shape == null) return 0;
        double r = reliability(o);
        return r * o.shapeScores().getOrDefault(shape, 0.0) + (1 - r) / QuestionFamily.SHAPES.size();
    }

    /** 1 for a region within the spread of clean shapes (fit ≤ 8), falling as its shape looks like no prototype. */
    static double reliability(DetectedObject o) {
        return o.fit() <= 8 ? 1 : Math.exp(-(o.fit() - 8) / 30);
    }

    static double colorP(DetectedObject o, String color) { return color == null ? 0 : o.colorScores().getOrDefault(color, 0.0); }

    /** How well an object fits a named one; a part the name leaves out ("the circle": no colour) fits any object. */
    static double match(DetectedObject o, Obj obj) {
        return (obj.color() == null ? 1 : colorP(o, obj.color())) * (obj.shape() == null ? 1 : shapeP(o, obj.shape()));
    }

    static String name(DetectedObject o) { return o.color() + " " + o.shape(); }
}
