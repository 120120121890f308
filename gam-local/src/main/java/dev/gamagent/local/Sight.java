package dev.gamagent.local;

import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.MedianFilter;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.Surfaces;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * What the model can perceive in one image at exactly the size given: each instrument (a text reader,
 * a segmentation, the text-surface test) runs the first time a role asks for it and is kept, so the
 * many calls of one debate perceive each image once per instrument. Every instrument reads the whole image as
 * it is: none is handed a region the model chose, nor an enlarged copy (the OCR networks' own input geometry,
 * the detector's 640–960 px side and the recogniser's 48 px line height, is the model's processor, applied to
 * every image alike, as a VLM's processor resizes every image it is sent). Thread-safe.
 */
public final class Sight {
    /** The text readers: PP-OCRv4 (the model's default) and PP-OCRv3 (a second network, other errors). */
    public enum Reader { V4, V3 }

    /** The segmentations: the classical analyser (default) and the core segmenter (splits touching objects). */
    public enum Segmentation { CLASSICAL, CORES }

    /** The engines a sight runs; calls into each are serialised by the caller's lock on it. */
    interface Engines {
        List<TextLine> read(Reader reader, BufferedImage image);

        /**
         * @param threshold the threshold level (0 the analyser's own; ±1 one step stricter or looser, see {@link Look})
         * @param denoised the image's pixels after the 3×3 median, shared by the instruments that start from them
         */
        Scene analyze(Segmentation segmentation, int threshold, BufferedImage image, int[] denoised);
    }

    /**
     * Smallest detector box score and mean character probability of a line kept at threshold level +1 (the
     * engine's own are 0.5 each: {@code PpOcrEngine.Options.defaults}); a looser level keeps the lines as read.
     */
    static final double STRICT_LINE_SCORE = 0.6;

    private final BufferedImage image;
    private final Engines engines;
    private final Sight text;
    private final Lazy<List<TextLine>> v4, v3;
    private final Lazy<Scene> classical, cores;
    /** Scenes at threshold levels other than 0, by segmentation and level. */
    private final java.util.Map<String, Lazy<Scene>> shifted = new java.util.concurrent.ConcurrentHashMap<>();
    private final Lazy<Surfaces> surfaces;
    /** Surfaces found around text boxes, by box. */
    private final java.util.Map<java.awt.Rectangle, Surfaces.Surface> around = new java.util.concurrent.ConcurrentHashMap<>();
    private final Lazy<int[]> denoised;

    Sight(BufferedImage image, Engines engines) { this(image, engines, null); }

    /**
     * A sight of {@code image} whose text is {@code text}'s reading mapped onto this image's size ({@code text} null:
     * its own). A sampled look at another scale reads text this way: the detector resizes its input to 640–960 px
     * whatever it is given, so a rescaled copy would cost a full OCR pass per scale and change little of what is read.
     */
    Sight(BufferedImage image, Engines engines, Sight text) { this(image, engines, text, null); }

    /**
     * @param look a sight of the same image (content and size) made before the run ({@link LocalPerception#lookAt}),
     *             whose instruments this sight shares: both readings, the median, both segmentations and the
     *             text surfaces, computed once for every method instead of once per method (null: all its own)
     */
    Sight(BufferedImage image, Engines engines, Sight text, Sight look) {
        if (look != null && (look.width() != image.getWidth() || look.height() != image.getHeight())) {
            throw new IllegalArgumentException("a shared look must be of the same image: " + look.width() + "x" + look.height()
                    + " vs " + image.getWidth() + "x" + image.getHeight());
        }
        this.image = image;
        this.engines = engines;
        this.text = text;
        this.v4 = look != null ? look.v4 : new Lazy<>(() -> nonNull(engines.read(Reader.V4, image)));
        this.v3 = look != null ? look.v3 : new Lazy<>(() -> nonNull(engines.read(Reader.V3, image)));
        this.denoised = look != null ? look.denoised : new Lazy<>(() -> MedianFilter.median(image));
        this.classical = look != null ? look.classical : new Lazy<>(() -> engines.analyze(Segmentation.CLASSICAL, 0, image, denoised.get()));
        this.cores = look != null ? look.cores : new Lazy<>(() -> engines.analyze(Segmentation.CORES, 0, image, denoised.get()));
        this.surfaces = look != null ? look.surfaces : new Lazy<>(() -> new Surfaces(image, denoised.get()));
    }

    public int width() { return image.getWidth(); }

    public int height() { return image.getHeight(); }

    public BufferedImage image() { return image; }

    public List<TextLine> lines(Reader r) {
        if (text != null) return mapped(text.lines(r));
        return r == Reader.V4 ? v4.get() : v3.get();
    }

    /** Lines read on {@link #text}'s image, their boxes mapped onto this image. */
    private List<TextLine> mapped(List<TextLine> lines) {
        double sx = (double) width() / text.width(), sy = (double) height() / text.height();
        List<TextLine> out = new java.util.ArrayList<>(lines.size());
        for (TextLine l : lines) {
            java.awt.Rectangle b = l.box();
            int x = (int) Math.round(b.x * sx), y = (int) Math.round(b.y * sy);
            out.add(new TextLine(new java.awt.Rectangle(x, y, Math.max(1, (int) Math.round((b.x + b.width) * sx) - x),
                    Math.max(1, (int) Math.round((b.y + b.height) * sy) - y)), l.text(), l.chars(), l.detectionScore()));
        }
        return out;
    }

    /** Objects from {@code s}; the bar chart, when there is one, always from the classical analyser (the core segmenter finds none). */
    public Scene scene(Segmentation s) { return scene(s, 0); }

    /** As {@link #scene(Segmentation)}, with the analysers' thresholds at level {@code threshold} (see {@link Look}). */
    public Scene scene(Segmentation s, int threshold) {
        if (s == Segmentation.CLASSICAL) return analysed(Segmentation.CLASSICAL, threshold);
        // The chart's axes and bars are dark and solid: the classical analyser's own thresholds find them.
        Scene k = analysed(Segmentation.CORES, threshold);
        return new Scene(k.width(), k.height(), k.objects(), classical.get().chart());
    }

    private Scene analysed(Segmentation s, int threshold) {
        if (threshold == 0) return s == Segmentation.CLASSICAL ? classical.get() : cores.get();
        return shifted.computeIfAbsent(s + "/" + threshold,
                k -> new Lazy<>(() -> engines.analyze(s, threshold, image, denoised.get()))).get();
    }

    /** Lines kept at threshold level {@code threshold}: a stricter level drops weakly detected or weakly read lines. */
    static List<TextLine> atThreshold(List<TextLine> lines, int threshold) {
        if (threshold <= 0) return lines;
        List<TextLine> out = new java.util.ArrayList<>();
        for (TextLine l : lines) if (l.detectionScore() >= STRICT_LINE_SCORE && l.meanConfidence() >= STRICT_LINE_SCORE) out.add(l);
        return List.copyOf(out);
    }

    public Surfaces surfaces() { return surfaces.get(); }

    /**
     * The perception of one reader and one segmentation at threshold level {@code threshold} (this sight is already at
     * its scale): objects from {@code s}, text from {@code r} when {@code withText} (questions that do not depend on text
     * are answered without running the OCR), with the surface each text lies on (sign, label, card or open background).
     */
    public Perception view(Reader r, Segmentation s, int threshold, boolean withText) {
        List<TextLine> text = !withText ? List.of() : atThreshold(lines(r), threshold);
        return new Perception(width(), height(), scene(s, threshold), text, withText ? this::surfaceOf : null);
    }

    /** The surface a text box lies on, found once per box (every call of a debate asks about the same lines). */
    Surfaces.Surface surfaceOf(java.awt.Rectangle box) {
        Surfaces.Surface s = around.get(box);
        if (s == null) {
            s = surfaces().around(box);
            around.putIfAbsent(new java.awt.Rectangle(box), s);
        }
        return s;
    }

    private static List<TextLine> nonNull(List<TextLine> l) { return l == null ? List.of() : l; }
}
