package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.util.Map;

/**
 * One object (connected region of a uniform colour) found by classical vision.
 *
 * @param shapeScores class scores over circle, square, triangle, star, hexagon (sum to 1)
 * @param colorScores class scores over red, green, blue, yellow, orange, purple, black, gray (sum to 1)
 * @param fit         scaled squared distance of the region's shape features to the nearest shape prototype
 *                    (small: a clean shape; large: a region like none of them, e.g. two objects merged); 0 when unknown
 */
public record DetectedObject(Rectangle box, int pixelArea, String shape, Map<String, Double> shapeScores,
                             String color, Map<String, Double> colorScores, double fit) {
    public DetectedObject(Rectangle box, int pixelArea, String shape, Map<String, Double> shapeScores, String color,
                          Map<String, Double> colorScores) {
        this(box, pixelArea, shape, shapeScores, color, colorScores, 0);
    }

    public double centerX() { return box.getCenterX(); }

    public double centerY() { return box.getCenterY(); }
}
