package dev.gamagent.testing;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Tiny videos made by tests with the real ffmpeg: every frame a flat colour that encodes its number (red
 * and green levels 8 apart), so a decoded frame tells which frame it is. The decoding tests need ffmpeg and fail, not skip, without it
 * ({@code ./test} installs Debian's ffmpeg).
 */
public final class TestVideos {
    /** Colour levels step by this much per frame: a decoded JPEG frame is within a few levels of its own. */
    public static final int STEP = 8;

    private TestVideos() { }

    /** The containers and codecs the tests cover. */
    public enum Kind {
        MP4_H264("mp4", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", "-bf", "2"),
        WEBM_VP9("webm", "-c:v", "libvpx-vp9", "-lossless", "1"),
        AVI_MPEG4("avi", "-c:v", "mpeg4", "-q:v", "1"),
        /** A palette made from the frames themselves, so every frame colour survives (ffmpeg's default palette would merge them). */
        GIF("gif", "-filter_complex", "[0:v]split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse=dither=none");

        final String extension;
        final List<String> args;

        Kind(String extension, String... args) {
            this.extension = extension;
            this.args = List.of(args);
        }

        public String extension() { return extension; }
    }

    /** ffmpeg's path; fails the test with what to install when it is missing. */
    public static Path ffmpeg() { return tool("ffmpeg"); }

    public static Path ffprobe() { return tool("ffprobe"); }

    private static Path tool(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (d.isBlank()) continue;
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) return p;
        }
        return fail(name + " is needed for the video-decoding tests and is not on PATH: install ffmpeg "
                + "(apt-get install ffmpeg; ./test installs it)");
    }

    /** Frame {@code n} (0 ≤ n < 1024): flat red 4 + STEP·(n mod 32), green 4 + STEP·(n div 32), blue 128. */
    public static BufferedImage frame(int n, int width, int height) {
        if (n < 0 || n >= 1024) throw new IllegalArgumentException("frame numbers go up to 1023, got " + n);
        int rgb = ((4 + STEP * (n % 32)) << 16) | ((4 + STEP * (n / 32)) << 8) | 128;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) for (int x = 0; x < width; x++) img.setRGB(x, y, rgb);
        return img;
    }

    /** Which frame a decoded frame is, read from its centre pixel. */
    public static int number(BufferedImage img) {
        int rgb = img.getRGB(img.getWidth() / 2, img.getHeight() / 2);
        int r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF;
        return Math.round((r - 4) / (float) STEP) + 32 * Math.round((g - 4) / (float) STEP);
    }

    /** A directory of {@code count} PNG frames named {@code prefix + number (from first, zero-padded) + .png}. */
    public static Path frameDir(Path dir, int count, int first, String format) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < count; i++) {
            String name = String.format(Locale.ROOT, format, first + i);
            ImageIO.write(frame(i, 32, 24), name.endsWith(".png") ? "png" : "jpg", dir.resolve(name).toFile());
        }
        return dir;
    }

    /** The bytes of each video made in this JVM, by kind, frame count and rate: ffmpeg encodes each once. */
    private static final Map<String, byte[]> MADE = new ConcurrentHashMap<>();

    /**
     * A video of {@code count} numbered frames ({@link #frame}) at {@code fps}, encoded by ffmpeg as {@code kind}: the
     * first time in this JVM, then written from that encoding's bytes (each ffmpeg run costs a fifth of a second of CPU).
     */
    public static Path make(Path file, Kind kind, int count, int fps) throws IOException, InterruptedException {
        String key = kind + "/" + count + "/" + fps;
        byte[] made = MADE.get(key);
        if (made == null) {
            encode(file, kind, count, fps);
            MADE.putIfAbsent(key, Files.readAllBytes(file));
        } else {
            Files.write(file, made);
        }
        return file;
    }

    private static void encode(Path file, Kind kind, int count, int fps) throws IOException, InterruptedException {
        Path frames = Files.createTempDirectory(file.toAbsolutePath().getParent(), "frames-");
        for (int i = 0; i < count; i++) ImageIO.write(frame(i, 32, 24), "png", frames.resolve(String.format(Locale.ROOT, "f%04d.png", i)).toFile());
        List<String> cmd = new ArrayList<>(List.of(ffmpeg().toString(), "-nostdin", "-v", "error", "-y", "-framerate", Integer.toString(fps),
                "-i", frames.resolve("f%04d.png").toString()));
        cmd.addAll(kind.args);
        cmd.add(file.toString());
        run(cmd);
        try (var s = Files.list(frames)) {
            for (Path p : s.toList()) Files.delete(p);
        }
        Files.delete(frames);
    }

    /** Runs a command and asserts it succeeds; returns its output. */
    public static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s did not finish", cmd).isTrue();
        assertThat(p.exitValue()).as("%s: %s", cmd, log).isZero();
        return log;
    }

    /**
     * A directory holding {@code ffmpeg} and {@code ffprobe} scripts that append their name to {@code calls.log}
     * in it and run the real tools: a search path that shows how often a decoder ran.
     */
    public static Path countingTools(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Path real : List.of(ffmpeg(), ffprobe())) {
            String name = real.getFileName().toString();
            Path script = dir.resolve(name);
            Files.writeString(script, "#!/bin/sh\necho " + name + " >> '" + dir.resolve("calls.log") + "'\nexec '" + real + "' \"$@\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return dir;
    }

    /** The tool names a {@link #countingTools} directory has logged, in order. */
    public static List<String> calls(Path toolDir) throws IOException {
        Path log = toolDir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }
}
