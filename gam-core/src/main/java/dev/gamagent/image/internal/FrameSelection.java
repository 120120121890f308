package dev.gamagent.image.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Which frames of a video to take: {@code frames} frames spread uniformly over the video, or (with
 * {@code fps} &gt; 0) frames at that rate; optionally only those between {@code start} and {@code end}
 * seconds. The index formulas are VLMEvalKit's, so a video gives the frames VLMEvalKit's MVBench gives
 * (vlmeval/dataset/mvbench.py at e8e78f05): {@code get_index} (the middle of each of N equal segments
 * between the bounds, Python's round-half-even) and {@code get_index_by_fps}.
 *
 * @param frames      how many frames (uniform sampling); 0 with a rate
 * @param fps         frames per second of video to take, or 0 for uniform sampling
 * @param start       first second to sample from, or null for the start of the video
 * @param end         last second to sample from, or null for the end of the video
 * @param keepRepeats keep an index that comes twice (VLMEvalKit does, when a video has fewer frames than
 *                    asked); false drops the repeat, so a short video gives fewer frames
 * @param folderFps   the frame rate of a directory of frames (seconds → frame numbers); VLMEvalKit's
 *                    MVBench frame folders are at 3 fps
 * @param folderFirst the number of a frame directory's first frame in the index formulas (MVBench's frame
 *                    folders count from 1, {@code 00001.jpg}; video frames count from 0)
 */
public record FrameSelection(int frames, double fps, Double start, Double end, boolean keepRepeats,
                             double folderFps, int folderFirst) {
    /** Frames per second of a directory of frames unless told otherwise: VLMEvalKit's {@code frame_fps} for MVBench. */
    public static final double DEFAULT_FOLDER_FPS = 3.0;
    /** VLMEvalKit's get_index without bounds: start −100000 s, end 100000 s. */
    private static final double UNBOUNDED = 100_000;

    public FrameSelection {
        if (fps > 0 && frames != 0) throw new IllegalArgumentException("give a frame count or a frame rate, not both (frames " + frames + ", fps " + fps + ")");
        if (!(fps > 0) && frames < 1) throw new IllegalArgumentException("--frames must be at least 1, got " + frames);
        if (Double.isNaN(fps) || fps < 0) throw new IllegalArgumentException("fps must be positive, got " + fps);
        if (start != null && !Double.isFinite(start)) throw new IllegalArgumentException("start must be a number of seconds, got " + start);
        if (end != null && !Double.isFinite(end)) throw new IllegalArgumentException("end must be a number of seconds, got " + end);
        if (start != null && end != null && end < start) {
            throw new IllegalArgumentException("the end (" + end + " s) comes before the start (" + start + " s)");
        }
        if (!(folderFps > 0)) throw new IllegalArgumentException("a frame directory's frame rate must be positive, got " + folderFps);
        if (folderFirst < 0) throw new IllegalArgumentException("a frame directory's first frame number must be 0 or more, got " + folderFirst);
    }

    /** {@code n} frames spread uniformly over the whole video, no frame twice. */
    public static FrameSelection uniform(int n) { return new FrameSelection(n, 0, null, null, false, DEFAULT_FOLDER_FPS, 0); }

    /** One frame every 1/{@code fps} seconds over the whole video. */
    public static FrameSelection rate(double fps) {
        if (!(fps > 0) || !Double.isFinite(fps)) throw new IllegalArgumentException("fps must be positive, got " + fps);
        return new FrameSelection(0, fps, null, null, false, DEFAULT_FOLDER_FPS, 0);
    }

    /** This selection between {@code start} and {@code end} seconds (either may be null: that end of the video). */
    public FrameSelection within(Double start, Double end) { return new FrameSelection(frames, fps, start, end, keepRepeats, folderFps, folderFirst); }

    /** This selection, keeping an index that comes twice (VLMEvalKit's behaviour). */
    public FrameSelection keepingRepeats() { return new FrameSelection(frames, fps, start, end, true, folderFps, folderFirst); }

    /** This selection, reading a frame directory as {@code fps} frames per second numbered from {@code first}. */
    public FrameSelection folder(double fps, int first) { return new FrameSelection(frames, this.fps, start, end, keepRepeats, fps, first); }

    public boolean bounded() { return start != null || end != null; }

    /**
     * The frame numbers to take from a video whose frames are numbered {@code first..last} at {@code videoFps}.
     * Uniform: VLMEvalKit's {@code get_index(bound, fps, max_frame=last, first_idx=first)}; by rate:
     * {@code get_index_by_fps} (frames {@code int(i·videoFps/fps)} for i below {@code int(count/videoFps·fps)}),
     * within the bounds when there are any. Indices that fall outside first..last are clamped to it.
     *
     * @throws IllegalArgumentException when the bounds leave no frame of the video
     */
    public List<Integer> indices(int first, int last, double videoFps) {
        if (last < first) throw new IllegalArgumentException("the video has no frames");
        if (bounded() && !(videoFps > 0)) throw new IllegalArgumentException("the video's frame rate is unknown, so its seconds cannot be found");
        double s = start == null ? -UNBOUNDED : start, e = end == null ? UNBOUNDED : end;
        // without bounds VLMEvalKit's ±100000 s clamp to the first and last frame; a rate of 0 would make them NaN
        int startIdx = bounded() ? (int) Math.max(first, Math.rint(s * videoFps)) : first;
        int endIdx = bounded() ? (int) Math.min(Math.rint(e * videoFps), last) : last;
        if (endIdx < startIdx) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "the bounds %s–%s s hold no frame of the video (frames %d–%d at %.3f fps)",
                    start == null ? "start" : trim(start), end == null ? "end" : trim(end), first, last, videoFps));
        }
        List<Integer> out = new ArrayList<>();
        if (fps > 0) {
            if (!(videoFps > 0)) throw new IllegalArgumentException("the video's frame rate is unknown, so frames at " + trim(fps) + " fps cannot be found");
            int count = endIdx - startIdx + 1;
            double duration = count / videoFps;
            int required = (int) (duration * fps);
            double step = videoFps / fps;
            for (int i = 0; i < required; i++) out.add(startIdx + (int) (i * step));
            if (out.isEmpty()) out.add(startIdx); // a clip shorter than one period still shows its first frame
        } else {
            double seg = (double) (endIdx - startIdx) / frames;
            for (int i = 0; i < frames; i++) out.add((int) (startIdx + seg / 2 + Math.rint(seg * i)));
        }
        List<Integer> clamped = out.stream().map(i -> Math.max(first, Math.min(last, i))).toList();
        return keepRepeats ? clamped : List.copyOf(new LinkedHashSet<>(clamped));
    }

    /** A file-name-safe key of what this selection takes, for caches: "n8", "n8_s11.1_e19.6", "fps1_r". */
    public String key() {
        StringBuilder sb = new StringBuilder(fps > 0 ? "fps" + trim(fps) : "n" + frames);
        if (start != null) sb.append("_s").append(trim(start));
        if (end != null) sb.append("_e").append(trim(end));
        if (keepRepeats) sb.append("_r");
        return sb.toString();
    }

    @Override public String toString() {
        String what = fps > 0 ? trim(fps) + " frames per second" : frames + " frames";
        return bounded() ? what + " between " + (start == null ? "the start" : trim(start) + " s") + " and "
                + (end == null ? "the end" : trim(end) + " s") : what;
    }

    private static String trim(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
