package dev.gamagent.bench;

import java.awt.Rectangle;
import java.util.List;

/**
 * Exact ground truth of one generated image: every shape drawn, every text drawn and, for charts, the
 * bars. Kept for tests and analysis; models never see it.
 */
public record SceneTruth(List<PlacedShape> shapes, List<PlacedText> texts, ChartTruth chart) {
    public SceneTruth {
        shapes = List.copyOf(shapes);
        texts = List.copyOf(texts);
    }

    /** A filled shape: centre, circumradius and rotation (radians) in pixels; {@code box} bounds the drawn pixels. */
    public record PlacedShape(String shape, String color, double cx, double cy, double radius, double rotation,
                              Rectangle box) {
        public String name() { return color + " " + shape; }
    }

    /** A drawn string with its font size in pixels and its pixel bounds. */
    public record PlacedText(String text, int fontPx, Rectangle box, String role) { }

    /** A bar chart: labels and values in bar order, bar boxes, the axes' rectangle and the pixel row of value 0. */
    public record ChartTruth(List<String> labels, List<Integer> values, List<Rectangle> bars, List<String> barColors,
                             Rectangle plotArea, int baselineY, int axisMax, int tickStep) {
        public ChartTruth {
            labels = List.copyOf(labels);
            values = List.copyOf(values);
            bars = List.copyOf(bars);
            barColors = List.copyOf(barColors);
        }
    }
}
