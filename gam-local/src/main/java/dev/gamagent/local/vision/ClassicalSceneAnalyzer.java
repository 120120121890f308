package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Classical vision from pixels only: 3×3 median filter (removes speckle noise and 1-px grid lines),
 * background = dominant border colour, foreground = pixels far from it, connected components joining
 * 8-neighbours of similar colour, then per component shape and colour class scores. Thin-stroked
 * components (text), lines and specks are not reported as objects. Bar charts are recognised by a long
 * dark horizontal axis meeting a long dark vertical one, with filled rectangles standing on the former.
 */
public final class ClassicalSceneAnalyzer implements SceneAnalyzer {
    /**
     * @param minArea         smallest object in pixels
     * @param foreground      RGB distance from the background above which a pixel is foreground
     * @param join            RGB distance below which two neighbouring pixels belong to one component
     * @param minStrokeWidth  components thinner than this (2·area/boundary) are text or lines, not objects
     * @param minSolidity     components less solid than this are text, not objects
     * @param maxAspect       components more elongated than this are lines, not objects
     */
    public record Settings(int minArea, double foreground, double join, double minStrokeWidth, double minSolidity,
                           double maxAspect, double colorTemperature, double shapeTemperature) {
        public static Settings defaults() { return new Settings(20, 45, 40, 3.2, 0.45, 3.5, 1.0, 1.0); }
    }

    /**
     * Thinnest stroke of a shape drawn as an outline (a ring around background): thinner than a filled
     * object's limit, since an outline is all edge, but above the 1–2 px strokes of small text.
     */
    static final double HOLLOW_MIN_STROKE = 2.4;

    private final Settings settings;
    private final ColorClassifier colors;
    private final ShapeClassifier shapes;

    public ClassicalSceneAnalyzer(Settings settings) {
        this.settings = settings;
        this.colors = new ColorClassifier(settings.colorTemperature());
        this.shapes = new ShapeClassifier(settings.shapeTemperature());
    }

    public ClassicalSceneAnalyzer() { this(Settings.defaults()); }

    @Override public SceneAnalyzer atThreshold(int level) {
        if (level == 0) return this;
        Settings s = settings;
        return new ClassicalSceneAnalyzer(new Settings(s.minArea(), s.foreground() + level * FOREGROUND_STEP, s.join(), s.minStrokeWidth(),
                s.minSolidity(), s.maxAspect(), s.colorTemperature(), s.shapeTemperature()));
    }

    @Override public Scene analyze(BufferedImage image) { return analyze(image, MedianFilter.median(image)); }

    @Override public Scene analyze(BufferedImage image, int[] denoised) {
        int w = image.getWidth(), h = image.getHeight();
        int[] raw = Pixels.argb(image);
        int[] rgb = denoised;
        int bg = Pixels.background(rgb, w, h);
        Components comps = label(rgb, w, h, bg);
        // Axes are looked for before the median filter: at reduced scale they are one pixel thin.
        Scene.Chart chart = readChart(raw, rgb, w, h, bg, comps);
        List<DetectedObject> objects = new ArrayList<>();
        // Text lines are found on plain foreground components, where anti-aliased glyphs stay whole.
        Components plain = Components.label(rgb, comps.foreground, w, h, Integer.MAX_VALUE);
        boolean[] text = textLike(plain.blobs);
        List<Components.Blob> bySize = new ArrayList<>(comps.blobs);
        bySize.sort(Comparator.comparingInt(Components.Blob::area).reversed());
        for (Components.Blob b : comps.blobs) {
            if (b.area() < settings.minArea() || text[plain.labels[comps.pixels[b.start()]]]) continue;
            if (chart != null && isChartPart(b, chart)) continue;
            if (enclosed(b, bySize)) continue;
            // Stroke width of the unfilled component: outlines, anti-aliasing rings and glyphs are thin.
            double stroke = 2.0 * b.area() / Math.max(1, comps.boundary(b));
            if (stroke < HOLLOW_MIN_STROKE) continue;
            boolean[] mask = comps.filledMask(b);
            ShapeFeatures f = ShapeFeatures.of(mask, b.box().width, b.box().height);
            if (f.solidity() < settings.minSolidity() || f.aspect() > settings.maxAspect()) continue;
            // A shape drawn as an outline: a closed ring around background; its shape is that of the filled ring.
            boolean hollow = b.area() < 0.5 * f.area();
            if (hollow ? !comps.holeIsBackground(b, mask) : stroke < settings.minStrokeWidth()) continue;
            int color = comps.interiorMedian(b, rgb);
            Map<String, Double> cs = colors.scores((color >> 16) & 255, (color >> 8) & 255, color & 255);
            Map<String, Double> ss = shapes.scores(f);
            double fit = Arrays.stream(shapes.distances(f)).min().orElse(0);
            objects.add(new DetectedObject(b.box(), f.area(), ColorClassifier.argmax(ss), ss, ColorClassifier.argmax(cs), cs, fit));
        }
        objects.sort(Comparator.comparingInt((DetectedObject o) -> o.box().x).thenComparingInt(o -> o.box().y));
        return new Scene(w, h, objects, chart);
    }

