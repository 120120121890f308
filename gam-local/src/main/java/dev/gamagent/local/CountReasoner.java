package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.vision.DetectedObject;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.gamagent.local.NumberText.parseCount;
import static dev.gamagent.local.ObjectMatch.colorP;
import static dev.gamagent.local.ObjectMatch.reliability;
import static dev.gamagent.local.ObjectMatch.shapeP;
import static dev.gamagent.local.Scores.over;
import static dev.gamagent.local.Scores.stated;

/**
 * Answers "how many": a distribution over counts from each region's chance of being one (or two touching) objects of
 * the asked class, discounting regions near the noise floor.
 */
final class CountReasoner {
    private CountReasoner() { }

    static Judgement count(QuestionFamily.Count q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        Distribution counts = countDistribution(objs, q.shape(), q.color(), v.width(), v.height());
        Distribution answer = candidates.isEmpty() ? counts : over(candidates, c -> {
            Integer n = parseCount(c);
            return n == null ? 0 : counts.p(Integer.toString(n));
        });
        String noun = (q.color() != null ? q.color() + " " : "") + (q.shape() != null ? q.shape() + "s" : "objects");
        Rectangle union = null;
        int ambiguous = 0;
        for (DetectedObject o : objs) {
            double inc = inclusion(o, q.shape(), q.color(), v.width(), v.height());
            if (inc > 0.5) union = union == null ? new Rectangle(o.box()) : union.union(o.box());
            if (inc > 0.1 && inc < 0.9 || mergeProbability(o, objs) > 0.1) ambiguous++;
        }
        String evidence = String.format(Locale.ROOT, "%d regions found, %d of them in doubt (class score, size near the noise threshold, or two touching objects)",
                objs.size(), ambiguous);
        Distribution said = stated(counts, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("There are"), Piece.best(" ", said), Piece.plain(" " + noun)),
                said.bestProbability(), evidence, union == null ? Region.FULL : v.region(union));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    /**
     * P(count) as a sum of independent per-object contributions (0, 1 or 2 when the region may be two
     * touching objects), each weighted by how well the object matches the asked class.
     */
    static Distribution countDistribution(List<DetectedObject> objs, String shape, String color, int width, int height) {
        double[] dist = {1.0};
        for (DetectedObject o : objs) {
            double q = inclusion(o, shape, color, width, height);
            double m = mergeProbability(o, objs);
            double p0 = 1 - q, p1 = q * (1 - m), p2 = q * m;
            double[] next = new double[dist.length + 2];
            for (int k = 0; k < dist.length; k++) {
                next[k] += dist[k] * p0;
                next[k + 1] += dist[k] * p1;
                next[k + 2] += dist[k] * p2;
            }
            dist = next;
        }
        List<String> values = new ArrayList<>();
        for (int k = 0; k < dist.length; k++) values.add(Integer.toString(k));
        return Distribution.of(values, dist);
    }

    /**
     * Regions smaller than this many times the noise floor count only in part: after the median filter such
     * a region is a real object or a fragment, so the discount stops at 1.5× (it was 3×, which counted
     * the smallest drawn triangles, 8 px circumradius, as a third of an object).
     */
    static final double SIZE_FACTOR = 1.5;
    static double inclusion(DetectedObject o, String shape, String color, int width, int height) {
        double q = (shape != null ? shapeP(o, shape) : 1.0) * (color != null ? colorP(o, color) : 1.0);
        double minArea = Math.max(16, 2e-4 * width * height);
        return q * Math.min(1, o.pixelArea() / (SIZE_FACTOR * minArea));
    }

    /** A region much larger than the typical object and of no clear shape may be two objects touching. */
    static double mergeProbability(DetectedObject o, List<DetectedObject> all) {
        if (all.size() < 3) return 0;
        double[] areas = all.stream().mapToDouble(DetectedObject::pixelArea).sorted().toArray();
        double median = areas[areas.length / 2];
        if (median <= 0) return 0;
        double ratio = o.pixelArea() / median;
        double maxShape = o.shapeScores().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        // Large and of no clear shape, or large and like no prototype at all.
        double unclear = Math.max(1 - maxShape, 1 - reliability(o));
        return Math.max(0, Math.min(0.9, unclear * clamp01((ratio - 1.1) / 0.8)));
    }

    private static double clamp01(double v) { return Math.max(0, Math.min(1, v)); }
}
