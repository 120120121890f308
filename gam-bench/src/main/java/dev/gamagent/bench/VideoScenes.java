package dev.gamagent.bench;

import dev.gamagent.bench.VideoPhrasings.Kind;
import dev.gamagent.bench.VideoTruth.Track;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Scenes for the video family (issue 30 item 5): short clips of the benchmark's shapes and of lamps, in
 * {@value #STEPS} steps of {@value #FRAMES_PER_STEP} frames at {@value #FPS} frames per second, so that the 8
 * frames VLMEvalKit's uniform sampling takes from the clip fall one in each step (and 16 or more see every
 * step too). Four kinds of question ({@link VideoPhrasings}): which way an object moves (the others stand
 * still, or on hard clips move other ways), how many times a light blinks (it starts off; other lamps stay
 * on or off, or blink other counts on medium and hard clips), and which object appears first or last
 * (objects come one per step and stay; on harder clips some are there from the start and are not options).
 * The difficulty sets sizes, clutter, noise and contrast as in the image families; the style sets the size,
 * anti-aliasing, outlines and JPEG compression of every frame.
 */
final class VideoScenes extends Scenes {
    static final int STEPS = 8;
    static final int FRAMES_PER_STEP = 3;
    static final double FPS = 6.0;
    /** Lamp colours: black and grey lamps would look off when lit. */
    static final List<String> LIGHT_COLORS = List.of("red", "green", "blue", "yellow", "orange", "purple");
    static final List<String> DIRECTIONS = List.of("left", "right", "up", "down");

    private Backdrop frame;

    VideoScenes(Random rng, Difficulty d, RenderStyle style) {
        super(rng, d, style);
    }

    /** An item of a kind drawn from the item's random source. */
    VideoItem item(int index) { return item(index, Kind.values()[rng.nextInt(Kind.values().length)]); }

    VideoItem item(int index, Kind kind) {
        frame = backdrop();
        for (int attempt = 0; attempt < 200; attempt++) {
            VideoItem item = switch (kind) {
                case DIRECTION -> direction(index);
                case BLINKS -> blinks(index);
                case FIRST, LAST -> order(index, kind);
            };
            if (item != null) return item;
        }
        throw new IllegalStateException("video item " + index + ": no " + kind.variant() + " scene could be laid out in 200 attempts");
    }

    private boolean hard() { return d.tag().equals("hard"); }

    private boolean easy() { return d.tag().equals("easy"); }

    private double radius() { return d.minRadius() + rng.nextDouble() * (d.maxRadius() - d.minRadius()); }

    private double rotation() { return d.maxRotationDeg() == 0 ? 0 : Math.toRadians((rng.nextDouble() * 2 - 1) * d.maxRotationDeg()); }

    private int rgb(String color) { return Palette.jittered(color, rng, frame.background(), d.contrastBlend()).getRGB() & 0xFFFFFF; }

    /** Which way one object moves; the options are directions. */
    private VideoItem direction(int index) {
        Layout layout = new Layout();
        String dir = DIRECTIONS.get(rng.nextInt(DIRECTIONS.size()));
        Spec target = new Spec(Palette.pick(Palette.SHAPES, rng), Palette.pick(Palette.COLORS, rng));
        Track t = layout.moving(target, dir, radius(), 0.35 + 0.2 * rng.nextDouble());
        if (t == null) return null;
        Set<Spec> used = new HashSet<>(Set.of(target));
        int movers = hard() ? 1 + rng.nextInt(2) : 0;
        for (int i = 0; i < movers; i++) {
            Spec s = fresh(used);
            List<String> others = new ArrayList<>(DIRECTIONS);
            others.remove(dir);
            if (layout.moving(s, others.get(rng.nextInt(others.size())), radius(), 0.3 + 0.2 * rng.nextDouble()) == null) return null;
        }
        int still = easy() ? rng.nextInt(2) : 1 + rng.nextInt(Math.min(d.clutter(), 4));
        for (int i = 0; i < still; i++) if (layout.still(fresh(used), radius(), 0) == null) return null;
        List<String> pool = new ArrayList<>(DIRECTIONS);
        pool.remove(dir);
        Collections.shuffle(pool, rng);
        int distractors = easy() ? 1 : hard() ? 3 : 2;
        String obj = target.color() + " " + target.shape();
        return finish(index, Kind.DIRECTION, Map.of("obj", obj), dir, pool.subList(0, distractors), layout);
    }

