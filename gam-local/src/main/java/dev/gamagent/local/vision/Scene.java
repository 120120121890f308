package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.util.List;

/**
 * What classical vision found in an image: objects, and, when the image is a bar chart, its bars and
 * plot area (bar labels and axis ticks are read by OCR, which the local backend combines).
 */
public record Scene(int width, int height, List<DetectedObject> objects, Chart chart) {
    public Scene { objects = List.copyOf(objects); }

    public record Bar(Rectangle box, String color) { }

    /** {@code plotArea}: the axes' rectangle; {@code baselineY}: pixel row of value 0. */
    public record Chart(List<Bar> bars, Rectangle plotArea, int baselineY) {
        public Chart { bars = List.copyOf(bars); }
    }
}
