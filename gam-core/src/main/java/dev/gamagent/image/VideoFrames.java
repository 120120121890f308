package dev.gamagent.image;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A video as a list of frames (the question's images, in time order): either a directory of frame
 * images, or a video file decoded with {@code ffmpeg}. Frames are sampled uniformly to at most
 * {@code maxFrames}, taking the middle of each of maxFrames equal segments.
 */
public final class VideoFrames {
    private static final long FFMPEG_TIMEOUT_SECONDS = 300;

    private final String searchPath;
    private final ImageLoader loader;

    /** @param searchPath where to look for ffmpeg/ffprobe, in the format of the PATH variable */
    public VideoFrames(String searchPath, ImageLoader loader) {
        this.searchPath = searchPath == null ? "" : searchPath;
        this.loader = loader;
    }

    /** Frames from a directory of images or a video file, with ffmpeg looked up on PATH. */
    public static List<Picture> load(Path source, int maxFrames) {
        return new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS)).frames(source, maxFrames);
    }

    public List<Picture> frames(Path source, int maxFrames) {
        if (maxFrames < 1) throw new IllegalArgumentException("--frames must be at least 1, got " + maxFrames);
        if (source == null || !Files.exists(source)) throw new ImageException(source + ": no such video file or frame directory");
        return Files.isDirectory(source) ? fromDirectory(source, maxFrames) : fromVideo(source, maxFrames);
    }

    /** Indices of {@code k} frames spread uniformly over {@code n}: the middle of each of k equal segments. */
    public static List<Integer> sample(int n, int k) {
        List<Integer> out = new ArrayList<>();
        if (n <= k) {
            for (int i = 0; i < n; i++) out.add(i);
            return out;
        }
        for (int i = 0; i < k; i++) out.add((int) Math.floor((i + 0.5) * n / k));
        return out;
    }

    private List<Picture> fromDirectory(Path dir, int maxFrames) {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> ImageFormat.hasImageExtension(p.getFileName().toString()))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString(), VideoFrames::compareNatural))
                    .toList();
        } catch (IOException e) {
            throw new ImageException(dir + ": cannot list the frame directory (" + e.getMessage() + ")", e);
        }
        if (files.isEmpty()) {
            throw new ImageException(dir + ": no frame images in this directory (expected files ending in "
                    + String.join(", ", ImageFormat.EXTENSIONS) + ")");
        }
        List<Picture> out = new ArrayList<>();
        List<Integer> picks = sample(files.size(), maxFrames);
        for (int i : picks) {
            Path f = files.get(i);
            Picture p = loader.file(f);
            out.add(new Picture(dir.getFileName() + "/" + p.source(), p.image()));
        }
        return out;
    }

    private List<Picture> fromVideo(Path video, int maxFrames) {
        Path ffmpeg = find("ffmpeg").orElseThrow(() -> new ImageException(video + ": decoding a video file needs ffmpeg, "
                + "which is not on PATH; install it (e.g. apt-get install ffmpeg, brew install ffmpeg) "
                + "or pass a directory of frame images instead"));
        Optional<Path> ffprobe = find("ffprobe");
        Path tmp;
        try {
            tmp = Files.createTempDirectory("gam-frames-");
        } catch (IOException e) {
            throw new ImageException(video + ": cannot create a temporary directory for frames (" + e.getMessage() + ")", e);
        }
        try {
            double duration = ffprobe.map(p -> duration(p, video)).orElse(-1.0);
            List<String> cmd = new ArrayList<>(List.of(ffmpeg.toString(), "-nostdin", "-v", "error", "-i", video.toString()));
            if (duration > 0) {
                // Ask for about 2× the frames we keep, evenly spaced, so short clips still give maxFrames.
                double fps = Math.max(0.01, 2.0 * maxFrames / duration);
                cmd.addAll(List.of("-vf", String.format(Locale.ROOT, "fps=%.6f", fps)));
            }
            cmd.add(tmp.resolve("frame_%06d.png").toString());
            String log = run(cmd, video);
            List<Picture> frames;
            try {
                frames = fromDirectory(tmp, maxFrames);
            } catch (ImageException e) {
                throw new ImageException(video + ": ffmpeg produced no frames; is it a video file? " + log.strip());
            }
            String name = video.getFileName().toString();
            List<Picture> renamed = new ArrayList<>();
            for (Picture p : frames) renamed.add(new Picture(name + "#" + p.source().substring(p.source().indexOf('/') + 1), p.image()));
            return renamed;
        } finally {
            deleteTree(tmp);
        }
    }

    private double duration(Path ffprobe, Path video) {
        try {
            String out = run(List.of(ffprobe.toString(), "-v", "error", "-show_entries", "format=duration",
                    "-of", "default=noprint_wrappers=1:nokey=1", video.toString()), video).strip();
            return Double.parseDouble(out.lines().findFirst().orElse("-1"));
        } catch (NumberFormatException | ImageException e) {
            return -1; // unknown duration: extract every frame and sample afterwards
        }
    }

    private static String run(List<String> cmd, Path video) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(FFMPEG_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new ImageException(video + ": " + Path.of(cmd.get(0)).getFileName() + " took longer than "
                        + FFMPEG_TIMEOUT_SECONDS + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new ImageException(video + ": " + Path.of(cmd.get(0)).getFileName() + " failed (exit " + p.exitValue()
                        + "): " + abbreviate(text.strip()));
            }
            return text;
        } catch (IOException e) {
            throw new ImageException(video + ": cannot run " + cmd.get(0) + " (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImageException(video + ": interrupted while decoding frames", e);
        }
    }

    private Optional<Path> find(String tool) {
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("win");
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isBlank()) continue;
            for (String name : windows ? List.of(tool + ".exe", tool) : List.of(tool)) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Orders "frame2" before "frame10": runs of digits compare as numbers. */
    static int compareNatural(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i), cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", ""), nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) return c;
            } else {
                if (ca != cb) return Character.compare(ca, cb);
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover temp directory is harmless
        }
    }

    private static String abbreviate(String s) { return s.length() > 400 ? s.substring(0, 400) + "..." : s; }
}
