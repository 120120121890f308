package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.util.Map;

/**
 * One object (connected region of a uniform colour) found by classical vision.
 *
 * @param shapeScores class scores over circle, square, triangle, star, hexagon (sum to 1)
 * @param colorScores class scores over red, green, blue, yellow, orange, purple, black, gray (sum to 1)
 */
public record DetectedObject(Rectangle box, int pixelArea, String shape, Map<String, Double> shapeScores,
                             String color, Map<String, Double> colorScores) {
    public double centerX() { return box.getCenterX(); }

    public double centerY() { return box.getCenterY(); }
}
