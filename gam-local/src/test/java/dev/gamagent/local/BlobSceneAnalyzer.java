package dev.gamagent.local;

import dev.gamagent.local.vision.DetectedObject;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.SceneAnalyzer;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small real scene analyser for tests (the production one is {@code ClassicalSceneAnalyzer}):
 * connected regions of similar non-white colour, colour scores from distances to a palette, shape
 * scores from the fill ratio of the bounding box. Records the size of every image it analyses.
 */
final class BlobSceneAnalyzer implements SceneAnalyzer {
    private static final Map<String, int[]> PALETTE = new LinkedHashMap<>();
    private static final Map<String, Double> FILL = new LinkedHashMap<>();

    static {
        PALETTE.put("red", new int[]{220, 30, 30});
        PALETTE.put("green", new int[]{30, 160, 50});
        PALETTE.put("blue", new int[]{30, 70, 220});
        PALETTE.put("yellow", new int[]{240, 220, 30});
        PALETTE.put("orange", new int[]{245, 140, 20});
        PALETTE.put("purple", new int[]{140, 40, 170});
        PALETTE.put("black", new int[]{20, 20, 20});
        PALETTE.put("gray", new int[]{128, 128, 128});
        FILL.put("circle", Math.PI / 4);
        FILL.put("square", 1.0);
        FILL.put("triangle", 0.5);
        FILL.put("star", 0.43);
        FILL.put("hexagon", 0.75);
    }

    final List<Dimension> sizes = Collections.synchronizedList(new ArrayList<>());

    @Override public Scene analyze(BufferedImage img) {
        sizes.add(new Dimension(img.getWidth(), img.getHeight()));
        int w = img.getWidth(), h = img.getHeight();
        boolean[] seen = new boolean[w * h];
        List<DetectedObject> objs = new ArrayList<>();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (seen[y * w + x] || background(img.getRGB(x, y))) continue;
                int seed = img.getRGB(x, y);
                ArrayDeque<int[]> q = new ArrayDeque<>();
                q.add(new int[]{x, y});
                seen[y * w + x] = true;
                int area = 0, minX = x, maxX = x, minY = y, maxY = y;
                long sr = 0, sg = 0, sb = 0;
                while (!q.isEmpty()) {
                    int[] p = q.poll();
                    int c = img.getRGB(p[0], p[1]);
                    area++;
                    sr += (c >> 16) & 255; sg += (c >> 8) & 255; sb += c & 255;
                    minX = Math.min(minX, p[0]); maxX = Math.max(maxX, p[0]);
                    minY = Math.min(minY, p[1]); maxY = Math.max(maxY, p[1]);
                    int[][] nb = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                    for (int[] d : nb) {
                        int nx = p[0] + d[0], ny = p[1] + d[1];
                        if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx]) continue;
                        int nc = img.getRGB(nx, ny);
                        if (background(nc) || distance(nc, seed) > 90) continue;
                        seen[ny * w + nx] = true;
                        q.add(new int[]{nx, ny});
                    }
                }
                if (area < 12) continue;
                int[] mean = {(int) (sr / area), (int) (sg / area), (int) (sb / area)};
                Rectangle box = new Rectangle(minX, minY, maxX - minX + 1, maxY - minY + 1);
                double fill = area / (double) (box.width * box.height);
                if (fill < 0.15) continue; // a thin ring of blended edge pixels left by bilinear upscaling, not an object
                Map<String, Double> colours = softmax(PALETTE, c -> -sq(mean[0] - c[0]) - sq(mean[1] - c[1]) - sq(mean[2] - c[2]), 2 * 40 * 40);
                Map<String, Double> shapes = softmax(FILL, f -> -sq(fill - f), 2 * 0.04 * 0.04);
                objs.add(new DetectedObject(box, area, best(shapes), shapes, best(colours), colours));
            }
        }
        return new Scene(w, h, objs, null);
    }

    private static <T> Map<String, Double> softmax(Map<String, T> protos, java.util.function.ToDoubleFunction<T> score, double temp) {
        Map<String, Double> raw = new LinkedHashMap<>();
        double max = Double.NEGATIVE_INFINITY;
        for (var e : protos.entrySet()) {
            double s = score.applyAsDouble(e.getValue()) / temp;
            raw.put(e.getKey(), s);
            max = Math.max(max, s);
        }
        double sum = 0;
        for (var e : raw.entrySet()) { e.setValue(Math.exp(e.getValue() - max)); sum += e.getValue(); }
        for (var e : raw.entrySet()) e.setValue(e.getValue() / sum);
        return raw;
    }

    private static String best(Map<String, Double> m) {
        return m.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    private static boolean background(int c) {
        return ((c >> 16) & 255) > 235 && ((c >> 8) & 255) > 235 && (c & 255) > 235;
    }

    private static double distance(int a, int b) {
        return Math.sqrt(sq(((a >> 16) & 255) - ((b >> 16) & 255)) + sq(((a >> 8) & 255) - ((b >> 8) & 255)) + sq((a & 255) - (b & 255)));
    }

    private static double sq(double v) { return v * v; }
}
