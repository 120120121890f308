package dev.gamagent.local;

import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.Surfaces;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * What the model can perceive in one image at exactly the size given: each instrument (a text reader,
 * a segmentation, the text-surface test) runs the first time a role asks for it and is kept, so the
 * many calls of one debate perceive each image once per instrument. Thread-safe.
 */
public final class Sight {
    /** The text readers: PP-OCRv4 (the model's default) and PP-OCRv3 (a second network, other errors). */
    public enum Reader { V4, V3 }

    /** The segmentations: the classical analyser (default) and the core segmenter (splits touching objects). */
    public enum Segmentation { CLASSICAL, CORES }

    /** The engines a sight runs; calls into each are serialised by the caller's lock on it. */
    interface Engines {
        List<TextLine> read(Reader reader, BufferedImage image);

        Scene analyze(Segmentation segmentation, BufferedImage image);
    }

    private final BufferedImage image;
    private final Engines engines;
    private final Lazy<List<TextLine>> v4, v3;
    private final Lazy<Scene> classical, cores;
    private final Lazy<Surfaces> surfaces;

    Sight(BufferedImage image, Engines engines) {
        this.image = image;
        this.engines = engines;
        this.v4 = new Lazy<>(() -> nonNull(engines.read(Reader.V4, image)));
        this.v3 = new Lazy<>(() -> nonNull(engines.read(Reader.V3, image)));
        this.classical = new Lazy<>(() -> engines.analyze(Segmentation.CLASSICAL, image));
        this.cores = new Lazy<>(() -> engines.analyze(Segmentation.CORES, image));
        this.surfaces = new Lazy<>(() -> new Surfaces(image));
    }

    public int width() { return image.getWidth(); }

    public int height() { return image.getHeight(); }

    public BufferedImage image() { return image; }

    public List<TextLine> lines(Reader r) { return r == Reader.V4 ? v4.get() : v3.get(); }

    /** Objects from {@code s}; the bar chart, when there is one, always from the classical analyser (the core segmenter finds none). */
    public Scene scene(Segmentation s) {
        Scene c = classical.get();
        if (s == Segmentation.CLASSICAL) return c;
        Scene k = cores.get();
        return new Scene(k.width(), k.height(), k.objects(), c.chart());
    }

    public Surfaces surfaces() { return surfaces.get(); }

    /**
     * The perception a role reasons over: objects from {@code s}, text from {@code r} when {@code withText}
     * (questions that do not depend on text are answered without running the OCR), and the text-surface
     * test when {@code surfaces}.
     */
    public Perception view(Reader r, Segmentation s, boolean withText, boolean surfaces) {
        return new Perception(width(), height(), scene(s), withText ? lines(r) : List.of(), withText && surfaces ? this::surfaceOf : null);
    }

    private Surfaces.Surface surfaceOf(java.awt.Rectangle box) { return surfaces().around(box); }

    private static List<TextLine> nonNull(List<TextLine> l) { return l == null ? List.of() : l; }

    /** A value computed once, on first use; concurrent first uses wait for one computation. */
    private static final class Lazy<T> {
        private final java.util.function.Supplier<T> compute;
        private volatile T value;

        Lazy(java.util.function.Supplier<T> compute) { this.compute = compute; }

        T get() {
            T v = value;
            if (v != null) return v;
            synchronized (this) {
                if (value == null) value = compute.get();
                return value;
            }
        }
    }
}
