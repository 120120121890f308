package dev.gamagent.bench;

import java.util.List;

/**
 * Exact ground truth of one generated video: its size, background, timing and every object drawn, with
 * where it is in each frame, from which step on it is visible and, for lights, in which steps it is lit.
 * Time runs in {@code steps} equal steps of {@code framesPerStep} frames each; motion is smooth over the
 * frames, appearances and light changes happen at step boundaries. Kept for tests and analysis; models
 * never see it.
 */
public record VideoTruth(int width, int height, int background, int steps, int framesPerStep, double fps, List<Track> tracks) {
    public VideoTruth {
        tracks = List.copyOf(tracks);
        if (steps < 2 || framesPerStep < 1) throw new IllegalArgumentException("a video needs 2 steps or more of 1 frame or more");
    }

    public int frames() { return steps * framesPerStep; }

    /** The step frame {@code f} belongs to. */
    public int step(int frame) { return frame / framesPerStep; }

    /**
     * One object: a shape of a named colour drawn in {@code rgb} (a light is a lamp: a disc ringed in its colour,
     * filled with it when lit and dark when not), circumradius and rotation in pixels/radians, its centre moving in a straight line
     * from (x0, y0) at the first frame to (x1, y1) at the last, visible from step {@code appears} on;
     * {@code lit} holds a light's state per step (null for shapes).
     */
    public record Track(String shape, String color, int rgb, boolean light, double radius, double rotation,
                        double x0, double y0, double x1, double y1, int appears, List<Boolean> lit) {
        public Track {
            lit = lit == null ? null : List.copyOf(lit);
        }

        public String name() { return color + " " + (light ? "light" : shape); }

        public boolean moves() { return x0 != x1 || y0 != y1; }

        /** Centre x at frame {@code f} of {@code frames}. */
        public double x(int f, int frames) { return x0 + (x1 - x0) * f / Math.max(1, frames - 1); }

        public double y(int f, int frames) { return y0 + (y1 - y0) * f / Math.max(1, frames - 1); }

        public boolean visibleAt(int step) { return step >= appears; }

        public boolean litAt(int step) { return lit != null && lit.get(step); }

        /** Off→on changes of a light over the steps: how many times it blinks (it starts off). */
        public int blinks() {
            if (lit == null) return 0;
            int n = 0;
            for (int s = 0; s < lit.size(); s++) if (lit.get(s) && (s == 0 || !lit.get(s - 1))) n++;
            return n;
        }
    }
}
