package dev.gamagent.local;

import dev.gamagent.api.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;

import java.awt.Rectangle;
import java.util.List;

/** What OCR and classical vision found in one image at the size it was given. */
public record Perception(int width, int height, Scene scene, List<TextLine> lines) {
    public Perception { lines = List.copyOf(lines); }

    /** A pixel box as a normalised region of this image. */
    public Region region(Rectangle box) {
        return new Region(box.getMinX() / width, box.getMinY() / height, box.getMaxX() / width, box.getMaxY() / height);
    }

    public double diagonal() { return Math.hypot(width, height); }
}
