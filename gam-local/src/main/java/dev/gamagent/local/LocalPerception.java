package dev.gamagent.local;

import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.SceneAnalyzer;

import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * OCR plus classical vision over one image at exactly the size given (the caller chose the scale, so a
 * smaller image really loses small text), cached by content and size. Different images are perceived in
 * parallel: ONNX Runtime sessions may be run from several threads at once, and the engines keep no state
 * between calls ({@code LocalPerceptionParallelTest} checks both); one image is perceived once, by
 * whichever call asks first.
 */
public final class LocalPerception implements AutoCloseable {
    private final OcrEngine ocr;
    private final SceneAnalyzer vision;
    private final PerceptionCache cache;
    private final int cacheEntries;
    private final boolean ownsEngines;

    public LocalPerception(OcrEngine ocr, SceneAnalyzer vision, int cacheEntries) {
        this(ocr, vision, cacheEntries, true);
    }

    private LocalPerception(OcrEngine ocr, SceneAnalyzer vision, int cacheEntries, boolean ownsEngines) {
        this.ocr = ocr;
        this.vision = vision;
        this.cache = new PerceptionCache(cacheEntries);
        this.cacheEntries = cacheEntries;
        this.ownsEngines = ownsEngines;
    }

    /** The same engines with an empty cache of the same size; closing it leaves the engines open. */
    public LocalPerception withOwnCache() { return new LocalPerception(ocr, vision, cacheEntries, false); }

    /**
     * The real engines: PP-OCR detection + recognition ({@link PpOcrEngine}, its own result cache off:
     * this class caches by image already) and classical vision ({@link ClassicalSceneAnalyzer}).
     * {@code local.cache_entries} bounds the perception cache (default 256 images).
     */
    public static LocalPerception standard(Config config) {
        int entries = config.integer("local.cache_entries", 256);
        return new LocalPerception(PpOcrEngine.create(PpOcrEngine.Options.defaults().withCacheSize(0)),
                new ClassicalSceneAnalyzer(), entries);
    }

    public Perception perceive(Picture picture) {
        BufferedImage img = picture.image();
        PerceptionCache.Key key = new PerceptionCache.Key(hash(img), img.getWidth(), img.getHeight());
        return cache.get(key, () -> {
            List<TextLine> lines = ocr.read(img);
            Scene scene = vision.analyze(img);
            return new Perception(img.getWidth(), img.getHeight(), scene, lines == null ? List.of() : lines);
        });
    }

    public PerceptionCache cache() { return cache; }

    @Override public void close() {
        if (ownsEngines) ocr.close();
    }

    static String hash(BufferedImage img) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            int w = img.getWidth(), h = img.getHeight();
            int[] row = new int[w];
            ByteBuffer buf = ByteBuffer.allocate(w * 4);
            for (int y = 0; y < h; y++) {
                img.getRGB(0, y, w, 1, row, 0, w);
                buf.clear();
                buf.asIntBuffer().put(row);
                md.update(buf.array(), 0, w * 4);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
