package dev.gamagent.local.vision;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;

/**
 * Connected components of foreground pixels where 8-neighbours join when their colours are within a
 * distance, so touching regions of different colours (a bar on its axis) stay apart. Each component's
 * pixels are a contiguous slice of {@link #pixels}.
 */
final class Components {
    record Blob(int id, int start, int end, Rectangle box) {
        int area() { return end - start; }
    }

    final int w, h;
    final int[] labels;
    final int[] pixels;
    final boolean[] foreground;
    final List<Blob> blobs = new ArrayList<>();

    private Components(int w, int h, boolean[] foreground) {
        this.w = w;
        this.h = h;
        this.foreground = foreground;
        this.labels = new int[w * h];
        this.pixels = new int[w * h];
    }

    /** Labels {@code fg}; {@code join2} is the squared colour distance limit ({@link Integer#MAX_VALUE}: none). */
    static Components label(int[] rgb, boolean[] fg, int w, int h, int join2) {
        Components c = new Components(w, h, fg);
        // one Join type per caller keeps the flood's call site bimorphic, so the JIT inlines both
        Join pairwise = (p, q) -> join2 == Integer.MAX_VALUE || Pixels.dist2(rgb[p], rgb[q]) <= join2;
        int next = 0;
        for (int seed = 0; seed < fg.length; seed++) {
            if (!fg[seed] || c.labels[seed] != 0) continue;
            next = c.flood(seed, next, fg, pairwise);
        }
        return c;
    }

    /**
     * Regions grown from the flattest pixels first: a foreground 8-neighbour joins a region when its colour
     * is within {@code join} of the region's running mean colour, not merely of the pixel next to it, so
     * the gradual colours of anti-aliased edges cannot chain two touching objects of different colour.
     */
    static Components grow(int[] rgb, boolean[] fg, int w, int h, double join) {
        Components c = new Components(w, h, fg);
        int n = w * h;
        // Flatness = largest colour step to a 4-neighbour, bucketed; seeds are taken from bucket 0 upwards.
        int[] bucket = new int[n];
        int[] count = new int[257];
        for (int i = 0; i < n; i++) {
            if (!fg[i]) continue;
            int x = i % w, y = i / w, m = 0;
            if (x > 0) m = Math.max(m, Pixels.dist2(rgb[i], rgb[i - 1]));
            if (x < w - 1) m = Math.max(m, Pixels.dist2(rgb[i], rgb[i + 1]));
            if (y > 0) m = Math.max(m, Pixels.dist2(rgb[i], rgb[i - w]));
            if (y < h - 1) m = Math.max(m, Pixels.dist2(rgb[i], rgb[i + w]));
            bucket[i] = Math.min(256, (int) Math.sqrt(m));
            count[bucket[i]]++;
        }
        int[] start = new int[258];
        for (int b = 0; b < 257; b++) start[b + 1] = start[b] + count[b];
        int[] order = new int[start[257]];
        int[] fill = start.clone();
        for (int i = 0; i < n; i++) if (fg[i]) order[fill[bucket[i]]++] = i;
        double join2 = join * join;
        int next = 0;
        for (int seed : order) {
            if (c.labels[seed] != 0) continue;
            next = c.flood(seed, next, fg, new MeanJoin(rgb, seed, join2));
        }
        return c;
    }

    /** Whether pixel {@code q}, an unlabelled foreground 8-neighbour of region pixel {@code p}, joins the region. */
    private interface Join {
        boolean accepts(int p, int q);

        /** {@code q} joined. */
        default void added(int q) { }
    }

    /** Joins a pixel whose colour is within the limit of the region's running mean colour (the seed's at first). */
    private static final class MeanJoin implements Join {
        private final int[] rgb;
        private final double join2;
        private long sr, sg, sb;
        private int k = 1;

        MeanJoin(int[] rgb, int seed, double join2) {
            this.rgb = rgb;
            this.join2 = join2;
            sr = (rgb[seed] >> 16) & 255;
            sg = (rgb[seed] >> 8) & 255;
            sb = rgb[seed] & 255;
        }

        @Override public boolean accepts(int p, int q) {
            int col = rgb[q];
            double dr = ((col >> 16) & 255) - (double) sr / k, dg = ((col >> 8) & 255) - (double) sg / k, db = (col & 255) - (double) sb / k;
            return dr * dr + dg * dg + db * db <= join2;
        }

        @Override public void added(int q) {
            int col = rgb[q];
            sr += (col >> 16) & 255;
            sg += (col >> 8) & 255;
            sb += col & 255;
            k++;
        }
    }

