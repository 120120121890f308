package dev.gamagent.local.vision;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rotation-invariant features of one filled binary region.
 *
 * @param area        pixel count (holes filled)
 * @param solidity    area / convex-hull area (a star is far below 1)
 * @param circularity 4πA/P² of the convex hull (circle 1, hexagon 0.91, square 0.79, triangle 0.60)
 * @param corners     vertices of a Douglas–Peucker approximation of the hull (tolerance 6 % of the radius)
 * @param fill        area / bounding-box area
 * @param aspect      bounding-box long side / short side
 * @param strokeWidth 2·area / boundary pixels: about the stroke width for thin strokes (text), large for blobs
 * @param harmonics   amplitudes of harmonics 0..8 of the radial profile (outermost pixel per angle bin
 *                    around the centroid) relative to its mean: an n-gon or n-pointed star peaks at n
 */
public record ShapeFeatures(int area, double solidity, double circularity, int corners, double fill, double aspect,
                            double strokeWidth, double[] harmonics) {
    private static final int BINS = 48;

    /** Features of {@code mask} (row-major, {@code w}×{@code h}, true = region). */
    public static ShapeFeatures of(boolean[] mask, int w, int h) {
        int area = 0, boundary = 0;
        List<double[]> pts = new ArrayList<>();
        int[] colTop = new int[w], colBottom = new int[w];
        Arrays.fill(colTop, -1);
        for (int y = 0; y < h; y++) {
            int first = -1, last = -1;
            for (int x = 0; x < w; x++) {
                if (!mask[y * w + x]) continue;
                area++;
                if (x == 0 || y == 0 || x == w - 1 || y == h - 1 || !mask[y * w + x - 1] || !mask[y * w + x + 1]
                        || !mask[(y - 1) * w + x] || !mask[(y + 1) * w + x]) boundary++;
                if (first < 0) first = x;
                last = x;
                if (colTop[x] < 0) colTop[x] = y;
                colBottom[x] = y;
            }
            // Pixel centres: their hull is the outline shrunk by half a pixel, which keeps polygon shapes exact.
            if (first >= 0) {
                pts.add(new double[] {first + 0.5, y + 0.5});
                pts.add(new double[] {last + 0.5, y + 0.5});
            }
        }
        for (int x = 0; x < w; x++) {
            if (colTop[x] < 0) continue;
            pts.add(new double[] {x + 0.5, colTop[x] + 0.5});
            pts.add(new double[] {x + 0.5, colBottom[x] + 0.5});
        }
        if (area == 0) return new ShapeFeatures(0, 0, 0, 0, 0, 1, 0, new double[9]);
        List<double[]> hull = convexHull(pts);
        double hullArea = 0, perim = 0, cx = 0, cy = 0;
        for (int i = 0; i < hull.size(); i++) {
            double[] a = hull.get(i), b = hull.get((i + 1) % hull.size());
            hullArea += a[0] * b[1] - b[0] * a[1];
            perim += Math.hypot(b[0] - a[0], b[1] - a[1]);
            cx += a[0];
            cy += a[1];
        }
        hullArea = Math.abs(hullArea) / 2;
        cx /= hull.size();
        cy /= hull.size();
        double radius = 0;
        for (double[] p : hull) radius = Math.max(radius, Math.hypot(p[0] - cx, p[1] - cy));
        // Steiner: the centre hull grown by half a pixel has area H + P/2 + π/4, comparable to the pixel count.
        double solidity = Math.min(1.0, area / (hullArea + perim / 2 + Math.PI / 4));
        double circularity = perim > 0 ? Math.min(1.0, 4 * Math.PI * hullArea / (perim * perim)) : 0;
        int corners = corners(hull, Math.max(1.0, 0.06 * radius));
        double aspect = (double) Math.max(w, h) / Math.max(1, Math.min(w, h));
        return new ShapeFeatures(area, solidity, circularity, corners, (double) area / (w * h), aspect,
                boundary == 0 ? 0 : 2.0 * area / boundary, radialHarmonics(mask, w, h));
    }

    /** The harmonic of 3..6 with the largest amplitude: the number of corners or star points. */
    public int dominantHarmonic() {
        int best = 3;
        for (int k = 4; k <= 6; k++) if (harmonics[k] > harmonics[best]) best = k;
        return best;
    }

    /**
     * Fourier amplitudes of r(θ), the distance from the centroid to the outermost pixel in each of 48 angle
     * bins, divided by the mean radius. Rotation-invariant; a circle has none above noise.
     */
    static double[] radialHarmonics(boolean[] mask, int w, int h) {
        double sx = 0, sy = 0;
        int n = 0;
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) if (mask[y * w + x]) { sx += x; sy += y; n++; }
        double cx = sx / n, cy = sy / n;
        double[] r = new double[BINS];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (!mask[y * w + x]) continue;
                double dx = x - cx, dy = y - cy;
                int bin = (int) Math.floor((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI) * BINS) % BINS;
                // +0.5: the pixel's outer edge, so that one-pixel shapes still have a radius.
                r[bin] = Math.max(r[bin], Math.hypot(dx, dy) + 0.5);
            }
        }
        double mean = 0;
        for (double v : r) mean += v;
        mean /= BINS;
        double[] amp = new double[9];
        if (mean <= 0) return amp;
        for (int k = 1; k <= 8; k++) {
            double re = 0, im = 0;
            for (int j = 0; j < BINS; j++) {
                double t = 2 * Math.PI * k * (j + 0.5) / BINS;
                re += r[j] * Math.cos(t);
                im += r[j] * Math.sin(t);
            }
            amp[k] = 2 * Math.hypot(re, im) / BINS / mean;
        }
        amp[0] = 1;
        return amp;
    }

    /** Andrew's monotone chain; counter-clockwise in image coordinates' mirror, without collinear points. */
    static List<double[]> convexHull(List<double[]> points) {
        double[][] p = points.toArray(new double[0][]);
        Arrays.sort(p, (a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        int n = p.length;
        if (n < 3) return new ArrayList<>(Arrays.asList(p));
        double[][] hull = new double[2 * n][];
        int k = 0;
        for (int i = 0; i < n; i++) {
            while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) k--;
            hull[k++] = p[i];
        }
        for (int i = n - 2, t = k + 1; i >= 0; i--) {
            while (k >= t && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) k--;
            hull[k++] = p[i];
        }
        return new ArrayList<>(Arrays.asList(hull).subList(0, k - 1));
    }

    private static double cross(double[] o, double[] a, double[] b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    }

    /** Vertex count of a Douglas–Peucker simplification of a closed polygon. */
    static int corners(List<double[]> poly, double eps) {
        int n = poly.size();
        if (n <= 3) return n;
        int far = 0;
        double best = -1;
        for (int i = 1; i < n; i++) {
            double d = Math.hypot(poly.get(i)[0] - poly.get(0)[0], poly.get(i)[1] - poly.get(0)[1]);
            if (d > best) { best = d; far = i; }
        }
        boolean[] keep = new boolean[n + 1];
        keep[0] = keep[far] = true;
        simplify(poly, 0, far, eps, keep);
        simplify(poly, far, n, eps, keep);
        int count = 0;
        for (int i = 0; i < n; i++) if (keep[i]) count++;
        return count;
    }

    private static void simplify(List<double[]> poly, int from, int to, double eps, boolean[] keep) {
        if (to - from < 2) return;
        double[] a = poly.get(from), b = poly.get(to % poly.size());
        double len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        int idx = -1;
        double dmax = -1;
        for (int i = from + 1; i < to; i++) {
            double[] p = poly.get(i);
            double d = len == 0 ? Math.hypot(p[0] - a[0], p[1] - a[1])
                    : Math.abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / len;
            if (d > dmax) { dmax = d; idx = i; }
        }
        if (dmax > eps) {
            keep[idx] = true;
            simplify(poly, from, idx, eps, keep);
            simplify(poly, idx, to, eps, keep);
        }
    }
}
