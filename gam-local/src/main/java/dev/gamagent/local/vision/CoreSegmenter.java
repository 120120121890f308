package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A second segmentation, built to err differently from {@link ClassicalSceneAnalyzer}: colours are
 * first stretched away from the background (faint, washed-out objects regain their contrast and hue),
 * regions of similar stretched colour are labelled, and a region that holds several objects touching
 * each other is cut at the necks of its distance transform: every peak that stands at least a fifth of
 * its own height above the saddle joining it to a higher peak becomes an object of its own. Text,
 * thin lines and specks are left out as in the classical analyser.
 */
public final class CoreSegmenter implements SceneAnalyzer {
    /**
     * @param minArea     smallest object in pixels
     * @param foreground  stretched RGB distance from the background above which a pixel is foreground
     * @param join        stretched RGB distance below which neighbouring pixels join one region
     * @param targetContrast the foreground's 90th-percentile distance from the background after stretching
     * @param maxGain     largest contrast stretch
     * @param persistence a peak is its own object when it rises this fraction of its height above its saddle
     */
    public record Settings(int minArea, double foreground, double join, double targetContrast, double maxGain,
                           double persistence) {
        public static Settings defaults() { return new Settings(20, 45, 40, 130, 3.0, 0.12); }
    }

    private final Settings settings;
    private final ColorClassifier colors = new ColorClassifier();
    private final ShapeClassifier shapes = new ShapeClassifier();

    public CoreSegmenter(Settings settings) { this.settings = settings; }

    public CoreSegmenter() { this(Settings.defaults()); }

    @Override public SceneAnalyzer atThreshold(int level) {
        if (level == 0) return this;
        Settings s = settings;
        return new CoreSegmenter(new Settings(s.minArea(), s.foreground() + level * FOREGROUND_STEP, s.join(), s.targetContrast(),
                s.maxGain(), s.persistence()));
    }

    @Override public Scene analyze(BufferedImage image) { return analyze(image, MedianFilter.median(image)); }

    @Override public Scene analyze(BufferedImage image, int[] denoised) {
        int w = image.getWidth(), h = image.getHeight();
        int[] rgb = denoised;
        int bg = Pixels.background(rgb, w, h);
        int[] stretched = stretch(rgb, bg, gain(rgb, bg));
        double fg2 = settings.foreground() * settings.foreground();
        boolean[] fg = new boolean[w * h];
        for (int i = 0; i < fg.length; i++) fg[i] = Pixels.dist2(stretched[i], bg) > fg2;
        Components comps = Components.grow(stretched, fg, w, h, settings.join());
        Components plain = Components.label(stretched, fg, w, h, Integer.MAX_VALUE);
        boolean[] text = ClassicalSceneAnalyzer.textLike(plain.blobs);
        // Shapes drawn as outlines are rings around background; their anti-aliased strokes vary in colour along the
        // ring, so rings are found among regions labelled by neighbour-to-neighbour colour steps.
        Components chained = Components.label(stretched, fg, w, h, (int) Math.round(settings.join() * settings.join()));
        boolean[] ringIds = new boolean[chained.blobs.size() + 1];
        for (Components.Blob b : chained.blobs) {
            if (b.area() < settings.minArea()) continue;
            boolean[] mask = chained.filledMask(b);
            ringIds[b.id()] = hollow(chained, b, mask, ShapeFeatures.of(mask, b.box().width, b.box().height));
        }
        List<DetectedObject> objects = new ArrayList<>();
        for (Components.Blob b : comps.blobs) {
            if (ringIds[chained.labels[comps.pixels[b.start()]]]) continue; // a piece of an outline: the ring is one object
            if (b.area() < settings.minArea() || text[plain.labels[comps.pixels[b.start()]]]) continue;
            double stroke = 2.0 * b.area() / Math.max(1, comps.boundary(b));
            if (stroke < 3.2) continue;
            addObjects(comps, b, stretched, w, objects);
        }
        // The outlines themselves, coloured by the ring.
        for (Components.Blob b : chained.blobs) {
            if (!ringIds[b.id()] || text[plain.labels[chained.pixels[b.start()]]]) continue;
            double stroke = 2.0 * b.area() / Math.max(1, chained.boundary(b));
            if (stroke < ClassicalSceneAnalyzer.HOLLOW_MIN_STROKE) continue;
            addObjects(chained, b, stretched, w, objects);
        }
        objects.sort(Comparator.comparingInt((DetectedObject o) -> o.box().x).thenComparingInt(o -> o.box().y));
        return new Scene(w, h, objects, null);
    }

    /** How much to stretch: the foreground's 90th-percentile distance from the background brought to the target. */
    double gain(int[] rgb, int bg) {
        int[] hist = new int[443];
        int n = 0;
        for (int c : rgb) {
            int d = (int) Math.sqrt(Pixels.dist2(c, bg));
            if (d > 20) { hist[Math.min(442, d)]++; n++; }
        }
        if (n < 20) return 1;
        int acc = 0, p90 = 0;
        while (p90 < 442 && (acc += hist[p90]) < 0.9 * n) p90++;
        return Math.max(1, Math.min(settings.maxGain(), settings.targetContrast() / Math.max(1, p90)));
    }

