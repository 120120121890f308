package dev.gamagent.local.vision;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.SceneTruth;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers the count, color, shape and spatial templates from a {@link Scene} alone (argmax classes), to
 * measure the analyser by itself. Chart questions need OCR for labels; they are checked bar by bar instead.
 * Returns the chosen option value, or null when the scene gives no answer.
 */
final class SceneAnswers {
    private SceneAnswers() { }

    private static final Pattern COUNT_SHAPE = Pattern.compile("How many (\\w+)s are there in the image\\?");
    private static final Pattern COUNT_COLOR = Pattern.compile("How many (\\w+) objects are there in the image\\?");
    private static final Pattern COLOR = Pattern.compile("What color is the (\\w+)\\?");
    private static final Pattern SHAPE = Pattern.compile("What shape is the (\\w+) object\\?");
    private static final Pattern LEFT = Pattern.compile("Which object is to the left of the (\\w+) (\\w+)\\?");
    private static final Pattern ABOVE = Pattern.compile("Which object is above the (\\w+) (\\w+)\\?");
    private static final Pattern NEAREST = Pattern.compile("Which object is nearest to the (\\w+) (\\w+)\\?");
    private static final Pattern LR = Pattern.compile("Is the (\\w+) (\\w+) to the left of or to the right of the (\\w+) (\\w+)\\?");
    private static final Pattern AB = Pattern.compile("Is the (\\w+) (\\w+) above or below the (\\w+) (\\w+)\\?");

    static String answer(BenchItem item, Scene scene) {
        String q = item.question();
        List<DetectedObject> objs = scene.objects();
        Matcher m;
        if (q.equals("How many objects are there in the image?")) return String.valueOf(objs.size());
        if ((m = COUNT_COLOR.matcher(q)).matches()) {
            String c = m.group(1);
            return String.valueOf(objs.stream().filter(o -> o.color().equals(c)).count());
        }
        if ((m = COUNT_SHAPE.matcher(q)).matches()) {
            String s = m.group(1);
            return String.valueOf(objs.stream().filter(o -> o.shape().equals(s)).count());
        }
        if ((m = COLOR.matcher(q)).matches()) {
            String s = m.group(1);
            return objs.stream().max(Comparator.comparingDouble(o -> o.shapeScores().get(s))).map(DetectedObject::color).orElse(null);
        }
        if ((m = SHAPE.matcher(q)).matches()) {
            String c = m.group(1);
            return objs.stream().max(Comparator.comparingDouble(o -> o.colorScores().get(c))).map(DetectedObject::shape).orElse(null);
        }
        if ((m = LR.matcher(q)).matches() || (m = AB.matcher(q)).matches()) {
            boolean horizontal = q.contains("left of or");
            DetectedObject a = find(objs, m.group(1), m.group(2)), b = find(objs, m.group(3), m.group(4));
            if (a == null || b == null) return null;
            if (horizontal) return a.centerX() < b.centerX() ? "left" : "right";
            return a.centerY() < b.centerY() ? "above" : "below";
        }
        for (Pattern p : List.of(LEFT, ABOVE, NEAREST)) {
            m = p.matcher(q);
            if (!m.matches()) continue;
            DetectedObject ref = find(objs, m.group(1), m.group(2));
            if (ref == null) return null;
            String best = null;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (String option : item.options().values()) {
                String[] cs = option.split(" ");
                DetectedObject o = find(objs, cs[0], cs[1]);
                if (o == null || o == ref) continue;
                double score = p == LEFT ? ref.centerX() - o.centerX() : p == ABOVE ? ref.centerY() - o.centerY()
                        : -Math.hypot(ref.centerX() - o.centerX(), ref.centerY() - o.centerY());
                if (score > bestScore) { bestScore = score; best = option; }
            }
            return best;
        }
        return null;
    }

    /** The object most likely to be "{color} {shape}" (product of the two class scores). */
    static DetectedObject find(List<DetectedObject> objs, String color, String shape) {
        return objs.stream().max(Comparator.comparingDouble(o -> o.colorScores().get(color) * o.shapeScores().get(shape))).orElse(null);
    }

    /** The detected object whose centre lies closest to the true shape's centre, within its radius. */
    static DetectedObject match(List<DetectedObject> objs, SceneTruth.PlacedShape s) {
        DetectedObject best = null;
        double bd = Double.MAX_VALUE;
        for (DetectedObject o : objs) {
            double d = Math.hypot(o.centerX() - s.cx(), o.centerY() - s.cy());
            if (d < bd) { bd = d; best = o; }
        }
        return bd <= s.radius() ? best : null;
    }

    static Map.Entry<String, Double> top(Map<String, Double> scores) {
        return scores.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
    }
}
