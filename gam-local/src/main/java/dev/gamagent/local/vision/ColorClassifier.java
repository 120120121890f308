package dev.gamagent.local.vision;

import java.util.List;
import java.util.Map;

/**
 * Names a colour by its distance in HSV space to eight prototypes, turned into graded class scores by a
 * softmax with a temperature. Hue carries the chromatic classes (it survives blending towards a light
 * background); value and chroma separate black from gray.
 */
public final class ColorClassifier {
    public static final List<String> CLASSES = List.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
    /** Prototype hues in degrees of the chromatic classes (red, green, blue, yellow, orange, purple); each classifier's own copy. */
    private final double[] hues = {0, 130, 225, 51, 30, 278};
    private static final double HUE_SCALE = 12;
    private final double temperature;

    public ColorClassifier(double temperature) {
        if (!(temperature > 0)) throw new IllegalArgumentException("colour temperature must be > 0, got " + temperature);
        this.temperature = temperature;
    }

    public ColorClassifier() { this(1.0); }

    /** Class scores (summing to 1, in {@link #CLASSES} order) for an sRGB colour. */
    public Map<String, Double> scores(int r, int g, int b) {
        double[] d = distances(r, g, b);
        double[] logits = new double[d.length];
        for (int i = 0; i < d.length; i++) logits[i] = -d[i] / temperature;
        return ShapeClassifier.softmax(CLASSES, logits);
    }

    /** Squared, scaled distances to each prototype. */
    double[] distances(int r, int g, int b) {
        int max = Math.max(r, Math.max(g, b)), min = Math.min(r, Math.min(g, b));
        double v = max / 255.0, chroma = (max - min) / 255.0;
        double hue = hue(r, g, b, max, min);
        double[] d = new double[CLASSES.size()];
        // Chromatic classes: hue distance, plus a penalty when there is too little chroma to have a hue.
        double lowChroma = Math.max(0, 0.2 - chroma) / 0.06;
        for (int i = 0; i < hues.length; i++) {
            double dh = Math.abs(hue - hues[i]);
            dh = Math.min(dh, 360 - dh);
            d[i] = (dh / HUE_SCALE) * (dh / HUE_SCALE) + lowChroma * lowChroma;
        }
        double achromatic = chroma / 0.08;
        double black = Math.max(0, v - 0.2) / 0.1;
        d[6] = black * black + achromatic * achromatic;
        double gray = (v - 0.56) / 0.07;
        d[7] = gray * gray + achromatic * achromatic;
        return d;
    }

    private static double hue(int r, int g, int b, int max, int min) {
        if (max == min) return 0;
        double c = max - min, h;
        if (max == r) h = ((g - b) / c) % 6;
        else if (max == g) h = (b - r) / c + 2;
        else h = (r - g) / c + 4;
        h *= 60;
        return h < 0 ? h + 360 : h;
    }

    /** The class with the highest score. */
    static String argmax(Map<String, Double> scores) {
        String best = null;
        double bv = -1;
        for (var e : scores.entrySet()) if (e.getValue() > bv) { bv = e.getValue(); best = e.getKey(); }
        return best;
    }

}
