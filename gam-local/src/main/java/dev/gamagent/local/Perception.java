package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.DetectedObject;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.Surfaces;

import java.awt.Rectangle;
import java.util.List;
import java.util.function.Function;

/**
 * What one role's instruments found in one image at the size it was given: objects (and a bar chart),
 * text lines, and, when text was read, the surface each text sits on ({@code surface} null: no text was read).
 */
public record Perception(int width, int height, Scene scene, List<TextLine> lines, Function<Rectangle, Surfaces.Surface> surface) {
    public Perception { lines = List.copyOf(lines); }

    public Perception(int width, int height, Scene scene, List<TextLine> lines) { this(width, height, scene, lines, null); }

    /** A pixel box as a normalised region of this image. */
    public Region region(Rectangle box) {
        return new Region(box.getMinX() / width, box.getMinY() / height, box.getMaxX() / width, box.getMaxY() / height);
    }

    public double diagonal() { return Math.hypot(width, height); }

    /**
     * This perception attending to {@code r} (normalised; null or the whole image: itself): the objects and text lines
     * whose centre lies in it, the same pixels as read, nothing re-read. The chart, when there is one, stays whole.
     */
    public Perception attend(Region r) {
        if (r == null || r.equals(Region.FULL)) return this;
        List<DetectedObject> objs = scene.objects().stream()
                .filter(o -> in(r, o.centerX() / width, o.centerY() / height)).toList();
        List<TextLine> ls = lines.stream()
                .filter(l -> in(r, l.box().getCenterX() / width, l.box().getCenterY() / height)).toList();
        return new Perception(width, height, new Scene(scene.width(), scene.height(), objs, scene.chart()), ls, surface);
    }

    private static boolean in(Region r, double x, double y) { return x >= r.x0() && x <= r.x1() && y >= r.y0() && y <= r.y1(); }
}
