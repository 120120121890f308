package dev.gamagent.image;

import dev.gamagent.testing.TestVideos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import dev.gamagent.image.internal.FrameCache;
import dev.gamagent.image.internal.FrameSelection;
import dev.gamagent.image.internal.VideoFrames;

/**
 * What decoding a video costs (run by {@code bench/video.sh}, not a test): per container, the time of one full
 * decode of the clip by ffmpeg (the baseline, measured in this run), then {@link VideoFrames} taking 8 frames
 * (first time: one ffmpeg pass that stops after the last chosen frame; again: from the disk cache), 64 frames,
 * and one frame per second, each as a ratio to the baseline; and the bytes the 8 frames hold in memory as a
 * ratio to the clip's decoded pixels.
 */
public final class VideoDecodeBench {
    private VideoDecodeBench() { }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        Path dir = Files.createTempDirectory("gam-video-bench-");
        try {
            System.out.printf(Locale.ROOT, "clip: %d s of 640x360 at 30 fps (ffmpeg testsrc2); times are the median of 3 runs%n%n", seconds);
            System.out.printf(Locale.ROOT, "%-10s %12s %14s %14s %14s %14s %12s%n", "container", "full decode", "8 frames", "8, cached",
                    "64 frames", "1 fps", "8 frames' bytes");
            for (String[] c : List.of(new String[]{"mp4", "-c:v", "libx264", "-pix_fmt", "yuv420p"},
                    new String[]{"webm", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"},
                    new String[]{"avi", "-c:v", "mpeg4", "-q:v", "3"})) {
                Path clip = dir.resolve("clip." + c[0]);
                List<String> make = new ArrayList<>(List.of(TestVideos.ffmpeg().toString(), "-nostdin", "-v", "error", "-y", "-f", "lavfi",
                        "-i", "testsrc2=duration=" + seconds + ":size=640x360:rate=30"));
                make.addAll(List.of(c).subList(1, c.length));
                make.add(clip.toString());
                TestVideos.run(make);
                double full = median(() -> TestVideos.run(List.of(TestVideos.ffmpeg().toString(), "-nostdin", "-v", "error", "-i",
                        clip.toString(), "-f", "null", "-")));
                double[] eight = new double[3];
                for (int r = 0; r < 3; r++) {
                    VideoFrames vf = new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                            new FrameCache(dir.resolve("cache-" + c[0] + "-" + r)));
                    long t0 = System.nanoTime();
                    vf.frames(clip, 8);
                    eight[r] = (System.nanoTime() - t0) / 1e6;
                }
                java.util.Arrays.sort(eight);
                VideoFrames vf = new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                        new FrameCache(dir.resolve("cache-" + c[0] + "-0")));
                double cached = median(() -> vf.frames(clip, 8));
                double sixtyFour = median(() -> new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                        new FrameCache(Files.createTempDirectory(dir, "c64-"))).frames(clip, 64));
                double perSecond = median(() -> new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                        new FrameCache(Files.createTempDirectory(dir, "cfps-"))).frames(clip, FrameSelection.rate(1)));
                long bytes = 0;
                for (Picture p : vf.frames(clip, 8)) bytes += p.encoding().base64().length;
                long pixels = 30L * seconds * 640 * 360 * 3;
                System.out.printf(Locale.ROOT, "%-10s %9.0f ms %7.0f ms %4.2fx %7.0f ms %4.3fx %7.0f ms %4.2fx %7.0f ms %4.2fx %6.0f KB %6.5fx%n",
                        c[0], full, eight[1], eight[1] / full, cached, cached / full, sixtyFour, sixtyFour / full, perSecond, perSecond / full,
                        bytes / 1024.0, (double) bytes / pixels);
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    interface Step { void run() throws Exception; }

    private static double median(Step s) throws Exception {
        double[] t = new double[3];
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            s.run();
            t[i] = (System.nanoTime() - t0) / 1e6;
        }
        java.util.Arrays.sort(t);
        return t[1];
    }
}