    /** How many times one lamp blinks; the options are counts. */
    private VideoItem blinks(int index) {
        Layout layout = new Layout();
        List<String> colors = new ArrayList<>(LIGHT_COLORS);
        Collections.shuffle(colors, rng);
        int lamps = easy() ? 1 + rng.nextInt(2) : hard() ? 3 + rng.nextInt(2) : 2 + rng.nextInt(2);
        int n = 1 + rng.nextInt(4);
        double r = Math.max(12, radius());
        if (layout.still(new Spec("circle", colors.get(0)), r, 0, true, pattern(n)) == null) return null;
        for (int i = 1; i < lamps; i++) {
            List<Boolean> lit;
            if (easy()) {
                boolean on = rng.nextBoolean();
                lit = new ArrayList<>(Collections.nCopies(STEPS, on));
            } else {
                int m = hard() ? Math.max(1, Math.min(4, n + (rng.nextBoolean() ? 1 : -1))) : 1 + rng.nextInt(4);
                lit = pattern(m);
            }
            if (layout.still(new Spec("circle", colors.get(i)), r, 0, true, lit) == null) return null;
        }
        int clutter = easy() ? 0 : rng.nextInt(Math.min(d.clutter(), 3) + 1);
        Set<Spec> used = new HashSet<>();
        for (int i = 0; i < clutter; i++) if (layout.still(fresh(used), radius(), 0) == null) return null;
        List<String> pool = new ArrayList<>();
        for (int v = Math.max(0, n - 2); v <= n + 2; v++) if (v != n) pool.add(String.valueOf(v));
        Collections.shuffle(pool, rng);
        return finish(index, Kind.BLINKS, Map.of("color", colors.get(0)), String.valueOf(n), pool.subList(0, 3), layout);
    }

    /**
     * Lit states of a lamp that starts off and turns on {@code n} times (1 ≤ n ≤ 4) over the steps, each time
     * for one or two steps: every such pattern equally likely.
     */
    List<Boolean> pattern(int n) {
        List<List<Boolean>> all = new ArrayList<>();
        for (int bits = 0; bits < 1 << (STEPS - 1); bits++) {
            List<Boolean> p = new ArrayList<>();
            p.add(false);
            for (int s = 0; s < STEPS - 1; s++) p.add((bits >> s & 1) == 1);
            int runs = 0, run = 0, longest = 0;
            for (int s = 0; s < STEPS; s++) {
                run = p.get(s) ? run + 1 : 0;
                longest = Math.max(longest, run);
                if (p.get(s) && (s == 0 || !p.get(s - 1))) runs++;
            }
            if (runs == n && longest <= 2) all.add(p);
        }
        return all.get(rng.nextInt(all.size()));
    }

