package dev.gamagent.local.ocr;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.awt.image.BufferedImage;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PP-OCR's DB text detector (Liao et al. 2020, "Real-time Scene Text Detection with Differentiable
 * Binarization"): the network outputs a per-pixel text probability; we binarise it, take connected
 * components, fit a minimum-area rectangle to each, score it by its mean probability and grow it by the
 * DB unclip offset d = A·r / L (Sec. 3.4) to recover the full text region the network shrank.
 */
final class TextDetector {
    // PaddleOCR's det preprocessing applies ImageNet mean/std to the BGR image it read with OpenCV (each detector its own copy).
    private final float[] meanBgr = {0.485f, 0.456f, 0.406f};
    private final float[] stdBgr = {0.229f, 0.224f, 0.225f};
    private static final int MIN_SIZE = 3;

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final PpOcrOptions options;

    TextDetector(OrtEnvironment env, OrtSession session, PpOcrOptions options) {
        this.env = env;
        this.session = session;
        this.inputName = session.getInputNames().iterator().next();
        this.options = options;
    }

    /** Finds text boxes in {@code image} (any size), in its pixel coordinates. */
    List<RotatedBox> detect(BufferedImage image) throws OrtException {
        int w = image.getWidth(), h = image.getHeight();
        double scale = 1.0;
        int longSide = Math.max(w, h);
        if (longSide > options.maxSideLen()) scale = options.maxSideLen() / (double) longSide;
        else if (longSide < options.minLongSide()) scale = options.minLongSide() / (double) longSide;
        // The network downsamples by 32, so both sides must be multiples of 32.
        int rw = Math.max(32, (int) Math.round(w * scale / 32.0) * 32);
        int rh = Math.max(32, (int) Math.round(h * scale / 32.0) * 32);
        BufferedImage resized = Images.resize(image, rw, rh);
        int[] rgb = dev.gamagent.local.vision.Pixels.argb(resized);
        int plane = rw * rh;
        float[] input = new float[3 * plane];
        for (int i = 0; i < plane; i++) {
            int p = rgb[i];
            float r = ((p >> 16) & 0xff) / 255f, g = ((p >> 8) & 0xff) / 255f, b = (p & 0xff) / 255f;
            input[i] = (b - meanBgr[0]) / stdBgr[0];
            input[plane + i] = (g - meanBgr[1]) / stdBgr[1];
            input[2 * plane + i] = (r - meanBgr[2]) / stdBgr[2];
        }
        float[] prob;
        try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), new long[]{1, 3, rh, rw});
             OrtSession.Result out = session.run(Map.of(inputName, x))) {
            FloatBuffer fb = ((OnnxTensor) out.get(0)).getFloatBuffer();
            prob = new float[fb.remaining()];
            fb.get(prob);
        }
        if (prob.length != plane)
            throw new IllegalStateException("detector output has " + prob.length + " values, expected " + rh + "×" + rw);
        List<RotatedBox> found = boxes(prob, rw, rh, w / (double) rw, h / (double) rh, w, h);
        return options.mergeLineBoxes() ? mergeLines(found, 0.75) : found;
    }

    /** Post-processing of a probability map of {@code mw × mh}; sx, sy map it back to the image. */
    List<RotatedBox> boxes(float[] prob, int mw, int mh, double sx, double sy, int imageW, int imageH) {
        boolean[] mask = new boolean[mw * mh];
        for (int i = 0; i < mask.length; i++) mask[i] = prob[i] > options.binaryThreshold();
        mask = dilate(mask, mw, mh);
        int[] label = new int[mw * mh];
        int[] stack = new int[mw * mh];
        List<RotatedBox> out = new ArrayList<>();
        int next = 0;
        for (int start = 0; start < mask.length; start++) {
            if (!mask[start] || label[start] != 0) continue;
            next++;
            int[] rowMin = new int[mh], rowMax = new int[mh];
            java.util.Arrays.fill(rowMin, Integer.MAX_VALUE);
            java.util.Arrays.fill(rowMax, -1);
            double sum = 0;
            int count = 0, sp = 0;
            stack[sp++] = start;
            label[start] = next;
            while (sp > 0) {
                int i = stack[--sp];
                int x = i % mw, y = i / mw;
                sum += prob[i];
                count++;
                rowMin[y] = Math.min(rowMin[y], x);
                rowMax[y] = Math.max(rowMax[y], x);
                for (int dy = -1; dy <= 1; dy++) {
                    int ny = y + dy;
                    if (ny < 0 || ny >= mh) continue;
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx;
                        if (nx < 0 || nx >= mw) continue;
                        int j = ny * mw + nx;
                        if (mask[j] && label[j] == 0) { label[j] = next; stack[sp++] = j; }
                    }
                }
            }
            double score = sum / count;
            if (score < options.boxThreshold()) continue;
            List<double[]> pts = new ArrayList<>();
            for (int y = 0; y < mh; y++) {
                if (rowMax[y] < 0) continue;
                // Pixel corners, so a one-pixel-wide component still has area.
                pts.add(new double[]{rowMin[y], y});
                pts.add(new double[]{rowMin[y], y + 1});
                pts.add(new double[]{rowMax[y] + 1, y});
                pts.add(new double[]{rowMax[y] + 1, y + 1});
            }
            RotatedBox r = MinAreaRect.of(pts, score);
            if (Math.min(r.width(), r.height()) < MIN_SIZE) continue;
            // DB unclip (Liao et al. 2020, Sec. 3.4): offset D = A·r / L, applied to every side.
            double d = r.width() * r.height() * options.unclipRatio() / (2 * (r.width() + r.height()));
            double nw = r.width() + 2 * d, nh = r.height() + 2 * d;
            if (Math.min(nw, nh) < MIN_SIZE + 2) continue;
            out.add(toImage(new RotatedBox(r.cx(), r.cy(), nw, nh, r.angle(), score), sx, sy, imageW, imageH));
        }
        return out;
    }

    /**
     * Joins boxes that continue one horizontal line: DB often splits a line at a wide word gap, and the
     * recogniser reads a whole line (with its spaces) better than its pieces. Boxes join when they are
     * both near-horizontal, of similar height, vertically aligned and at most {@code maxGap} heights apart.
     */
    static List<RotatedBox> mergeLines(List<RotatedBox> boxes, double maxGap) {
        List<RotatedBox> out = new ArrayList<>(boxes);
        boolean changed = true;
        while (changed) {
            changed = false;
            outer:
            for (int i = 0; i < out.size(); i++) {
                for (int j = 0; j < out.size(); j++) {
                    if (i == j || !continues(out.get(i), out.get(j), maxGap)) continue;
                    RotatedBox merged = union(out.get(i), out.get(j));
                    out.set(i, merged);
                    out.remove(j);
                    changed = true;
                    break outer;
                }
            }
        }
        return out;
    }

    /** Whether {@code b} continues the line of {@code a} to its right. */
    private static boolean continues(RotatedBox a, RotatedBox b, double maxGap) {
        double tilt = Math.toRadians(10);
        if (Math.abs(a.angle()) > tilt || Math.abs(b.angle()) > tilt) return false;
        double ha = a.height(), hb = b.height();
        if (Math.max(ha, hb) > 1.5 * Math.min(ha, hb)) return false;
        if (Math.abs(a.cy() - b.cy()) > 0.35 * Math.min(ha, hb)) return false;
        double aRight = a.cx() + a.width() / 2, bLeft = b.cx() - b.width() / 2;
        if (b.cx() <= a.cx()) return false;
        return bLeft - aRight <= maxGap * (ha + hb) / 2;
    }

    private static RotatedBox union(RotatedBox a, RotatedBox b) {
        List<double[]> pts = new ArrayList<>(8);
        for (RotatedBox r : List.of(a, b)) {
            double[] c = r.corners();
            for (int k = 0; k < 4; k++) pts.add(new double[]{c[2 * k], c[2 * k + 1]});
        }
        double score = (a.score() * a.width() + b.score() * b.width()) / (a.width() + b.width());
        return MinAreaRect.of(pts, score);
    }

    /** Maps a box on the probability map to image pixels (the map may be scaled unevenly in x and y). */
    private static RotatedBox toImage(RotatedBox b, double sx, double sy, int imageW, int imageH) {
        double c = Math.cos(b.angle()), s = Math.sin(b.angle());
        double ux = b.width() * c * sx, uy = b.width() * s * sy;
        double vx = -b.height() * s * sx, vy = b.height() * c * sy;
        double width = Math.hypot(ux, uy), height = Math.hypot(vx, vy);
        double angle = Math.atan2(uy, ux);
        double cx = Math.max(0, Math.min(imageW, b.cx() * sx)), cy = Math.max(0, Math.min(imageH, b.cy() * sy));
        return new RotatedBox(cx, cy, width, height, angle, b.score());
    }

    /** 2×2 dilation of a binary map: PP-OCR's {@code use_dilation} joins characters split by thin gaps. */
    private static boolean[] dilate(boolean[] m, int w, int h) {
        boolean[] out = new boolean[m.length];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                out[i] = m[i] || (x > 0 && m[i - 1]) || (y > 0 && m[i - w]) || (x > 0 && y > 0 && m[i - w - 1]);
            }
        }
        return out;
    }
}
