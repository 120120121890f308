package dev.gamagent.image.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import dev.gamagent.util.NaturalOrder;

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
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;

/**
 * A video as a list of frames (the question's images, in time order): a directory of frame images, or a
 * video file (mp4, webm, avi, animated gif, anything ffmpeg reads) decoded with {@code ffmpeg}, which runs
 * as a subprocess and streams the video from disk: only the chosen frames are ever written, and only they
 * are read back, as their JPEG bytes (pixels are decoded later, and only if something needs them).
 * Which frames: a {@link FrameSelection} (N frames spread uniformly, VLMEvalKit's formula; optionally
 * between two seconds, or at a frame rate). Decoded frames are kept in a {@link FrameCache} on disk, so a
 * video is decoded once; a cache hit reads no more than the file (to hash it) and the frames. Two threads
 * asking for the same video wait for one decode.
 */
public final class VideoFrames {
    private static final long TIMEOUT_SECONDS = 300;
    /** File-name extensions read as video files (anything else that is not a directory is tried too). */
    public static final List<String> VIDEO_EXTENSIONS = List.of("mp4", "m4v", "mov", "webm", "mkv", "avi", "gif", "mpg", "mpeg",
            "wmv", "flv", "3gp", "ts");
    /** What to do when ffmpeg is missing: one line. */
    public static final String INSTALL = "install ffmpeg (apt-get install ffmpeg, brew install ffmpeg, winget install ffmpeg; "
            + "./test installs it on Debian)";

    private final String searchPath;
    private final ImageLoader loader;
    private final FrameCache cache;
    private final Object[] stripes = new Object[64];
    /** Whether this ffmpeg takes {@code -fps_mode} (5.1 and later) rather than only {@code -vsync}; null until known. */
    private volatile Boolean fpsModeOption;

    /** @param searchPath where to look for ffmpeg/ffprobe, in the format of the PATH variable */
    public VideoFrames(String searchPath, ImageLoader loader) { this(searchPath, loader, new FrameCache(FrameCache.defaultRoot())); }

    public VideoFrames(String searchPath, ImageLoader loader, FrameCache cache) {
        this.searchPath = searchPath == null ? "" : searchPath;
        this.loader = loader;
        this.cache = cache;
        for (int i = 0; i < stripes.length; i++) stripes[i] = new Object();
    }

