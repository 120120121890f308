package dev.gamagent.local.vision;

import java.awt.image.BufferedImage;

/** Classical vision over one image: segmentation, colour and shape classification, chart bars. */
public interface SceneAnalyzer {
    Scene analyze(BufferedImage image);
}
