package dev.gamagent.local.ocr;

import java.awt.image.BufferedImage;
import java.util.List;

/** Finds and reads text lines in an image (PP-OCR detection + recognition, see {@code PpOcrEngine}). */
public interface OcrEngine extends AutoCloseable {
    List<TextLine> read(BufferedImage image);

    /** Reads one already-cropped line image (no detection). */
    TextLine readLine(BufferedImage lineImage);

    @Override default void close() { }
}