    /** Frames from a directory of images or a video file, with ffmpeg looked up on PATH and the default cache. */
    public static List<Picture> load(Path source, int frames) {
        return new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS)).frames(source, frames);
    }

    public FrameCache cache() { return cache; }

    /** {@code frames} frames spread uniformly over the video (fewer when it has fewer). */
    public List<Picture> frames(Path source, int frames) { return frames(source, FrameSelection.uniform(frames)); }

    /** The frames {@code selection} names, in time order; errors name the file and what is wrong. */
    public List<Picture> frames(Path source, FrameSelection selection) {
        check(source);
        return Files.isDirectory(source) ? fromDirectory(source, selection) : fromVideo(source, selection);
    }

    /**
     * Checks without decoding that {@code source} can be read as a video: a directory holding frame images, or a
     * non-empty file with ffmpeg installed to decode it. Cheap enough to run for every benchmark row at load.
     */
    public void check(Path source) {
        if (source == null || !Files.exists(source)) throw new ImageException(source + ": no such video file or frame directory");
        if (Files.isDirectory(source)) {
            frameFiles(source);
            return;
        }
        if (!Files.isReadable(source)) throw new ImageException(source + ": not readable; check its permissions");
        try {
            if (Files.size(source) == 0) throw new ImageException(source + ": empty file, not a video");
        } catch (IOException e) {
            throw new ImageException(source + ": cannot be read (" + e.getMessage() + ")", e);
        }
        requireDecoder(source);
    }

    /** Whether ffmpeg and ffprobe are on the search path. */
    public boolean decoderAvailable() { return find("ffmpeg").isPresent() && find("ffprobe").isPresent(); }

    /** Throws the one-line "install ffmpeg" error, naming {@code video}, when the decoder is missing. */
    public void requireDecoder(Path video) {
        if (decoderAvailable()) return;
        String missing = find("ffmpeg").isEmpty() ? "ffmpeg" : "ffprobe";
        throw new ImageException(video + ": decoding a video file needs " + missing + ", which is not on PATH; " + INSTALL
                + ", or pass a directory of frame images instead");
    }

    /** Whether the file name ends like a video file's (mp4, webm, avi, gif, ...). */
    public static boolean isVideoFileName(String name) {
        int dot = name.lastIndexOf('.');
        return dot >= 0 && VIDEO_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    // ---- frame directories ------------------------------------------------------------------------------

    private List<Picture> fromDirectory(Path dir, FrameSelection selection) {
        List<Path> files = frameFiles(dir);
        int first = selection.folderFirst();
        List<Integer> picks;
        try {
            picks = selection.indices(first, first + files.size() - 1, selection.folderFps());
        } catch (IllegalArgumentException e) {
            throw new ImageException(dir + ": " + e.getMessage() + "; " + files.size() + " frames at " + selection.folderFps() + " fps", e);
        }
        List<Picture> out = new ArrayList<>();
        for (int i : picks) {
            Path f = files.get(i - first);
            out.add(read(f, dir.getFileName() + "/" + f.getFileName()));
        }
        return out;
    }

    /** The directory's image files in natural name order ("frame2" before "frame10"). */
    private static List<Path> frameFiles(Path dir) {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> ImageLoader.hasImageExtension(p.getFileName().toString()))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString(), VideoFrames::compareNatural))
                    .toList();
        } catch (IOException e) {
            throw new ImageException(dir + ": cannot list the frame directory (" + e.getMessage() + ")", e);
        }
        if (files.isEmpty()) {
            throw new ImageException(dir + ": no frame images in this directory (expected files ending in "
                    + String.join(", ", ImageLoader.extensions()) + ")");
        }
        return files;
    }

    private Picture read(Path file, String name) {
        try {
            return loader.encoded(name, Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    // ---- video files -------------------------------------------------------------------------------------

    private List<Picture> fromVideo(Path video, FrameSelection selection) {
        Path ffmpeg = find("ffmpeg").orElseThrow();
        Path ffprobe = find("ffprobe").orElseThrow();
        String hash = cache.hash(video);
        List<Integer> picks;
        double fps;
        synchronized (stripes[Math.floorMod(hash.hashCode(), stripes.length)]) {
            VideoInfo info = cache.info(hash).orElse(null);
            if (info == null) {
                info = probe(ffprobe, video);
                cache.putInfo(hash, info);
            }
            picks = indices(video, info, selection);
            int produced = decodeMissing(ffmpeg, video, hash, picks);
            if (produced < 0) {
                // the container lists more frames than decode: count the decodable ones and choose again
                int decodable = countDecodable(ffprobe, video);
                if (decodable >= info.frames() || decodable == 0) {
                    throw new ImageException(video + ": ffmpeg decoded fewer frames than the file lists (" + info.frames()
                            + "); the file is damaged; re-encode or re-download it");
                }
                info = info.withFrames(decodable);
                cache.putInfo(hash, info);
                picks = indices(video, info, selection);
                if (decodeMissing(ffmpeg, video, hash, picks) < 0) {
                    throw new ImageException(video + ": ffmpeg decoded fewer frames than it counted (" + decodable + "); the file is damaged");
                }
            }
            fps = info.fps();
        }
        String name = video.getFileName().toString();
        List<Picture> out = new ArrayList<>(picks.size());
        for (int i : picks) out.add(read(cache.frame(hash, i), name + "#frame-" + i + time(i, fps)));
        return out;
    }

    /**
     * A frame's time in its name, {@code @<seconds>s} (frame number / fps, to the millisecond: {@code clip.mp4#frame-45@1.5s}),
     * which GAM's prompts and the trace viewer show beside the frame; "" when the frame rate is unknown.
     */
    static String time(int frame, double fps) {
        if (!(fps > 0)) return "";
        return "@" + java.math.BigDecimal.valueOf(Math.round(frame / fps * 1000) / 1000.0).stripTrailingZeros().toPlainString() + "s";
    }

    private static List<Integer> indices(Path video, VideoInfo info, FrameSelection selection) {
        if (info.frames() == 0) throw new ImageException(video + ": the video stream holds no frames");
        try {
            return selection.indices(0, info.frames() - 1, info.fps());
        } catch (IllegalArgumentException e) {
            throw new ImageException(video + ": " + e.getMessage(), e);
        }
    }

    /** What ffprobe reads from the container (packets counted, nothing decoded). */
    public VideoInfo probe(Path video) {
        check(video);
        if (Files.isDirectory(video)) throw new ImageException(video + ": a directory of frames has no video stream to probe");
        return probe(find("ffprobe").orElseThrow(), video);
    }

    private VideoInfo probe(Path ffprobe, Path video) {
        String out = run(List.of(ffprobe.toString(), "-v", "error", "-select_streams", "v:0", "-count_packets",
                "-show_entries", "stream=codec_name,width,height,avg_frame_rate,r_frame_rate,nb_read_packets",
                "-show_entries", "format=format_name", "-of", "json", input(video)), video, "ffprobe cannot read it as a video");
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(out);
        } catch (IOException e) {
            throw new ImageException(video + ": ffprobe's output is not JSON (" + e.getMessage() + ")", e);
        }
        JsonNode stream = root.path("streams").path(0);
        String format = root.path("format").path("format_name").asText("unknown");
        if (stream.isMissingNode()) throw new ImageException(video + ": no video stream in it (ffprobe reads it as " + format + ")");
        double fps = rate(stream.path("avg_frame_rate").asText(""));
        if (!(fps > 0)) fps = rate(stream.path("r_frame_rate").asText(""));
        return new VideoInfo(stream.path("nb_read_packets").asInt(0), fps, stream.path("width").asInt(0), stream.path("height").asInt(0),
                stream.path("codec_name").asText(""), format);
    }

    /** "30000/1001" → 29.97; 0 when unknown ("0/0"). */
    static double rate(String r) {
        try {
            int slash = r.indexOf('/');
            if (slash < 0) return Double.parseDouble(r);
            double den = Double.parseDouble(r.substring(slash + 1));
            return den == 0 ? 0 : Double.parseDouble(r.substring(0, slash)) / den;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Frames that actually decode (the whole video is decoded once; used only when packets overstate them). */
    private int countDecodable(Path ffprobe, Path video) {
        String out = run(List.of(ffprobe.toString(), "-v", "error", "-select_streams", "v:0", "-count_frames",
                "-show_entries", "stream=nb_read_frames", "-of", "default=noprint_wrappers=1:nokey=1", input(video)),
                video, "ffprobe cannot count its frames").strip();
        try {
            return Integer.parseInt(out.lines().findFirst().orElse("0").strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Decodes the frames of {@code picks} not yet in the cache: one ffmpeg pass that keeps only the frames whose
     * number is wanted and stops after the last. Returns how many were decoded, or -1 when the video ran out
     * of frames first (the frames it did give are kept: ffmpeg emits them in order).
     */
    private int decodeMissing(Path ffmpeg, Path video, String hash, List<Integer> picks) {
        TreeSet<Integer> missing = new TreeSet<>();
        for (int i : picks) if (!Files.isRegularFile(cache.frame(hash, i))) missing.add(i);
        if (missing.isEmpty()) return 0;
        Path work = cache.workDir(hash);
        try {
            StringBuilder terms = new StringBuilder();
            for (int i : missing) terms.append(terms.length() > 0 ? "+" : "").append("eq(n,").append(i).append(')');
            String select = "select='" + terms + "'";
            Path script = work.resolve("select.txt");
            Files.writeString(script, select);
            List<String> cmd = new ArrayList<>(List.of(ffmpeg.toString(), "-nostdin", "-v", "error", "-i", input(video),
                    "-map", "0:v:0", "-filter_script:v", script.toAbsolutePath().toString()));
            int at = cmd.size();
            cmd.addAll(List.of("-frames:v", Integer.toString(missing.size()), "-q:v", "2", "-start_number", "0",
                    work.resolve("out-%08d.jpg").toAbsolutePath().toString()));
            runFfmpeg(cmd, at, video);
            List<Path> outs;
            try (Stream<Path> s = Files.list(work)) {
                outs = s.filter(p -> p.getFileName().toString().startsWith("out-")).sorted().toList();
            }
            // ffmpeg emits the selected frames in order: the k-th file is the k-th smallest missing number
            List<Integer> wanted = new ArrayList<>(missing);
            for (int k = 0; k < outs.size() && k < wanted.size(); k++) cache.store(outs.get(k), hash, wanted.get(k));
            return outs.size() < wanted.size() ? -1 : outs.size();
        } catch (IOException e) {
            throw new ImageException("cannot write to the frame cache " + cache.root() + " (" + e.getMessage() + ")", e);
        } finally {
            deleteTree(work);
        }
    }

    /**
     * A video as ffmpeg and ffprobe are given it: its absolute path behind the {@code file:} protocol, so that no file name
     * is read as an option ({@code -report} made ffprobe write a log into the working directory) or as another protocol
     * ({@code concat:a|b}, {@code http:x}).
     */
    static String input(Path video) { return "file:" + video.toAbsolutePath(); }

    /** Runs ffmpeg with the option that passes selected frames through unduplicated: -fps_mode (5.1+), else -vsync. */
    private void runFfmpeg(List<String> cmd, int at, Path video) {
        Boolean known = fpsModeOption;
        if (known == null || known) {
            List<String> withFpsMode = new ArrayList<>(cmd);
            withFpsMode.addAll(at, List.of("-fps_mode", "passthrough"));
            try {
                run(withFpsMode, video, "ffmpeg cannot decode it");
                fpsModeOption = true;
                return;
            } catch (ImageException e) {
                if (known != null || !e.getMessage().contains("fps_mode")) throw e;
                fpsModeOption = false; // an ffmpeg older than 5.1
            }
        }
        List<String> withVsync = new ArrayList<>(cmd);
        withVsync.addAll(at, List.of("-vsync", "passthrough"));
        run(withVsync, video, "ffmpeg cannot decode it");
    }

    /** Runs a tool; returns its standard output, or throws naming the video with the tool's error lines. */
    private static String run(List<String> cmd, Path video, String failure) {
        Process p = null;
        String tool = Path.of(cmd.get(0)).getFileName().toString();
        try {
            p = new ProcessBuilder(cmd).start();
            // both streams drained on their own threads, so a tool that hangs with them open still times out
            CompletableFuture<byte[]> out = drain(p.getInputStream()), err = drain(p.getErrorStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new ImageException(video + ": " + tool + " took longer than " + TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new ImageException(video + ": " + failure + " (" + tool + " exit " + p.exitValue() + ": " + oneLine(text(err)) + ")");
            }
            return text(out);
        } catch (IOException e) {
            throw new ImageException(video + ": cannot run " + cmd.get(0) + " (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImageException(video + ": interrupted while decoding frames", e);
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
        }
    }

    private static CompletableFuture<byte[]> drain(java.io.InputStream in) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                f.complete(in.readAllBytes());
            } catch (IOException e) {
                f.completeExceptionally(e);
            }
        }, "gam-video-tool-output");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static String text(CompletableFuture<byte[]> f) {
        try {
            return new String(f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        } catch (ExecutionException | TimeoutException e) {
            return "(its output could not be read: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** A tool's error lines as one line, without ffmpeg's "[h264 @ 0x55d...]" prefixes, at most 400 characters. */
    static String oneLine(String s) {
        String joined = String.join("; ", s.strip().lines().map(l -> l.replaceFirst("^\\[[^]]* @ 0x[0-9a-f]+\\] ", "").strip())
                .filter(l -> !l.isEmpty()).distinct().toList());
        return joined.isEmpty() ? "no message" : abbreviate(joined);
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

    /** Orders "frame2" before "frame10" ({@link NaturalOrder}); names equal there ("f01", "f1") in text order. */
    static int compareNatural(String a, String b) {
        int c = NaturalOrder.compare(a, b);
        return c != 0 ? c : a.compareTo(b);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover work directory is harmless
        }
    }

    private static String abbreviate(String s) { return s.length() > 400 ? s.substring(0, 400) + "..." : s; }
}