    /**
     * c' = bg + t·(c − bg) with t = k, or less where k would push a channel past 0 or 255 (the difference is
     * scaled as a whole, so the hue is kept): a blend towards the background undone.
     */
    static int[] stretch(int[] rgb, int bg, double k) {
        if (k == 1) return rgb;
        int[] out = new int[rgb.length];
        int[] b = {(bg >> 16) & 255, (bg >> 8) & 255, bg & 255};
        int[] d = new int[3];
        int lastIn = 0, lastOut = 0;
        boolean any = false; // a pixel of the colour before is stretched as it was (runs of one colour are most pixels)
        for (int i = 0; i < rgb.length; i++) {
            int c = rgb[i];
            if (any && c == lastIn) {
                out[i] = lastOut;
                continue;
            }
            d[0] = ((c >> 16) & 255) - b[0];
            d[1] = ((c >> 8) & 255) - b[1];
            d[2] = (c & 255) - b[2];
            double t = k;
            for (int ch = 0; ch < 3; ch++) {
                if (d[ch] > 0) t = Math.min(t, (255.0 - b[ch]) / d[ch]);
                else if (d[ch] < 0) t = Math.min(t, (double) b[ch] / -d[ch]);
            }
            t = Math.max(1, t);
            out[i] = clip(b[0] + t * d[0]) << 16 | clip(b[1] + t * d[1]) << 8 | clip(b[2] + t * d[2]);
            lastIn = c;
            lastOut = out[i];
            any = true;
        }
        return out;
    }

    private static int clip(double v) { return (int) Math.max(0, Math.min(255, Math.round(v))); }

    /** A ring around background (an outlined shape): its hole is background and at least a fifth of the filled shape. */
    private static boolean hollow(Components c, Components.Blob b, boolean[] filled, ShapeFeatures whole) {
        return b.area() < 0.8 * whole.area() && c.holeIsBackground(b, filled);
    }

    /**
     * The objects of one region (a filled shape or an outline): its filled mask split into touching parts, each
     * coloured by the region's own pixels; none when the region is a thin bar (aspect above 6).
     */
    private void addObjects(Components c, Components.Blob b, int[] rgb, int w, List<DetectedObject> objects) {
        boolean[] mask = c.filledMask(b);
        Rectangle box = b.box();
        ShapeFeatures whole = ShapeFeatures.of(mask, box.width, box.height);
        if (whole.aspect() > 6) return;
        boolean[] own = own(c, b, w);
        for (boolean[] part : split(mask, box.width, box.height)) {
            DetectedObject o = object(part, own, box, rgb, w);
            if (o != null) objects.add(o);
        }
    }

    /** The blob's own pixels as a mask over its box. */
    private static boolean[] own(Components c, Components.Blob b, int w) {
        Rectangle box = b.box();
        boolean[] m = new boolean[box.width * box.height];
        for (int i = b.start(); i < b.end(); i++) {
            int px = c.pixels[i];
            m[(px / w - box.y) * box.width + (px % w - box.x)] = true;
        }
        return m;
    }

    /** @param ring the region's own pixels (its colour comes from them, never from a hole it encloses) */
    private DetectedObject object(boolean[] part, boolean[] ring, Rectangle box, int[] rgb, int w) {
        int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = -1, y1 = -1, area = 0;
        for (int y = 0; y < box.height; y++) {
            for (int x = 0; x < box.width; x++) {
                if (!part[y * box.width + x]) continue;
                area++;
                x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
            }
        }
        if (area < settings.minArea()) return null;
        int pw = x1 - x0 + 1, ph = y1 - y0 + 1;
        boolean[] m = new boolean[pw * ph];
        for (int y = 0; y < ph; y++) for (int x = 0; x < pw; x++) m[y * pw + x] = part[(y + y0) * box.width + x + x0];
        int[] med = null;
        // Colour from the region's own pixels inside the part, away from its edges (two pixels in when it is big
        // enough); when none is that far in (a thin outline), from all of them.
        for (int pass = 0; pass < 2 && med == null; pass++) {
            ChannelMedian median = new ChannelMedian();
            for (int y = y0; y <= y1; y++) {
                for (int x = x0; x <= x1; x++) {
                    if (!part[y * box.width + x]) continue;
                    boolean sample;
                    sample = ring[y * box.width + x] && (pass == 1 || area <= 40
                            || inside(ring, box.width, box.height, x, y, 1) && inside(part, box.width, box.height, x, y, area > 150 ? 2 : 1));
                    if (!sample) continue;
                    median.add(rgb[(box.y + y) * w + box.x + x]);
                }
            }
            if (median.count() == 0) continue;
            int c = median.rgb();
            med = new int[] {(c >> 16) & 255, (c >> 8) & 255, c & 255};
        }
        if (med == null) return null;
        ShapeFeatures f = ShapeFeatures.of(m, pw, ph);
        if (f.solidity() < 0.45) return null;
        Map<String, Double> cs = colors.scores(med[0], med[1], med[2]);
        Map<String, Double> ss = shapes.scores(f);
        double fit = java.util.Arrays.stream(shapes.distances(f)).min().orElse(0);
        return new DetectedObject(new Rectangle(box.x + x0, box.y + y0, pw, ph), area, ColorClassifier.argmax(ss), ss,
                ColorClassifier.argmax(cs), cs, fit);
    }

