package dev.gamagent.local.ocr;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.awt.image.BufferedImage;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * PP-OCR's line recogniser (SVTR-LCNet, CTC head). Lines are resized to a fixed height keeping their
 * aspect ratio, padded on the right to the widest line of their batch, normalised to [-1, 1] and fed in
 * BGR order as in PaddleOCR's training pipeline; the output is already a softmax over the dictionary.
 */
final class TextRecognizer {
    private static final int MIN_WIDTH = 320;

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final CtcDecoder decoder;
    private final int height;
    private final int batchSize;

    TextRecognizer(OrtEnvironment env, OrtSession session, CtcDecoder decoder, int height, int batchSize) {
        this.env = env;
        this.session = session;
        this.inputName = session.getInputNames().iterator().next();
        this.decoder = decoder;
        this.height = height;
        this.batchSize = batchSize;
    }

    /** Reads each upright line image; results are in input order. */
    List<CtcDecoder.Decoded> recognize(List<BufferedImage> lines) throws OrtException {
        int n = lines.size();
        CtcDecoder.Decoded[] out = new CtcDecoder.Decoded[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        // Batching lines of similar aspect keeps padding (and wasted compute) small.
        Arrays.sort(order, Comparator.comparingDouble(i -> ratio(lines.get(i))));
        for (int b = 0; b < n; b += batchSize) {
            int m = Math.min(batchSize, n - b);
            double maxRatio = MIN_WIDTH / (double) height;
            for (int i = 0; i < m; i++) maxRatio = Math.max(maxRatio, ratio(lines.get(order[b + i])));
            int width = (int) Math.ceil(height * maxRatio);
            int plane = height * width;
            float[] input = new float[m * 3 * plane];
            boolean[][] empty = new boolean[m][];
            for (int i = 0; i < m; i++) empty[i] = fill(lines.get(order[b + i]), input, i * 3 * plane, width);
            try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), new long[]{m, 3, height, width});
                 OrtSession.Result res = session.run(Map.of(inputName, x))) {
                OnnxTensor y = (OnnxTensor) res.get(0);
                long[] shape = y.getInfo().getShape();
                int frames = (int) shape[1], classes = (int) shape[2];
                FloatBuffer fb = y.getFloatBuffer();
                float[] probs = new float[fb.remaining()];
                fb.get(probs);
                double stride = width / (double) frames;
                for (int i = 0; i < m; i++) {
                    CtcDecoder.InkGaps gaps = inkGaps(empty[i], stride);
                    out[order[b + i]] = decoder.decode(probs, i * frames * classes, frames, classes, gaps);
                }
            }
        }
        return new ArrayList<>(Arrays.asList(out));
    }

    private static double ratio(BufferedImage img) { return img.getWidth() / (double) img.getHeight(); }

    /** Widest ink-free column run between the centres of two frames, over the line height. */
    private CtcDecoder.InkGaps inkGaps(boolean[] emptyColumn, double stride) {
        return (fromFrame, toFrame) -> {
            int x0 = Math.max(0, (int) Math.floor((fromFrame + 0.5) * stride));
            int x1 = Math.min(emptyColumn.length, (int) Math.ceil((toFrame + 0.5) * stride));
            int best = 0, run = 0;
            for (int x = x0; x < x1; x++) {
                run = emptyColumn[x] ? run + 1 : 0;
                best = Math.max(best, run);
            }
            return best / (double) height;
        };
    }

    /**
     * Writes the normalised line into {@code input} and returns which of its resized columns hold no
     * ink (Otsu threshold on grey levels, the minority side taken as ink so both polarities work).
     */
    private boolean[] fill(BufferedImage line, float[] input, int offset, int width) {
        int rw = Math.max(1, Math.min(width, (int) Math.ceil(height * ratio(line))));
        BufferedImage r = Images.resize(line, rw, height);
        int[] rgb = dev.gamagent.local.vision.Pixels.argb(r);
        int plane = height * width;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < rw; x++) {
                int p = rgb[y * rw + x];
                int i = offset + y * width + x;
                input[i] = (p & 0xff) / 127.5f - 1f;
                input[i + plane] = ((p >> 8) & 0xff) / 127.5f - 1f;
                input[i + 2 * plane] = ((p >> 16) & 0xff) / 127.5f - 1f;
            }
        }
        // The padding stays 0, i.e. mid grey after normalisation, as in PaddleOCR.
        return emptyColumns(rgb, rw, height);
    }

    static boolean[] emptyColumns(int[] rgb, int w, int h) {
        int[] grey = new int[rgb.length];
        int[] hist = new int[256];
        for (int i = 0; i < rgb.length; i++) {
            int p = rgb[i];
            grey[i] = (((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff)) / 3;
            hist[grey[i]]++;
        }
        int t = otsu(hist, rgb.length);
        int dark = 0;
        for (int g : grey) if (g <= t) dark++;
        boolean inkIsDark = dark * 2 <= grey.length;
        boolean[] empty = new boolean[w];
        for (int x = 0; x < w; x++) {
            boolean any = false;
            for (int y = 0; y < h && !any; y++) any = (grey[y * w + x] <= t) == inkIsDark;
            empty[x] = !any;
        }
        return empty;
    }

    /** Otsu's threshold (1979): the grey level maximising the between-class variance. */
    private static int otsu(int[] hist, int total) {
        double sumAll = 0;
        for (int i = 0; i < 256; i++) sumAll += i * (double) hist[i];
        double sumB = 0, best = -1;
        int wB = 0, threshold = 127;
        for (int i = 0; i < 256; i++) {
            wB += hist[i];
            if (wB == 0) continue;
            int wF = total - wB;
            if (wF == 0) break;
            sumB += i * (double) hist[i];
            double mB = sumB / wB, mF = (sumAll - sumB) / wF;
            double between = (double) wB * wF * (mB - mF) * (mB - mF);
            if (between > best) { best = between; threshold = i; }
        }
        return threshold;
    }
}
