package dev.gamagent.local;

import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
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
    private final Lazy<List<TextLine>> v4, v3, closeV4, axesV4, closeV3, axesV3;
    private final Lazy<Scene> classical, cores;
    /** Scenes at threshold levels other than 0, by segmentation and level. */
    private final java.util.Map<String, Lazy<Scene>> shifted = new java.util.concurrent.ConcurrentHashMap<>();
    private final Lazy<Surfaces> surfaces;
    /** Surfaces found around text boxes, by box. */
    private final java.util.Map<java.awt.Rectangle, Surfaces.Surface> around = new java.util.concurrent.ConcurrentHashMap<>();
    private final Lazy<int[]> denoised;
    private final Lazy<dev.gamagent.image.Picture> denoisedPicture;

    Sight(BufferedImage image, Engines engines) { this(image, engines, null); }

    /**
     * A sight of {@code image} whose text is {@code text}'s reading mapped onto this image's size ({@code text} null:
     * its own). A sampled look at another scale reads text this way: the detector resizes its input to 640–960 px
     * whatever it is given, so a rescaled copy would cost a full OCR pass per scale and change little of what is read.
     */
    Sight(BufferedImage image, Engines engines, Sight text) { this(image, engines, text, null); }

    /**
     * @param look a sight of the same image (content and size) made before the run ({@link LocalPerception#lookAt}),
     *             whose default look this sight shares: the PP-OCRv4 reading, the median and the classical scene,
     *             computed once for every method instead of once per method (null: all its own)
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
        this.v3 = new Lazy<>(() -> nonNull(engines.read(Reader.V3, image)));
        this.denoised = look != null ? look.denoised : new Lazy<>(() -> ClassicalSceneAnalyzer.median(image));
        this.classical = look != null ? look.classical : new Lazy<>(() -> engines.analyze(Segmentation.CLASSICAL, 0, image, denoised.get()));
        this.cores = new Lazy<>(() -> engines.analyze(Segmentation.CORES, 0, image, denoised.get()));
        this.surfaces = new Lazy<>(() -> new Surfaces(image, denoised.get()));
        this.denoisedPicture = new Lazy<>(() -> {
            BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            out.setRGB(0, 0, image.getWidth(), image.getHeight(), denoised.get(), 0, image.getWidth());
            return new dev.gamagent.image.Picture("denoised", out);
        });
        this.closeV4 = new Lazy<>(() -> closeReading(Reader.V4));
        this.axesV4 = new Lazy<>(() -> axisReading(Reader.V4));
        // a sampled look may read closely with either network: each reading is made once
        this.closeV3 = new Lazy<>(() -> closeReading(Reader.V3));
        this.axesV3 = new Lazy<>(() -> axisReading(Reader.V3));
    }

    public int width() { return image.getWidth(); }

    public int height() { return image.getHeight(); }

    public BufferedImage image() { return image; }

    public List<TextLine> lines(Reader r) {
        if (text != null) return mapped(text.lines(r));
        return r == Reader.V4 ? v4.get() : v3.get();
    }

    /**
     * Lines as a careful reader finds them: every sign, label or card a line was read on is read again
     * enlarged {@link #CLOSE_ZOOM}× (small print the detector missed at this size is found there), and the
     * enlarged reading replaces the lines inside that surface; text on the open background stays as read.
     * When no line is on a surface, the whole image is read again enlarged.
     */
    public List<TextLine> closeLines(Reader r) {
        if (text != null) return mapped(text.closeLines(r));
        return r == Reader.V4 ? closeV4.get() : closeV3.get();
    }

    /**
     * Lines with a bar chart's axes read closely: the strip of bar labels under the baseline and the column
     * of tick labels left of the plot are read again enlarged {@link #CLOSE_ZOOM}× (8 px labels the
     * detector misses at this size), and replace the lines read there. Without a chart, the lines as read.
     */
    public List<TextLine> axisLines(Reader r) {
        if (text != null) return mapped(text.axisLines(r));
        return r == Reader.V4 ? axesV4.get() : axesV3.get();
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

    private List<TextLine> axisReading(Reader r) {
        List<TextLine> base = lines(r);
        Scene.Chart chart = classical.get().chart();
        if (chart == null) return base;
        java.awt.Rectangle plot = chart.plotArea(), all = new java.awt.Rectangle(0, 0, width(), height());
        int below = Math.max(16, height() / 8);
        List<java.awt.Rectangle> regions = List.of(
                new java.awt.Rectangle(Math.max(0, plot.x - 20), chart.baselineY() + 1, width(), below).intersection(all),
                new java.awt.Rectangle(0, Math.max(0, plot.y - 12), plot.x + 4, plot.height + 24).intersection(all));
        return reread(r, base, regions);
    }

    /** The lines with those inside each region replaced by a reading of the region enlarged {@link #CLOSE_ZOOM}×. */
    private List<TextLine> reread(Reader r, List<TextLine> base, List<java.awt.Rectangle> regions) {
        List<java.awt.Rectangle> done = new java.util.ArrayList<>();
        List<TextLine> inside = new java.util.ArrayList<>();
        for (java.awt.Rectangle crop : regions) {
            if (crop.isEmpty() || crop.width < 8 || crop.height < 8 || (long) crop.width * crop.height * 4 > 2_500_000L) continue;
            done.add(crop);
            BufferedImage big = new dev.gamagent.image.Picture("region", copy(image.getSubimage(crop.x, crop.y, crop.width, crop.height)))
                    .scaled(CLOSE_ZOOM, 0).image();
            double zx = (double) big.getWidth() / crop.width, zy = (double) big.getHeight() / crop.height;
            for (TextLine z : nonNull(engines.read(r, big))) {
                java.awt.Rectangle b = z.box();
                inside.add(new TextLine(new java.awt.Rectangle(crop.x + (int) Math.round(b.x / zx), crop.y + (int) Math.round(b.y / zy),
                        Math.max(1, (int) Math.round(b.width / zx)), Math.max(1, (int) Math.round(b.height / zy))), z.text(), z.chars(), z.detectionScore()));
            }
        }
        List<TextLine> out = new java.util.ArrayList<>();
        for (TextLine l : base) if (done.stream().noneMatch(d -> d.contains(l.box().getCenterX(), l.box().getCenterY()))) out.add(l);
        out.addAll(inside);
        return List.copyOf(out);
    }

    /** How much a careful reader enlarges a text surface. */
    static final double CLOSE_ZOOM = 2.0;

    private List<TextLine> closeReading(Reader r) {
        List<TextLine> base = lines(r);
        List<java.awt.Rectangle> regions = new java.util.ArrayList<>();
        for (TextLine l : base) {
            Surfaces.Surface s = surfaceOf(l.box());
            if (!s.bounded() || regions.stream().anyMatch(d -> d.contains(l.box().getCenterX(), l.box().getCenterY()))) continue;
            java.awt.Rectangle box = s.box();
            int mx = Math.max(4, box.width / 10), my = Math.max(4, box.height / 10);
            regions.add(new java.awt.Rectangle(box.x - mx, box.y - my, box.width + 2 * mx, box.height + 2 * my)
                    .intersection(new java.awt.Rectangle(0, 0, width(), height())));
        }
        // No text found on any surface: the words on a small sign or label may not have been detected at all,
        // so the whole image is read again enlarged (within a pixel budget).
        if (regions.isEmpty() && (long) width() * height() * 4 <= 2_500_000L) regions.add(new java.awt.Rectangle(0, 0, width(), height()));
        return reread(r, base, regions);
    }

    private static BufferedImage copy(BufferedImage sub) {
        BufferedImage c = new BufferedImage(sub.getWidth(), sub.getHeight(), BufferedImage.TYPE_INT_RGB);
        var g = c.createGraphics();
        g.drawImage(sub, 0, 0, null);
        g.dispose();
        return c;
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

    /** The image after the 3×3 median (speckle removed), one instance per sight so that its own sight is cached. */
    public dev.gamagent.image.Picture denoised() { return denoisedPicture.get(); }

    /**
     * The perception a role reasons over: objects from {@code s}, text from {@code r} when {@code withText}
     * (questions that do not depend on text are answered without running the OCR), and the text-surface
     * test when {@code surfaces}.
     */
    public Perception view(Reader r, Segmentation s, boolean withText, boolean surfaces) {
        return view(r, s, withText, surfaces, Reading.PLAIN);
    }

    /** How text is read: as found, each text surface again enlarged, or a chart's axes again enlarged. */
    public enum Reading { PLAIN, SURFACES, AXES }

    /** As {@link #view(Reader, Segmentation, boolean, boolean)}, with text read as {@code reading} says. */
    public Perception view(Reader r, Segmentation s, boolean withText, boolean surfaces, Reading reading) {
        return view(r, s, 0, withText, surfaces, reading);
    }

    /** The perception of one look (its reader, segmentation and threshold level; this sight is already at its scale). */
    public Perception view(Look look, boolean withText, boolean surfaces, Reading reading) {
        return view(look.reader(), look.segmentation(), look.threshold(), withText, surfaces, reading);
    }

    private Perception view(Reader r, Segmentation s, int threshold, boolean withText, boolean surfaces, Reading reading) {
        List<TextLine> text = !withText ? List.of() : atThreshold(switch (reading) {
            case PLAIN -> lines(r);
            case SURFACES -> closeLines(r);
            case AXES -> axisLines(r);
        }, threshold);
        return new Perception(width(), height(), scene(s, threshold), text, withText && surfaces ? this::surfaceOf : null);
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