    /**
     * Marks components that belong to a line of text: chains of at least three components of similar
     * height, vertically aligned, with gaps below a third of their height (letters of a word or phrase).
     * Indexed by blob id.
     */
    static boolean[] textLike(List<Components.Blob> blobs) {
        List<Components.Blob> small = new ArrayList<>();
        for (Components.Blob b : blobs) if (b.area() >= 4 && b.box().height <= 64) small.add(b);
        small.sort(Comparator.comparingInt(b -> b.box().x));
        int n = small.size();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int i = 0; i < n; i++) {
            Rectangle a = small.get(i).box();
            for (int j = i + 1; j < n; j++) {
                Rectangle b = small.get(j).box();
                int maxH = Math.max(a.height, b.height);
                int gap = b.x - (a.x + a.width);
                if (gap > 32) break; // sorted by x: every later box starts further right
                // Letters sit closer than a third of their height; generated shapes keep 8 px apart at least.
                if (gap > 0.3 * maxH || gap < -2) continue;
                if (Math.max(a.height, b.height) > 2.0 * Math.min(a.height, b.height)) continue;
                if (Math.abs(a.getCenterY() - b.getCenterY()) > 0.3 * maxH) continue;
                parent[find(parent, i)] = find(parent, j);
            }
        }
        int[] size = new int[n];
        for (int i = 0; i < n; i++) size[find(parent, i)]++;
        boolean[] text = new boolean[blobs.size() + 1];
        for (int i = 0; i < n; i++) if (size[find(parent, i)] >= 3) text[small.get(i).id()] = true;
        return text;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    }

    /** A component inside the box of a much larger one: a letter's counter or a mark on a sign, not a free object. */
    private static boolean enclosed(Components.Blob b, List<Components.Blob> largestFirst) {
        Rectangle r = b.box();
        for (Components.Blob o : largestFirst) {
            if (o.area() < 2 * b.area()) break;
            Rectangle q = o.box();
            if (q.x < r.x && q.y < r.y && q.x + q.width > r.x + r.width && q.y + q.height > r.y + r.height) return true;
        }
        return false;
    }

    private static boolean isChartPart(Components.Blob b, Scene.Chart chart) {
        for (Scene.Bar bar : chart.bars()) if (bar.box().intersects(b.box())) return true;
        Rectangle r = b.box();
        // The axes themselves: long thin dark runs along the plot area's left and bottom edges.
        return r.width > chart.plotArea().width / 2 || r.height > chart.plotArea().height / 2;
    }

    private Components label(int[] rgb, int w, int h, int bg) {
        double fg2 = settings.foreground() * settings.foreground();
        boolean[] fg = new boolean[w * h];
        for (int i = 0; i < fg.length; i++) fg[i] = Pixels.dist2(rgb[i], bg) > fg2;
        return Components.label(rgb, fg, w, h, (int) Math.round(settings.join() * settings.join()));
    }

    /** Finds a bar chart: a long dark horizontal axis (the baseline) meeting a long dark vertical axis on its left. */
    private Scene.Chart readChart(int[] raw, int[] rgb, int w, int h, int bg, Components comps) {
        // Dark = achromatic and at least 60 levels darker than the background: survives the blur of downscaling.
        int bgMax = Math.max((bg >> 16) & 255, Math.max((bg >> 8) & 255, bg & 255));
        boolean[] dark = new boolean[w * h];
        for (int i = 0; i < dark.length; i++) {
            int c = raw[i];
            int r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
            int max = Math.max(r, Math.max(g, b)), min = Math.min(r, Math.min(g, b));
            dark[i] = max < bgMax - 60 && max - min < 40;
        }
        int baseY = -1, baseX0 = 0, baseX1 = 0;
        for (int y = h - 1; y >= 0; y--) {
            int[] run = longestRun(dark, w, y, true, w);
            if (run[1] - run[0] >= w / 2) {
                // Move to the top row of this (possibly thick) line: bars stand on it.
                int top = y;
                while (top > 0 && longestRun(dark, w, top - 1, true, w)[1] - longestRun(dark, w, top - 1, true, w)[0] >= w / 2) top--;
                baseY = top;
                baseX0 = run[0];
                baseX1 = run[1];
                break;
            }
        }
        if (baseY < 0) return null;
        int axisX = -1, axisTop = 0;
        for (int x = 0; x < w / 2; x++) {
            int[] run = longestRun(dark, w, x, false, h);
            if (run[1] - run[0] >= h / 3 && Math.abs(run[1] - baseY) <= 6 && baseX0 <= x + 6 && x < baseX1) {
                axisX = x;
                axisTop = run[0];
                while (axisX + 1 < w && longestRun(dark, w, axisX + 1, false, h)[1] - longestRun(dark, w, axisX + 1, false, h)[0] >= h / 3) axisX++;
                break;
            }
        }
        if (axisX < 0) return null;
        Rectangle plot = new Rectangle(axisX + 1, axisTop, baseX1 - axisX - 1, baseY - axisTop);
        List<Scene.Bar> bars = bars(rgb, w, bg, plot, baseY);
        return bars.isEmpty() ? null : new Scene.Chart(bars, plot, baseY);
    }

    /**
     * Bars by column scans: from two rows above the baseline (clear of the axis and its blur), each column
     * climbs while the colour stays that of its foot. Neighbouring columns with the same colour and top form
     * one bar; groups under 3 columns (blurred bar edges, tick marks) are dropped. Specks that survive the
     * median filter on an enlarged image (a 1-px speck becomes a blurred 2×2 blob) are bridged: the foot
     * colour is a median over a few rows, the climb jumps interruptions up to {@code bridge} pixels, and
     * groups split by a narrow interruption merge. {@code bridge} grows with the plot, so the scan is scale-invariant.
     */
    private List<Scene.Bar> bars(int[] rgb, int w, int bg, Rectangle plot, int baseY) {
        int join2 = (int) Math.round(settings.join() * settings.join());
        double fg2 = settings.foreground() * settings.foreground();
        int bridge = Math.max(2, plot.height / 80);
        int n = plot.width;
        int[] top = new int[n], foot = new int[n];
        int y0 = baseY - 2;
        int[] r = new int[bridge + 1], g = new int[bridge + 1], b = new int[bridge + 1];
        for (int i = 0; i < n; i++) {
            int x = plot.x + i;
            top[i] = -1;
            if (y0 <= plot.y || x >= w) continue;
            int k = 0;
            for (int y = y0; y >= Math.max(plot.y, y0 - bridge); y--, k++) {
                int p = rgb[y * w + x];
                r[k] = (p >> 16) & 255; g[k] = (p >> 8) & 255; b[k] = p & 255;
            }
            int c = median(r, k) << 16 | median(g, k) << 8 | median(b, k);
            if (Pixels.dist2(c, bg) <= fg2 || isDarkGray(c)) continue;
            int y = y0, floor = Math.max(0, plot.y - 2);
            while (true) {
                int next = -1;
                for (int d = 1; d <= bridge + 1 && y - d >= floor; d++) {
                    int p = rgb[(y - d) * w + x];
                    if (Pixels.dist2(p, c) < join2) { next = y - d; break; }
                    // Background ends the bar: only a speck (far from the background) is bridged, never the gap above the top.
                    if (Pixels.dist2(p, bg) <= fg2) break;
                }
                if (next < 0) break;
                y = next;
            }
            top[i] = y;
            foot[i] = c;
        }
        List<int[]> groups = new ArrayList<>(); // [start, end) column ranges
        int i = 0;
        while (i < n) {
            if (top[i] < 0) { i++; continue; }
            int j = i + 1;
            while (j < n && top[j] >= 0 && Math.abs(top[j] - top[j - 1]) <= 2 && Pixels.dist2(foot[j], foot[i]) < join2) j++;
            int[] last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            // A group that starts on a blurred edge column can end early; groups compare their middle colours.
            // A fragment no wider than the bridge (a column whose climb a speck cut short) joins its neighbour.
            boolean fragment = last != null && Math.min(j - i, last[1] - last[0]) <= bridge;
            if (last != null && i - last[1] <= bridge && Pixels.dist2(foot[(last[0] + last[1]) / 2], foot[(i + j) / 2]) < join2
                    && (fragment || Math.abs(medianTop(top, last[0], last[1]) - medianTop(top, i, j)) <= 2)) {
                last[1] = j;
            } else {
                groups.add(new int[] {i, j});
            }
            i = j;
        }
        List<Scene.Bar> bars = new ArrayList<>();
        for (int[] grp : groups) {
            int s = grp[0], e = grp[1];
            if (e - s < 3) continue;
            int t = medianTop(top, s, e);
            int mid = (s + e) / 2;
            while (top[mid] < 0) mid++; // a merged gap column has no colour; the group ends with a scanned column
            int c = foot[mid];
            Map<String, Double> cs = colors.scores((c >> 16) & 255, (c >> 8) & 255, c & 255);
            bars.add(new Scene.Bar(new Rectangle(plot.x + s, t, e - s, baseY - t), ColorClassifier.argmax(cs)));
        }
        return bars;
    }

    /** Median top of the scanned columns in [s, e) (columns without a bar are skipped). */
    private static int medianTop(int[] top, int s, int e) {
        int[] tops = Arrays.stream(top, s, e).filter(t -> t >= 0).sorted().toArray();
        return tops[tops.length / 2];
    }

    private static int median(int[] v, int n) {
        int[] c = Arrays.copyOf(v, n);
        Arrays.sort(c);
        return c[n / 2];
    }

    private static boolean isDarkGray(int c) {
        int r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
        int max = Math.max(r, Math.max(g, b)), min = Math.min(r, Math.min(g, b));
        return max < 70 && max - min < 30;
    }

    /**
     * [start, end) of the longest true run along row {@code index} (horizontal) or column {@code index},
     * bridging gaps of up to 3 pixels (noise that survived the median filter).
     */
    private static int[] longestRun(boolean[] m, int w, int index, boolean horizontal, int length) {
        int bestS = 0, bestE = 0, s = -1, lastOn = -10;
        for (int i = 0; i <= length; i++) {
            boolean on = i < length && (horizontal ? m[index * w + i] : m[i * w + index]);
            if (on) {
                if (s < 0 || i - lastOn > 4) s = i;
                lastOn = i;
                if (i + 1 - s > bestE - bestS) { bestS = s; bestE = i + 1; }
            }
        }
        return new int[] {bestS, bestE};
    }
}
