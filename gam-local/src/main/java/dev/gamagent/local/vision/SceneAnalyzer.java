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
}
