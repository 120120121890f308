package dev.gamagent.local.ocr;

/**
 * Settings of {@link PpOcrEngine}. Defaults follow RapidOCR's PP-OCRv4 configuration except where noted.
 *
 * @param detModel classpath resource of the DB detector
 * @param recModel classpath resource of the recogniser
 * @param keys classpath resource of the recogniser's dictionary
 * @param intraOpThreads ONNX Runtime threads per inference (the machine is shared, so 1 by default)
 * @param maxSideLen images with a longer side are shrunk to it before detection
 * @param minLongSide images with a shorter longest side are enlarged to it before detection, so the
 *                   detector sees small images at a size it was trained on
 * @param binaryThreshold probability above which a pixel counts as text
 * @param boxThreshold minimum mean text probability of a kept box
 * @param unclipRatio DB's unclip ratio r
 * @param minTextScore lines whose mean character confidence is below this are dropped by {@link PpOcrEngine#read}
 * @param topK candidates kept per character (≥ 5 by contract)
 * @param asciiOnly decode over printable ASCII only, renormalising the softmax over those classes
 * @param spaceThreshold space probability at which a gap between characters is read as a space
 * @param mergeLineBoxes join detector boxes that continue one text line (DB splits at wide word gaps)
 * @param recHeight recogniser input height
 * @param recBatchSize lines per recogniser call
 * @param cacheSize results cached per image content hash (0 = no cache)
 */
public record PpOcrOptions(String detModel, String recModel, String keys, int intraOpThreads, int maxSideLen,
                           int minLongSide, double binaryThreshold, double boxThreshold, double unclipRatio,
                           double minTextScore, int topK, boolean asciiOnly, double spaceThreshold, boolean mergeLineBoxes,
                           int recHeight, int recBatchSize, int cacheSize) {
    public PpOcrOptions {
        if (intraOpThreads < 1) throw new IllegalArgumentException("intraOpThreads must be ≥ 1, got " + intraOpThreads);
        if (topK < 5) throw new IllegalArgumentException("topK must be ≥ 5 (contract), got " + topK);
        if (minLongSide > maxSideLen) throw new IllegalArgumentException("minLongSide " + minLongSide + " > maxSideLen " + maxSideLen);
        if (recBatchSize < 1) throw new IllegalArgumentException("recBatchSize must be ≥ 1, got " + recBatchSize);
        if (cacheSize < 0) throw new IllegalArgumentException("cacheSize must be ≥ 0, got " + cacheSize);
    }

    /**
     * PP-OCRv4 detection and recognition, one thread, ASCII decoding. On rendered English lines
     * (OcrMeasure, 20 images × 2 lines × 18 size/scale cells) ASCII-only and full-dictionary decoding
     * scored the same, so ASCII is the default because our benchmark text is English: it cannot
     * answer with a CJK look-alike, and each character's candidates are plausible alternatives.
     */
    public static PpOcrOptions defaults() {
        return new PpOcrOptions("/models/ch_PP-OCRv4_det_infer.onnx", "/models/ch_PP-OCRv4_rec_infer.onnx",
                "/models/ppocr_keys_v1.txt", 1, 960, 640, 0.3, 0.5, 1.6, 0.5, 5, true, 0.1, true, 48, 6, 0);
    }

    public PpOcrOptions withAsciiOnly(boolean v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, topK, v, spaceThreshold, mergeLineBoxes, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withIntraOpThreads(int v) {
        return new PpOcrOptions(detModel, recModel, keys, v, maxSideLen, minLongSide, binaryThreshold, boxThreshold,
                unclipRatio, minTextScore, topK, asciiOnly, spaceThreshold, mergeLineBoxes, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withTopK(int v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, v, asciiOnly, spaceThreshold, mergeLineBoxes,
                recHeight, recBatchSize, cacheSize);
    }

    public PpOcrOptions withCacheSize(int v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, topK, asciiOnly, spaceThreshold, mergeLineBoxes,
                recHeight, recBatchSize, v);
    }

    public PpOcrOptions withMinTextScore(double v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, v, topK, asciiOnly, spaceThreshold, mergeLineBoxes, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withSpaceThreshold(double v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, topK, asciiOnly, v, mergeLineBoxes, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withMergeLineBoxes(boolean v) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, topK, asciiOnly, spaceThreshold, v, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withSideLimits(int min, int max) {
        return new PpOcrOptions(detModel, recModel, keys, intraOpThreads, max, min, binaryThreshold, boxThreshold,
                unclipRatio, minTextScore, topK, asciiOnly, spaceThreshold, mergeLineBoxes, recHeight,
                recBatchSize, cacheSize);
    }

    public PpOcrOptions withModels(String det, String rec) {
        return new PpOcrOptions(det, rec, keys, intraOpThreads, maxSideLen, minLongSide, binaryThreshold,
                boxThreshold, unclipRatio, minTextScore, topK, asciiOnly, spaceThreshold, mergeLineBoxes,
                recHeight, recBatchSize, cacheSize);
    }
}
