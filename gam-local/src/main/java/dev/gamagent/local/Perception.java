package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.Surfaces;

import java.awt.Rectangle;
import java.util.List;
import java.util.function.Function;

/**
 * What one role's instruments found in one image at the size it was given: objects (and a bar chart),
 * text lines, and, when the role looks for it, the surface each text sits on ({@code surface} null: the
 * role does not ask where text is).
 */
public record Perception(int width, int height, Scene scene, List<TextLine> lines, Function<Rectangle, Surfaces.Surface> surface) {
    public Perception { lines = List.copyOf(lines); }

    public Perception(int width, int height, Scene scene, List<TextLine> lines) { this(width, height, scene, lines, null); }

    /** A pixel box as a normalised region of this image. */
    public Region region(Rectangle box) {
        return new Region(box.getMinX() / width, box.getMinY() / height, box.getMaxX() / width, box.getMaxY() / height);
    }

    public double diagonal() { return Math.hypot(width, height); }
}
