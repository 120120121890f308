package dev.gamagent.local.vision;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shape class scores from {@link ShapeFeatures}: scaled squared distance to a prototype per class over
 * (solidity, hull circularity, radial harmonics 3, 4, 5, 6, polygon corner count), turned into graded
 * scores by a softmax with a temperature. Prototypes are the means measured on anti-aliased shapes of
 * 11–40 px radius at 14 rotations each; the scales are about twice their spread.
 */
public final class ShapeClassifier {
    public static final List<String> CLASSES = List.of("circle", "square", "triangle", "star", "hexagon");
    // {solidity, circularity, h3, h4, h5, h6, corners} per class, in CLASSES order (each classifier its own copy).
    private final double[][] prototypes = {
            {0.985, 0.975, 0.005, 0.020, 0.005, 0.004, 9.0},
            {0.963, 0.860, 0.005, 0.140, 0.005, 0.005, 4.0},
            {0.950, 0.700, 0.290, 0.010, 0.010, 0.095, 3.0},
            {0.650, 0.880, 0.010, 0.020, 0.320, 0.010, 5.0},
            {0.975, 0.940, 0.005, 0.012, 0.005, 0.052, 6.0}};
    // Corner counts from a polygon fit are noisy on small digitised shapes: a weak feature.
    private final double[] scales = {0.05, 0.04, 0.05, 0.035, 0.05, 0.015, 3.0};
    private final double temperature;

    public ShapeClassifier(double temperature) {
        if (!(temperature > 0)) throw new IllegalArgumentException("shape temperature must be > 0, got " + temperature);
        this.temperature = temperature;
    }

    public ShapeClassifier() { this(1.0); }

    public Map<String, Double> scores(ShapeFeatures f) {
        double[] d = distances(f);
        double[] logits = new double[CLASSES.size()];
        for (int k = 0; k < logits.length; k++) logits[k] = -d[k] / (2 * temperature);
        return softmax(CLASSES, logits);
    }

    /** Scaled squared distance of the features to each class prototype, in {@link #CLASSES} order. */
    public double[] distances(ShapeFeatures f) {
        double[] h = f.harmonics();
        double[] x = {f.solidity(), f.circularity(), h[3], h[4], h[5], h[6], Math.min(f.corners(), 9)};
        double[] out = new double[CLASSES.size()];
        for (int k = 0; k < out.length; k++) {
            double d = 0;
            for (int j = 0; j < x.length; j++) {
                double z = (x[j] - prototypes[k][j]) / scales[j];
                d += z * z;
            }
            out[k] = d;
        }
        return out;
    }

    static Map<String, Double> softmax(List<String> names, double[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (double l : logits) max = Math.max(max, l);
        double sum = 0;
        double[] e = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            e[i] = Math.exp(logits[i] - max);
            sum += e[i];
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < logits.length; i++) out.put(names.get(i), e[i] / sum);
        return out;
    }
}
