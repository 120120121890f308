package dev.gamagent.local.ocr;

import java.awt.Rectangle;
import java.util.List;

/**
 * One line of text the OCR found: its pixel box in the image it was read from, the decoded text, and
 * per decoded character the recogniser's distribution at that position (real softmax outputs).
 *
 * @param chars one distribution per character of {@code text}, in order
 * @param detectionScore the detector's mean text probability inside the box
 */
public record TextLine(Rectangle box, String text, List<CharDistribution> chars, double detectionScore) {
    public TextLine { chars = List.copyOf(chars); }

    /** The mean probability of the chosen characters (1 for an empty line). */
    public double meanConfidence() {
        if (chars.isEmpty()) return 1.0;
        double s = 0;
        for (CharDistribution c : chars) s += c.top().get(0).probability();
        return s / chars.size();
    }

    /** The top-k characters at one CTC position, most probable first; probabilities from the softmax. */
    public record CharDistribution(List<Candidate> top) {
        public CharDistribution { top = List.copyOf(top); if (top.isEmpty()) throw new IllegalArgumentException("empty distribution"); }
    }

    public record Candidate(String character, double probability) { }
}
