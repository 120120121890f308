package dev.gamagent.bench;

import java.awt.Color;
import java.util.List;
import java.util.Random;

/**
 * A scene generator: draws one family's items from an item's random source, at the item's difficulty and in its
 * rendering style, every scene on a backdrop of the style's size drawn first from that source.
 */
abstract class Scenes {
    private static final List<Integer> WIDTHS = List.of(448, 512, 576, 640, 704, 768);

    final Random rng;
    final Difficulty d;
    final RenderStyle style;
    /** Canvases left unfinished ({@link BenchmarkGenerator#questions}). */
    boolean sketch;

    Scenes(Random rng, Difficulty d, RenderStyle style) {
        this.rng = rng;
        this.d = d;
        this.style = style;
    }

    /** The size of a scene's image (of every frame of a clip) and its background colour. */
    record Backdrop(int width, int height, Color background) { }

    /** A backdrop of the style's size (classic: 448–768 px wide at 4:3, drawn from the scene's source) and a light background. */
    Backdrop backdrop() {
        // The classic width is drawn in every style, so a seed asks the same questions in either rendering.
        int classic = WIDTHS.get(rng.nextInt(WIDTHS.size()));
        int w = style.classicSize() ? classic : style.width(), h = style.classicSize() ? (classic * 3 / 4) & ~1 : style.height();
        Color bg = d.lowContrast() ? Palette.LOW_CONTRAST_BACKGROUND : Palette.pick(Palette.BACKGROUNDS, rng);
        return new Backdrop(w, h, bg);
    }

    /** A canvas on a new {@link #backdrop()}, drawn in the scene's style. */
    Canvas newCanvas() {
        Backdrop b = backdrop();
        Canvas c = new Canvas(b.width(), b.height(), b.background(), style);
        c.sketch = sketch;
        return c;
    }
}
