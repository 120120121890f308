package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;

/** Classical vision over one image: segmentation, colour and shape classification, chart bars. */
public interface SceneAnalyzer {
    Scene analyze(BufferedImage image);

    /**
     * As {@link #analyze(BufferedImage)}, given the image's pixels after the 3×3 median
     * ({@link ClassicalSceneAnalyzer#median}) computed once for every instrument that needs them.
     */
    default Scene analyze(BufferedImage image, int[] denoised) { return analyze(image); }

    /** How far one threshold level moves the foreground distance (RGB units; the analysers' own is 45). */
    double FOREGROUND_STEP = 8;

    /**
     * This analyser with its thresholds moved {@code level} steps (−1 looser: fainter pixels are foreground; +1
     * stricter), as a sampled look draws them ({@code local.Look}); an analyser without thresholds returns itself.
     */
    default SceneAnalyzer atThreshold(int level) { return this; }
}