    /** Which object appears first or last; the options are the objects that appear (one per step, staying). */
    private VideoItem order(int index, Kind kind) {
        Layout layout = new Layout();
        Set<Spec> used = new HashSet<>();
        int present = easy() ? 0 : hard() ? 1 + rng.nextInt(2) : rng.nextInt(2);
        for (int i = 0; i < present; i++) if (layout.still(fresh(used), radius(), 0) == null) return null;
        int m = easy() ? 3 : 3 + rng.nextInt(2);
        List<Integer> steps = new ArrayList<>();
        for (int s = 1; s < STEPS; s++) steps.add(s);
        Collections.shuffle(steps, rng);
        List<Integer> when = new ArrayList<>(steps.subList(0, m));
        Collections.sort(when);
        List<Spec> coming = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            Spec s = fresh(used);
            if (layout.still(s, radius(), when.get(i)) == null) return null;
            coming.add(s);
        }
        Spec correct = kind == Kind.FIRST ? coming.get(0) : coming.get(m - 1);
        List<String> distractors = new ArrayList<>();
        for (Spec s : coming) if (s != correct) distractors.add(s.name());
        Collections.shuffle(distractors, rng);
        return finish(index, kind, Map.of(), correct.name(), distractors, layout);
    }

    private VideoItem finish(int index, Kind kind, Map<String, String> values, String correct, List<String> distractors, Layout layout) {
        String question = VideoPhrasings.pick(kind, rng, values);
        LetteredOptions lettered = LetteredOptions.place(correct, distractors, rng);
        VideoTruth truth = new VideoTruth(frame.width(), frame.height(), frame.background().getRGB() & 0xFFFFFF, STEPS, FRAMES_PER_STEP, FPS, layout.tracks);
        return new VideoItem(index, kind, question, "", lettered.options(), lettered.answer(), d.tag(), d.noiseFraction(), rng.nextLong(), truth, style);
    }

    /** A shape and colour not used yet in the scene (names are unique, so a question names one object). */
    private Spec fresh(Set<Spec> used) {
        Spec s;
        do s = new Spec(Palette.pick(Palette.SHAPES, rng), Palette.pick(Palette.COLORS, rng)); while (!used.add(s));
        return s;
    }

    private record Spec(String shape, String color) {
        String name() { return color + " " + shape; }
    }

    /** Objects placed so that no two paths (a still object's is a point) come closer than their radii and a gap. */
    private final class Layout {
        final List<Track> tracks = new ArrayList<>();

        Track still(Spec s, double r, int appears) { return still(s, r, appears, false, null); }

        Track still(Spec s, double r, int appears, boolean light, List<Boolean> lit) {
            for (int t = 0; t < 300; t++) {
                double x = r + 8 + rng.nextDouble() * (frame.width() - 2 * r - 16), y = r + 8 + rng.nextDouble() * (frame.height() - 2 * r - 16);
                Track track = new Track(light ? "lamp" : s.shape(), s.color(), rgb(s.color()), light, r, light ? 0 : rotation(),
                        x, y, x, y, appears, lit);
                if (fits(track)) {
                    tracks.add(track);
                    return track;
                }
            }
            return null;
        }

        /** A shape moving {@code dir} over {@code fraction} of the frame's width (left, right) or height (up, down). */
        Track moving(Spec s, String dir, double r, double fraction) {
            boolean horizontal = dir.equals("left") || dir.equals("right");
            double extent = horizontal ? frame.width() : frame.height(), travel = fraction * (extent - 2 * r - 16);
            for (int t = 0; t < 300; t++) {
                double a = r + 8 + rng.nextDouble() * (extent - 2 * r - 16 - travel), b = a + travel;
                double across = (horizontal ? frame.height() : frame.width()), c = r + 8 + rng.nextDouble() * (across - 2 * r - 16);
                boolean backwards = dir.equals("left") || dir.equals("up");
                double from = backwards ? b : a, to = backwards ? a : b;
                Track track = horizontal
                        ? new Track(s.shape(), s.color(), rgb(s.color()), false, r, rotation(), from, c, to, c, 0, null)
                        : new Track(s.shape(), s.color(), rgb(s.color()), false, r, rotation(), c, from, c, to, 0, null);
                if (fits(track)) {
                    tracks.add(track);
                    return track;
                }
            }
            return null;
        }

        private boolean fits(Track t) {
            double gap = hard() ? 4 : 10;
            for (Track o : tracks) {
                if (segmentDistance(t.x0(), t.y0(), t.x1(), t.y1(), o.x0(), o.y0(), o.x1(), o.y1()) < t.radius() + o.radius() + gap) return false;
            }
            return true;
        }
    }

    /** The smallest distance between segments (a→b) and (c→d); a point is a segment of length 0. */
    static double segmentDistance(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy) {
        if (segmentsCross(ax, ay, bx, by, cx, cy, dx, dy)) return 0;
        return Math.min(Math.min(pointToSegment(ax, ay, cx, cy, dx, dy), pointToSegment(bx, by, cx, cy, dx, dy)),
                Math.min(pointToSegment(cx, cy, ax, ay, bx, by), pointToSegment(dx, dy, ax, ay, bx, by)));
    }

    private static double pointToSegment(double px, double py, double ax, double ay, double bx, double by) {
        double vx = bx - ax, vy = by - ay, len2 = vx * vx + vy * vy;
        double t = len2 == 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / len2));
        return Math.hypot(px - (ax + t * vx), py - (ay + t * vy));
    }

    private static boolean segmentsCross(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy) {
        double d1 = cross(cx, cy, dx, dy, ax, ay), d2 = cross(cx, cy, dx, dy, bx, by);
        double d3 = cross(ax, ay, bx, by, cx, cy), d4 = cross(ax, ay, bx, by, dx, dy);
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
    }

    private static double cross(double ax, double ay, double bx, double by, double px, double py) {
        return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
    }
}