    private static boolean inside(boolean[] m, int w, int h, int x, int y, int r) {
        for (int dy = -r; dy <= r; dy++) {
            for (int dx = -r; dx <= r; dx++) {
                int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= w || ny >= h || !m[ny * w + nx]) return false;
            }
        }
        return true;
    }

    /**
     * The region's objects: flooding its chamfer distance transform from the highest value down, two
     * basins stay apart when the lower one's peak rises above the level where they meet by at least
     * {@code persistence} of its height (and 1.5 px); otherwise they are one object.
     */
    List<boolean[]> split(boolean[] mask, int w, int h) {
        int[] dt = distance(mask, w, h);
        int max = 0;
        for (int v : dt) max = Math.max(max, v);
        if (max < 9) return List.of(mask); // under 3 px deep: too small to hold two objects
        // Pixels in decreasing distance (counting sort).
        int[] count = new int[max + 2];
        for (int i = 0; i < dt.length; i++) if (mask[i]) count[dt[i]]++;
        int[] start = new int[max + 2];
        for (int v = max - 1; v >= 0; v--) start[v] = start[v + 1] + count[v + 1];
        int[] order = new int[start[0] + count[0]];
        int[] fill = start.clone();
        for (int i = 0; i < dt.length; i++) if (mask[i]) order[fill[dt[i]]++] = i;
        int[] parent = new int[w * h], peak = new int[w * h];
        java.util.Arrays.fill(parent, -1);
        int[] roots = new int[8];
        for (int p : order) {
            int x = p % w, y = p / w, nr = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                    int q = ny * w + nx;
                    if (parent[q] < 0) continue;
                    int r = find(parent, q);
                    boolean seen = false;
                    for (int k = 0; k < nr; k++) if (roots[k] == r) seen = true;
                    if (!seen) roots[nr++] = r;
                }
            }
            if (nr == 0) {
                parent[p] = p;
                peak[p] = dt[p];
                continue;
            }
            int top = roots[0];
            for (int k = 1; k < nr; k++) if (peak[roots[k]] > peak[top]) top = roots[k];
            parent[p] = top;
            for (int k = 0; k < nr; k++) {
                int r = roots[k];
                if (r == top) continue;
                double rise = peak[r] - dt[p];
                if (rise < Math.max(3.5, settings.persistence() * peak[r])) parent[r] = top; // not a peak of its own
            }
        }
        List<Integer> basins = new ArrayList<>();
        for (int p : order) if (parent[p] == p) basins.add(p);
        if (basins.size() <= 1) return List.of(mask);
        List<boolean[]> parts = new ArrayList<>();
        for (int b : basins) {
            boolean[] part = new boolean[w * h];
            boolean any = false;
            for (int p : order) if (find(parent, p) == b) { part[p] = true; any = true; }
            if (any) parts.add(part);
        }
        return parts;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    }

    /** Chamfer 3-4 distance to the nearest pixel outside the mask (the box border counts as outside); 3 ≈ 1 px. */
    static int[] distance(boolean[] mask, int w, int h) {
        int inf = 1 << 20;
        int[] d = new int[w * h];
        for (int i = 0; i < d.length; i++) d[i] = mask[i] ? inf : 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                if (d[i] == 0) continue;
                int v = d[i];
                v = Math.min(v, x > 0 ? d[i - 1] + 3 : 3);
                v = Math.min(v, y > 0 ? d[i - w] + 3 : 3);
                v = Math.min(v, x > 0 && y > 0 ? d[i - w - 1] + 4 : 4);
                v = Math.min(v, x < w - 1 && y > 0 ? d[i - w + 1] + 4 : 4);
                d[i] = v;
            }
        }
        for (int y = h - 1; y >= 0; y--) {
            for (int x = w - 1; x >= 0; x--) {
                int i = y * w + x;
                if (d[i] == 0) continue;
                int v = d[i];
                v = Math.min(v, x < w - 1 ? d[i + 1] + 3 : 3);
                v = Math.min(v, y < h - 1 ? d[i + w] + 3 : 3);
                v = Math.min(v, x < w - 1 && y < h - 1 ? d[i + w + 1] + 4 : 4);
                v = Math.min(v, x > 0 && y < h - 1 ? d[i + w - 1] + 4 : 4);
                d[i] = v;
            }
        }
        return d;
    }
}
