package dev.gamagent.local.ocr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The minimum-area enclosing rectangle of a point set: convex hull (Andrew's monotone chain), then
 * rotating calipers — the optimal rectangle has a side collinear with a hull edge (Freeman and
 * Shapira 1975), so trying every edge direction is exact.
 */
final class MinAreaRect {
    private MinAreaRect() { }

    static RotatedBox of(List<double[]> points, double score) {
        List<double[]> hull = hull(points);
        if (hull.size() == 1) return new RotatedBox(hull.get(0)[0], hull.get(0)[1], 0, 0, 0, score);
        double bestArea = Double.MAX_VALUE;
        RotatedBox best = null;
        for (int i = 0; i < hull.size(); i++) {
            double[] a = hull.get(i), b = hull.get((i + 1) % hull.size());
            double ex = b[0] - a[0], ey = b[1] - a[1], len = Math.hypot(ex, ey);
            if (len == 0) continue;
            ex /= len;
            ey /= len;
            double minU = Double.MAX_VALUE, maxU = -Double.MAX_VALUE, minV = Double.MAX_VALUE, maxV = -Double.MAX_VALUE;
            for (double[] p : hull) {
                double u = p[0] * ex + p[1] * ey, v = -p[0] * ey + p[1] * ex;
                minU = Math.min(minU, u); maxU = Math.max(maxU, u);
                minV = Math.min(minV, v); maxV = Math.max(maxV, v);
            }
            double area = (maxU - minU) * (maxV - minV);
            if (area < bestArea - 1e-9) {
                bestArea = area;
                double cu = (minU + maxU) / 2, cv = (minV + maxV) / 2;
                double cx = cu * ex - cv * ey, cy = cu * ey + cv * ex;
                best = normalise(cx, cy, maxU - minU, maxV - minV, Math.atan2(ey, ex), score);
            }
        }
        return best;
    }

    /** Re-expresses a rectangle so its angle lies in [-π/4, π/4]; width is the side along that angle. */
    static RotatedBox normalise(double cx, double cy, double w, double h, double angle, double score) {
        double a = angle;
        while (a > Math.PI / 4) { a -= Math.PI / 2; double t = w; w = h; h = t; }
        while (a < -Math.PI / 4) { a += Math.PI / 2; double t = w; w = h; h = t; }
        return new RotatedBox(cx, cy, w, h, a, score);
    }

    static List<double[]> hull(List<double[]> points) {
        List<double[]> pts = new ArrayList<>(points);
        pts.sort(Comparator.<double[]>comparingDouble(p -> p[0]).thenComparingDouble(p -> p[1]));
        if (pts.size() < 3) return pts;
        double[][] h = new double[2 * pts.size()][];
        int k = 0;
        for (double[] p : pts) {
            while (k >= 2 && cross(h[k - 2], h[k - 1], p) <= 0) k--;
            h[k++] = p;
        }
        for (int i = pts.size() - 2, lower = k + 1; i >= 0; i--) {
            double[] p = pts.get(i);
            while (k >= lower && cross(h[k - 2], h[k - 1], p) <= 0) k--;
            h[k++] = p;
        }
        List<double[]> out = new ArrayList<>(k - 1);
        for (int i = 0; i < k - 1; i++) out.add(h[i]);
        return out;
    }

    private static double cross(double[] o, double[] a, double[] b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    }
}
