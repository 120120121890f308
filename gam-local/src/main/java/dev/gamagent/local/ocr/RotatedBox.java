package dev.gamagent.local.ocr;

import java.awt.Rectangle;

/**
 * A text box found by the detector: a rectangle of {@code width × height} pixels centred at
 * ({@code cx}, {@code cy}) whose width runs along {@code angle} radians (|angle| ≤ π/4), in image
 * coordinates, with the detector's mean text probability inside it.
 */
record RotatedBox(double cx, double cy, double width, double height, double angle, double score) {

    /** The four corners, clockwise from the top-left of the unrotated box, as x0,y0,x1,y1,... */
    double[] corners() {
        double c = Math.cos(angle), s = Math.sin(angle);
        double hw = width / 2, hh = height / 2;
        double[] out = new double[8];
        double[][] local = {{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}};
        for (int i = 0; i < 4; i++) {
            out[2 * i] = cx + local[i][0] * c - local[i][1] * s;
            out[2 * i + 1] = cy + local[i][0] * s + local[i][1] * c;
        }
        return out;
    }

    /** The axis-aligned pixel rectangle covering the box, clipped to a {@code w × h} image. */
    Rectangle bounds(int w, int h) {
        double[] p = corners();
        double x0 = Double.MAX_VALUE, y0 = Double.MAX_VALUE, x1 = -Double.MAX_VALUE, y1 = -Double.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            x0 = Math.min(x0, p[2 * i]); x1 = Math.max(x1, p[2 * i]);
            y0 = Math.min(y0, p[2 * i + 1]); y1 = Math.max(y1, p[2 * i + 1]);
        }
        int ix0 = clamp((int) Math.floor(x0), 0, w - 1), iy0 = clamp((int) Math.floor(y0), 0, h - 1);
        int ix1 = clamp((int) Math.ceil(x1), ix0 + 1, w), iy1 = clamp((int) Math.ceil(y1), iy0 + 1, h);
        return new Rectangle(ix0, iy0, ix1 - ix0, iy1 - iy0);
    }

    private static int clamp(int v, int lo, int hi) { return Math.max(lo, Math.min(hi, v)); }
}