    /**
     * Floods one region from {@code seed} (breadth first over 8-neighbours, unlabelled foreground pixels that
     * {@code join} accepts), appends its pixels from {@code next} on and records its blob; returns the new {@code next}.
     */
    private int flood(int seed, int next, boolean[] fg, Join join) {
        int id = blobs.size() + 1;
        int start = next, head = next;
        pixels[next++] = seed;
        labels[seed] = id;
        int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = -1, y1 = -1;
        while (head < next) {
            int p = pixels[head++];
            int px = p % w, py = p / w;
            x0 = Math.min(x0, px); x1 = Math.max(x1, px);
            y0 = Math.min(y0, py); y1 = Math.max(y1, py);
            for (int dy = -1; dy <= 1; dy++) {
                int ny = py + dy;
                if (ny < 0 || ny >= h) continue;
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = px + dx;
                    if (nx < 0 || nx >= w || (dx == 0 && dy == 0)) continue;
                    int q = ny * w + nx;
                    if (!fg[q] || labels[q] != 0 || !join.accepts(p, q)) continue;
                    labels[q] = id;
                    pixels[next++] = q;
                    join.added(q);
                }
            }
        }
        blobs.add(new Blob(id, start, next, new Rectangle(x0, y0, x1 - x0 + 1, y1 - y0 + 1)));
        return next;
    }

    /** The blob as a mask over its box, with holes (pixels not reachable from outside the box) filled. */
    boolean[] filledMask(Blob b) {
        Rectangle r = b.box();
        int bw = r.width + 2, bh = r.height + 2;
        boolean[] in = new boolean[bw * bh];
        for (int i = b.start(); i < b.end(); i++) {
            int p = pixels[i];
            in[(p / w - r.y + 1) * bw + (p % w - r.x + 1)] = true;
        }
        boolean[] outside = new boolean[bw * bh];
        int[] stack = new int[bw * bh];
        int sp = 0;
        stack[sp++] = 0;
        outside[0] = true;
        while (sp > 0) {
            int p = stack[--sp];
            int x = p % bw, y = p / bw;
            if (x > 0) sp = visit(p - 1, in, outside, stack, sp);
            if (x < bw - 1) sp = visit(p + 1, in, outside, stack, sp);
            if (y > 0) sp = visit(p - bw, in, outside, stack, sp);
            if (y < bh - 1) sp = visit(p + bw, in, outside, stack, sp);
        }
        boolean[] mask = new boolean[r.width * r.height];
        for (int y = 0; y < r.height; y++) {
            for (int x = 0; x < r.width; x++) mask[y * r.width + x] = !outside[(y + 1) * bw + x + 1];
        }
        return mask;
    }

    /**
     * Whether the holes of the blob ({@code filled}: its {@link #filledMask}) are mostly background (at least
     * 80 % of their pixels): a ring around nothing is an outlined shape; a region with objects or letters
     * inside is not.
     */
    boolean holeIsBackground(Blob b, boolean[] filled) {
        Rectangle r = b.box();
        int hole = 0, bg = 0;
        for (int y = 0; y < r.height; y++) {
            for (int x = 0; x < r.width; x++) {
                if (!filled[y * r.width + x]) continue;
                int p = (r.y + y) * w + r.x + x;
                if (labels[p] == b.id()) continue;
                hole++;
                if (!foreground[p]) bg++;
            }
        }
        return hole > 0 && bg >= 0.8 * hole;
    }

    private static int visit(int q, boolean[] in, boolean[] outside, int[] stack, int sp) {
        if (in[q] || outside[q]) return sp;
        outside[q] = true;
        stack[sp] = q;
        return sp + 1;
    }

    /** Pixels of the blob with a 4-neighbour outside it. */
    int boundary(Blob b) {
        int n = 0;
        for (int i = b.start(); i < b.end(); i++) {
            int p = pixels[i], x = p % w, y = p / w;
            if (x == 0 || y == 0 || x == w - 1 || y == h - 1 || labels[p - 1] != b.id() || labels[p + 1] != b.id()
                    || labels[p - w] != b.id() || labels[p + w] != b.id()) n++;
        }
        return n;
    }

    /** Per-channel median colour of the blob's interior pixels (all four neighbours in the blob), else of all pixels. */
    int interiorMedian(Blob b, int[] rgb) {
        ChannelMedian median = new ChannelMedian();
        for (int pass = 0; pass < 2 && median.count() == 0; pass++) {
            for (int i = b.start(); i < b.end(); i++) {
                int p = pixels[i];
                if (pass == 0) {
                    int x = p % w, y = p / w;
                    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) continue;
                    if (labels[p - 1] != b.id() || labels[p + 1] != b.id() || labels[p - w] != b.id() || labels[p + w] != b.id()) continue;
                }
                median.add(rgb[p]);
            }
        }
        return median.rgb();
    }
}
