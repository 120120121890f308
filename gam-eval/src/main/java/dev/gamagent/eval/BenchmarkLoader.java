package dev.gamagent.eval;

import dev.gamagent.config.Config;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The one entry point for benchmark data: VLMEvalKit TSV ({@code .tsv}), M3MAD JSON ({@code .json}) and JSONL with
 * the TSV field names ({@code .jsonl}), and directories in a layout a {@link DirectoryLayout} knows.
 *
 * <p>A file is indexed, not held: its first megabyte is checked (a file that is not a benchmark at all is refused
 * in one line naming it and what is wrong), then it is read once from start to end, in chunks, to find each row's
 * byte range and check its text, and hashed on the way ({@link Dataset#sha256()}). Each question keeps only where
 * its row lies; its text is read again and its images decoded when it starts, and dropped when it ends, so memory
 * follows the questions in flight, not the file. Rows that cannot be used are skipped and reported with their
 * index and line; the rest load. A byte that is not UTF-8 skips its row, naming the offset; a row of a
 * multiple-choice file without options is skipped rather than graded as an open question.
 *
 * <p>The three formats share one row pipeline: {@link IndexPass} reads each format's rows into TSV-style fields, where
 * they differ (a TSV line, a JSONL object, an M3MAD record), and from there every row goes the same way: its text
 * through {@link RowFields}, its images through {@link RowImages}, what is kept of it into {@link KeptRows} (a few
 * dozen bytes a row, bounded by {@code --limit} and by half of the heap); {@link BenchmarkFile} reads a row again when
 * its question starts.
 */
public final class BenchmarkLoader {
    /** Frames taken from a row's video when no decoder says otherwise (VLMEvalKit's MVBench_8frame). */
    public static final int DEFAULT_VIDEO_FRAMES = 8;

    /** Which rows to keep: at most {@code limit} (0 = all) rows of {@code category} (null = all). */
    public record Filter(int limit, String category) {
        public static final Filter ALL = new Filter(0, null);

        boolean keeps(Map<String, String> row) { return keepsCategory(RowFields.blankToNull(row.get("category"))); }

        boolean keepsCategory(String rowCategory) {
            return category == null || category.isBlank() || category.equalsIgnoreCase(rowCategory);
        }
    }

    /**
     * How a file's images are checked and decoded: the loader (per-image limit, decode budget, the size kept in
     * memory), the most pixels one question's images may hold together (0 = no limit), how a row's {@code video}
     * becomes frames (null: through {@code videos}), and the videos' settings.
     */
    public record Images(ImageLoader loader, long maxQuestionPixels, String totalSetting, VideoDecoder video, Videos videos) {
        /** The defaults of config section {@code image} (defaults.json), without a decode budget. */
        public static final Images DEFAULT = new Images(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                Math.round(Config.defaults().number("image.max_question_megapixels") * 1e6), "image.max_question_megapixels");

        public Images {
            if (videos == null) videos = Videos.over(loader);
        }

        public Images(ImageLoader loader, long maxQuestionPixels, String totalSetting) {
            this(loader, maxQuestionPixels, totalSetting, null, Videos.over(loader));
        }

        public Images(ImageLoader loader, long maxQuestionPixels, String totalSetting, VideoDecoder video) {
            this(loader, maxQuestionPixels, totalSetting, video, Videos.over(loader));
        }

        /**
         * Limits from config {@code image.max_megapixels} (per image) and {@code image.max_question_megapixels}
         * (all images of one question), decoding within {@code budget} and keeping at most {@code keepPixels}
         * per image (what the backend can use).
         */
        public static Images from(Config config, DecodeBudget budget, long keepPixels) {
            ImageLoader loader = ImageLoader.withMaxMegapixels(config.number("image.max_megapixels"))
                    .withBudget(budget).keepingAtMost(keepPixels);
            double total = config.number("image.max_question_megapixels");
            // a row's video URL follows the policy of remote images (server.allowed_image_hosts, max_body_mb, image_fetch_timeout_s)
            return new Images(loader, total <= 0 ? 0 : Math.round(total * 1e6), "image.max_question_megapixels", null,
                    new Videos(new VideoFrames(System.getenv("PATH"), loader), 0, null, VideoUrls.from(config)));
        }

        /** The same limits with another way of turning a row's video into frames. */
        public Images withVideo(VideoDecoder decoder) { return new Images(loader, maxQuestionPixels, totalSetting, decoder, videos); }

        /** The same limits and the same {@link VideoFrames}, taking {@code count} frames per video (0: the benchmark's default) and reading a layout as {@code dataset} (null: its default). */
        public Images withVideos(int count, String dataset) {
            return new Images(loader, maxQuestionPixels, totalSetting, video, new Videos(videos.frames(), count, dataset, videos.urls()));
        }

        /** The frames of the video a row names: its decoder's, else {@link Videos#count} (default {@value #DEFAULT_VIDEO_FRAMES}) sampled uniformly. */
        List<Picture> frames(String source, Path file, Map<String, String> row) {
            if (video != null) return video.frames(source, file, row, loader);
            return videos.frames().frames(file, videos.countOr(DEFAULT_VIDEO_FRAMES));
        }
    }

    /**
     * How a run's videos become frames: the ONE {@link VideoFrames} every question's video is decoded through (so
     * its on-disk {@link dev.gamagent.image.internal.FrameCache} and its per-video locks are shared by the questions in
     * flight), the frames per video ({@code --frames N}; 0: the benchmark's default, VLMEvalKit's for MVBench), and
     * which of a layout's names a directory is read as (e.g. {@code MVBench_64frame}; null: the layout's default).
     */
    public record Videos(VideoFrames frames, int count, String dataset, VideoUrls urls) {
        public Videos {
            java.util.Objects.requireNonNull(frames, "frames");
            if (count < 0) throw new IllegalArgumentException("frames per video must be positive (or 0 for the benchmark's default), not " + count);
            if (urls == null) urls = VideoUrls.NONE;
        }

        /** Without video URLs from any host. */
        public Videos(VideoFrames frames, int count, String dataset) { this(frames, count, dataset, VideoUrls.NONE); }

        /** The local file a row's {@code video} names: a path relative to the data file, or an allowed URL fetched once ({@link VideoUrls}). */
        Path file(String video, Path baseDir) {
            return VideoUrls.isUrl(video) ? urls.fetch(video, frames.cache().root()) : RowImages.videoFile(video, baseDir);
        }

        /** Videos decoded with ffmpeg from PATH through {@code loader}, into the default frame cache. */
        public static Videos over(ImageLoader loader) { return new Videos(new VideoFrames(System.getenv("PATH"), loader), 0, null); }

        /** {@link #count}, or {@code otherwise} when it is 0. */
        public int countOr(int otherwise) { return count > 0 ? count : otherwise; }
    }

    /**
     * Turns the video a row names (its {@code video} column: a file or a directory of frames, relative to the data
     * file) into the question's frames, when the question starts. The row's other fields are given for decoders
     * that read bounds or a frame rate from them.
     */
    @FunctionalInterface
    public interface VideoDecoder {
        List<Picture> frames(String source, Path video, Map<String, String> row, ImageLoader loader);

        /** {@link #DEFAULT_VIDEO_FRAMES} frames sampled uniformly ({@link VideoFrames}, ffmpeg for video files), a new VideoFrames per call. */
        VideoDecoder FRAMES = (source, video, row, loader) -> new VideoFrames(System.getenv("PATH"), loader).frames(video, DEFAULT_VIDEO_FRAMES);
    }

    /**
     * A directory read as a dataset because it holds a layout the project knows (a benchmark's own download, e.g.
     * MVBench's). Implementations are found with {@link ServiceLoader}; {@code --data DIR} uses the first that
     * {@link #matches} the directory.
     */
    public interface DirectoryLayout {
        /** The benchmark or layout's name, e.g. "MVBench". */
        String name();

        /** What a directory must hold to be this layout, for the message when none matches. */
        String expects();

        boolean matches(Path dir);

        /**
         * What {@code dir} lacks to be this layout, in a few words (e.g. "no json/ folder"), for the message when no
         * layout {@link #matches}; null when it matches, or when the layout says no more than {@link #expects}.
         */
        default String lacks(Path dir) { return null; }

        Dataset load(Path dir, Filter filter, Images images);
    }

    private BenchmarkLoader() { }

    public static Dataset load(Path file) { return load(file, Filter.ALL); }

    /** Loads by file extension; an unreadable file (not a bad row) throws with the file's name. */
    public static Dataset load(Path file, Filter filter) { return load(file, filter, Images.DEFAULT); }

    public static Dataset load(Path file, Filter filter, Images images) { return load(file, filter, images, Progress.NONE); }

    /** Told how far the index pass has read the file: bytes so far, and the file's size. */
    @FunctionalInterface
    public interface Progress {
        void read(long bytes, long size);

        Progress NONE = (bytes, size) -> { };
    }

    /** As {@link #load(Path, Filter, Images)}, telling {@code progress} how far the one read of the file has come. */
    public static Dataset load(Path file, Filter filter, Images images, Progress progress) {
        if (Files.isDirectory(file)) return directory(file, filter, images);
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("benchmark file " + file + " does not exist");
        if (!Files.isReadable(file)) throw new IllegalArgumentException("benchmark file " + file + " is not readable; check its permissions");
        Format format;
        try {
            format = Format.of(file);
        } catch (IllegalArgumentException unknown) {
            String binary = FormatCheck.binary(DataBytes.of(file), file.toString());
            throw binary != null ? new IllegalArgumentException(binary) : unknown; // an image given as --data is said to be one
        }
        DataBytes data = DataBytes.of(file);
        long size = data.size();
        data.onProgress(bytes -> progress.read(bytes, size));
        return IndexPass.index(data, format, file.getFileName().toString(), file.toAbsolutePath().getParent(), filter, images);
    }

    /** The kinds of benchmark file, by extension. */
    enum Format {
        TSV, JSONL, M3MAD;

        static Format of(Path file) {
            String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (lower.endsWith(".jsonl")) return JSONL;
            if (lower.endsWith(".json")) return M3MAD;
            if (lower.endsWith(".tsv")) return TSV;
            throw new IllegalArgumentException("benchmark file " + file + ": unknown format; use .tsv (VLMEvalKit), .json (M3MAD) or .jsonl");
        }
    }

    /** A directory is a dataset only in a layout some {@link DirectoryLayout} reads; otherwise say what it lacks. */
    private static Dataset directory(Path dir, Filter filter, Images images) {
        List<DirectoryLayout> layouts = new ArrayList<>();
        for (DirectoryLayout l : ServiceLoader.load(DirectoryLayout.class, BenchmarkLoader.class.getClassLoader())) layouts.add(l);
        for (DirectoryLayout l : layouts) if (l.matches(dir)) return l.load(dir, filter, images);
        List<String> files = new ArrayList<>();
        int entries = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                entries++;
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if (Files.isRegularFile(p) && (n.endsWith(".tsv") || n.endsWith(".json") || n.endsWith(".jsonl"))) files.add(p.getFileName().toString());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--data " + dir + " is a directory that cannot be listed: " + e.getMessage());
        }
        String known = layouts.isEmpty() ? "none is installed in this build"
                : String.join("; ", layouts.stream().map(l -> {
                    String lacks = l.lacks(dir);
                    return l.name() + ": " + l.expects() + (lacks == null ? "" : "; this directory: " + lacks);
                }).toList());
        String holds = entries == 0 ? "it is empty"
                : files.isEmpty() ? "it holds no .tsv, .json or .jsonl file"
                : "it holds " + String.join(", ", files.subList(0, Math.min(3, files.size()))) + (files.size() > 3 ? " and " + (files.size() - 3)
                + " more" : "") + ": pass one of them, e.g. --data " + dir.resolve(files.get(0));
        throw new IllegalArgumentException("--data " + dir + " is a directory, not a benchmark file, and not in a layout gam reads as a "
                + "dataset (" + known + "); " + holds);
    }

    /** VLMEvalKit TSV text (header row, then one row per question), e.g. a bundled benchmark. */
    public static Dataset fromTsv(String name, String text, Path baseDir, Filter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), Format.TSV, baseDir, filter, Images.DEFAULT);
    }

    /** JSONL text: one JSON object per line with the TSV field names. */
    public static Dataset fromJsonl(String name, String text, Path baseDir, Filter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), Format.JSONL, baseDir, filter, Images.DEFAULT);
    }

    /**
     * M3MAD JSON text: an array (or {@code {"data": [...]}}) of objects with {@code image_path, query, gt, tag,
     * source}. Options are the query's "A. text" lines; {@code tag} becomes the category, {@code source} the l2-category.
     */
    public static Dataset fromM3mad(String name, String text, Path baseDir, Filter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), Format.M3MAD, baseDir, filter, Images.DEFAULT);
    }

    /** A benchmark held in memory, read exactly as a file of that format would be. */
    static Dataset fromBytes(String name, byte[] bytes, Format format, Path baseDir, Filter filter, Images images) {
        return IndexPass.index(DataBytes.of(name, bytes), format, name, baseDir, filter, images);
    }

    /** The first line of a message (a parser's message may go on with a dump of its input). */
    static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /** A row-level problem; the loader records it against the row's index and goes on. */
    static final class BadRowException extends RuntimeException {
        BadRowException(String message) { super(message); }
    }
}
