package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.ImageTooLargeException;
import dev.gamagent.image.Picture;
import dev.gamagent.image.VideoFrames;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 */
public final class BenchmarkLoader {
    /** VLMEvalKit: an image value this short names another row's index whose image it reuses. */
    static final int REFERENCE_MAX_LENGTH = 64;
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s*\\(?([A-Z])[.):]\\s+(.+?)\\s*$");
    /** Frames taken from a row's video when no decoder says otherwise (VLMEvalKit's MVBench_8frame). */
    public static final int DEFAULT_VIDEO_FRAMES = 8;

    /** Which rows to keep: at most {@code limit} (0 = all) rows of {@code category} (null = all). */
    public record Filter(int limit, String category) {
        public static final Filter ALL = new Filter(0, null);

        boolean keeps(Map<String, String> row) { return keepsCategory(blankToNull(row.get("category"))); }

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
        /** The defaults of config section {@code image}, without a decode budget. */
        public static final Images DEFAULT = new Images(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                DEFAULT_MAX_QUESTION_PIXELS, "image.max_question_megapixels");

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
            ImageLoader loader = ImageLoader.withMaxMegapixels(config.number("image.max_megapixels", ImageLoader.DEFAULT_MAX_PIXELS / 1e6))
                    .withBudget(budget).keepingAtMost(keepPixels);
            double total = config.number("image.max_question_megapixels", DEFAULT_MAX_QUESTION_PIXELS / 1e6);
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
     * its on-disk {@link dev.gamagent.image.FrameCache} and its per-video locks are shared by the questions in
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
            return VideoUrls.isUrl(video) ? urls.fetch(video, frames.cache().root()) : videoFile(video, baseDir);
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

    /** All images of one question together: a 64-frame video of 1080p frames fits, forty 6000² photos do not. */
    public static final long DEFAULT_MAX_QUESTION_PIXELS = 200_000_000L;

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

    /** The row's options A..Z that are set. */
    static Map<String, String> options(Map<String, String> r) {
        Map<String, String> options = new LinkedHashMap<>();
        for (char c = 'A'; c <= 'Z'; c++) {
            String v = blankToNull(r.get(String.valueOf(c)));
            if (v != null) options.put(String.valueOf(c), v.strip());
        }
        if (options.isEmpty()) {
            // MathVista_MINI keeps its options as a Python list in 'choices' (VLMEvalKit's post_check evals it)
            List<String> choices = PythonList.strings(blankToNull(r.get("choices")));
            for (int i = 0; i < choices.size() && i < 26; i++) options.put(String.valueOf((char) ('A' + i)), choices.get(i).strip());
        }
        return options;
    }

    /**
     * The row's question without images. A row without options whose answer is an option letter, in a
     * file where other rows have options (or whose {@code question_type} says multiple choice), lost its
     * options: it is refused rather than graded as an open question. Open questions mixed into a
     * multiple-choice file (MMMU, MathVista, M3MAD) have other answers, or say {@code question_type: open}.
     */
    static Question toQuestion(String idx, Map<String, String> r, boolean multipleChoiceFile) {
        String text = blankToNull(r.get("question"));
        if (text == null) throw new BadRowException(r.containsKey("question") ? "empty 'question'" : "missing column 'question'");
        Map<String, String> options = options(r);
        String answer = blankToNull(r.get("answer"));
        if (answer == null && !options.isEmpty() && withoutPublicAnswer(r)) {
            // a test split without public answers (MMBench_TEST_*): asked, answered, kept for the submission file, never graded
            return new Question(idx, List.of(), text, blankToNull(r.get("hint")), options, null,
                    blankToNull(r.get("category")), blankToNull(r.getOrDefault("l2-category", r.get("l2_category"))));
        }
        if (answer == null) throw new BadRowException(r.containsKey("answer") ? "empty 'answer'" : "missing column 'answer'");
        answer = answer.strip();
        String type = blankToNull(r.get("question_type"));
        String kind = type == null ? "" : type.strip().toLowerCase(Locale.ROOT);
        boolean declaredChoice = kind.contains("choice");
        boolean declaredOpen = !kind.isEmpty() && !declaredChoice;
        boolean letterAnswer = answer.matches("\\(?[A-Za-z][.)]?");
        if (options.isEmpty() && (declaredChoice || multipleChoiceFile && letterAnswer && !declaredOpen)) {
            throw new BadRowException("no options (columns A, B, ... are empty) but "
                    + (declaredChoice ? "question_type is '" + type.strip() + "'" : "the answer '" + answer + "' names an option "
                    + "and other rows of the file have options")
                    + "; fill in the options, or set question_type to 'open' if it is a free-form question");
        }
        if (!options.isEmpty() && !options.containsKey(answer.toUpperCase(Locale.ROOT))) {
            // M3MAD and some TSVs give the option text instead of the letter
            String letter = null;
            for (var e : options.entrySet()) if (e.getValue().equalsIgnoreCase(answer)) letter = e.getKey();
            if (letter == null) throw new BadRowException("answer '" + answer + "' is neither an option letter nor an option's text");
            answer = letter;
        } else if (!options.isEmpty()) answer = answer.toUpperCase(Locale.ROOT);
        String l2 = blankToNull(r.getOrDefault("l2-category", r.get("l2_category")));
        return new Question(idx, List.of(), text, blankToNull(r.get("hint")), options, answer,
                blankToNull(r.get("category")), l2);
    }

    /**
     * A multiple-choice row of a test split without public answers: the file has no {@code answer} column at all, or
     * the row's {@code split} says {@code test} (VLMEvalKit's MMBench test files). An empty answer elsewhere is a broken row.
     */
    static boolean withoutPublicAnswer(Map<String, String> r) {
        String split = blankToNull(r.get("split"));
        return !r.containsKey("answer") || split != null && split.strip().equalsIgnoreCase("test");
    }

    /** A JSONL line's object as TSV-style fields: text as it is, null as empty, anything else as its JSON. */
    static Map<String, String> jsonlFields(JsonNode node) {
        Map<String, String> m = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                : e.getValue().isNull() ? "" : e.getValue().toString()));
        return m;
    }

    /** An M3MAD record as TSV-style fields: options out of the query's "A. text" lines, tag as category, source as l2-category. */
    static Map<String, String> m3madFields(JsonNode o, String idx) {
        if (!o.isObject()) throw new BadRowException("not a JSON object");
        if (!o.hasNonNull("query")) throw new BadRowException("missing field 'query'");
        Map<String, String> m = new LinkedHashMap<>();
        m.put("index", idx);
        StringBuilder q = new StringBuilder();
        for (String line : o.get("query").asText().split("\r?\n")) {
            Matcher om = OPTION_LINE.matcher(line);
            if (om.matches() && !m.containsKey(om.group(1))) m.put(om.group(1), om.group(2));
            else if (!line.isBlank()) q.append(q.length() > 0 ? "\n" : "").append(line.strip());
        }
        m.put("question", q.toString());
        JsonNode ip = o.get("image_path");
        m.put("image_path", ip == null || ip.isNull() ? "" : ip.isTextual() ? ip.asText() : ip.toString());
        m.put("answer", o.hasNonNull("gt") ? o.get("gt").asText().strip() : "");
        m.put("category", o.hasNonNull("tag") ? o.get("tag").asText() : "");
        m.put("l2-category", o.hasNonNull("source") ? o.get("source").asText() : "");
        return m;
    }

    /** An M3MAD record's index: its {@code id}, else its {@code index}, else its position in the list. */
    static String m3madIndex(JsonNode o, int position) {
        return o.hasNonNull("id") ? o.get("id").asText() : o.hasNonNull("index") ? o.get("index").asText() : Integer.toString(position);
    }

    /**
     * Checks one image cell's text whole (base64, format header, size, end marker; each image of a list) and returns
     * the pixels its images hold together, within the per-question limit.
     */
    static long inspectText(String idx, String cell, Images limits) {
        QuestionPixels total = new QuestionPixels(limits);
        String text = cell.strip();
        List<String> all = text.startsWith("[") ? jsonStrings(text, "image") : List.of(text);
        if (all.isEmpty()) throw new BadRowException("'image' holds an empty list");
        for (int k = 0; k < all.size(); k++) {
            String source = all.size() == 1 ? "row " + idx : "row " + idx + " image " + k;
            total.add(limits.loader().inspect(source, base64(all.get(k), source)));
        }
        return total.pixels();
    }

    /** Base64 decoded to find an image's header: enough for PNG, GIF, BMP, WebP and most JPEGs (a longer start is tried next). */
    private static final int HEADER_BASE64 = 8 * 1024;

    /**
     * Checks one image cell's base64 bytes (not a list): when {@code whole}, the image whole as {@link #inspectText}
     * does; else from its start only, the format and header size against the limits. Returns its pixels, or -1 when
     * the start does not reach the header (the image is checked whole when its question starts).
     */
    static long inspectBytes(String idx, byte[] cell, int length, boolean whole, Images limits) {
        String source = "row " + idx;
        if (whole) {
            int from = 0, to = length;
            while (from < to && Character.isWhitespace(cell[from])) from++;
            while (to > from && Character.isWhitespace(cell[to - 1])) to--;
            byte[] bytes;
            try {
                bytes = Base64.getMimeDecoder().decode(java.util.Arrays.copyOfRange(cell, from, to));
            } catch (IllegalArgumentException e) {
                throw new BadRowException("'image' of " + source + " is not valid base64 (" + e.getMessage() + ")");
            }
            QuestionPixels total = new QuestionPixels(limits);
            total.add(limits.loader().inspect(source, bytes));
            return total.pixels();
        }
        byte[] b64 = new byte[length];
        int n = 0;
        boolean url = false;
        for (int i = 0; i < length; i++) {
            byte c = cell[i];
            if (Character.isWhitespace(c)) continue;
            url |= c == '-' || c == '_';
            b64[n++] = c;
        }
        n -= n % 4;
        ImageLoader.Header h = null;
        for (int take : new int[]{Math.min(n, HEADER_BASE64), n}) {
            byte[] bytes;
            try {
                bytes = (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(java.util.Arrays.copyOf(b64, take));
            } catch (IllegalArgumentException e) {
                throw new BadRowException("'image' of " + source + " is not valid base64 (" + e.getMessage() + ")");
            }
            try {
                h = limits.loader().header(source, bytes);
                break;
            } catch (ImageException e) {
                if (e.getMessage() != null && (e.getMessage().contains("not supported") || e.getMessage().contains("not an image"))) throw e;
                if (take == n) return -1; // the header lies past the start (a large EXIF block): checked when its question starts
            }
        }
        checkSize(source, h, limits.loader());
        QuestionPixels total = new QuestionPixels(limits);
        total.add(h);
        return total.pixels();
    }

    private static void checkSize(String source, ImageLoader.Header h, ImageLoader loader) {
        if (h.width() <= 0 || h.height() <= 0) {
            throw new ImageException(source + ": header says " + h.width() + "x" + h.height() + " pixels; the image is corrupt");
        }
        long max = loader.maxPixels();
        if (max > 0 && h.pixels() > max) {
            throw new ImageTooLargeException(String.format(Locale.ROOT,
                    "%s: %dx%d pixels (%.1f megapixels) is larger than the limit of %.1f megapixels; downscale the image "
                            + "or raise the limit (config image.max_megapixels)", source, h.width(), h.height(), h.pixels() / 1e6, max / 1e6),
                    h.width(), h.height(), max);
        }
    }

    /** The files a row's {@code image_path} names (a directory is a video's frames, in file-name order), each checked. */
    static long inspectPaths(String path, Path baseDir, Images limits) {
        QuestionPixels total = new QuestionPixels(limits);
        for (Path f : imageFiles(path, baseDir)) total.add(limits.loader().inspect(f));
        return total.pixels();
    }

    static List<Path> imageFiles(String path, Path baseDir) {
        String p0 = path.strip();
        List<String> paths = p0.startsWith("[") ? jsonStrings(p0, "image_path") : List.of(p0);
        List<Path> files = new ArrayList<>();
        for (String p : paths) {
            Path f = path(p, baseDir, "image_path");
            if (Files.isDirectory(f)) files.addAll(frames(f));
            else if (!Files.exists(f)) throw new BadRowException("image file " + f + " does not exist");
            else files.add(f);
        }
        return files;
    }

    /** A path a row names, relative to the data file; one the file system cannot name skips the row. */
    private static Path path(String p, Path baseDir, String column) {
        try {
            return baseDir == null ? Path.of(p) : baseDir.resolve(p);
        } catch (java.nio.file.InvalidPathException e) {
            throw new BadRowException("'" + column + "' is not a valid path (" + e.getReason() + ")");
        }
    }

    /** The video file or frame directory a row's {@code video} names, which must exist. */
    static Path videoFile(String video, Path baseDir) {
        Path f = path(video.strip(), baseDir, "video");
        if (!Files.exists(f)) throw new BadRowException("video " + f + " does not exist");
        return f;
    }

    /**
     * A question's images, decoded when it starts: the {@code image} cell's base64 (a list, or a single image;
     * {@code imageCell} is the cell of the row whose image a short value names, null when none), else the files
     * of {@code image_path}, else the frames of {@code video}. PNG and JPEG are kept as their bytes and checked
     * whole, decoded only if something needs their pixels; all images together within the per-question limit.
     */
    static List<Picture> decodeImages(String idx, Map<String, String> r, String referenced, Path baseDir, Images limits) {
        ImageLoader loader = limits.loader();
        List<Picture> pics = new ArrayList<>();
        List<String> all = imageCells(r, referenced);
        if (all != null) {
            if (all.isEmpty()) throw new BadRowException("'image' holds an empty list");
            for (int k = 0; k < all.size(); k++) {
                String source = all.size() == 1 ? "row " + idx : "row " + idx + " image " + k;
                pics.add(loader.encodedBase64(source, all.get(k).strip()));
            }
        } else if (blankToNull(r.get("image_path")) != null) {
            for (Path f : imageFiles(r.get("image_path"), baseDir)) pics.add(loader.encodedFile(f));
        } else if (blankToNull(r.get("video")) != null) {
            pics.addAll(limits.frames("row " + idx, limits.videos().file(r.get("video"), baseDir), r));
        } else {
            throw new BadRowException(NO_IMAGE);
        }
        QuestionPixels total = new QuestionPixels(limits);
        for (Picture p : pics) total.add(p.width(), p.height());
        return pics;
    }

    /** Whether the row's {@code image} cell names another row's image (VLMEvalKit's short cell) rather than holding one. */
    static boolean namesAnotherRow(Map<String, String> r) {
        String image = blankToNull(r.get("image"));
        return image != null && image.strip().length() <= REFERENCE_MAX_LENGTH && !image.strip().startsWith("[");
    }

    /**
     * Question {@code idx}'s own copies of pictures another question read from the same row (named as
     * {@link #decodeImages} names them), within the per-question limit.
     */
    static List<Picture> sharedImages(String idx, List<Picture> shared, Images limits) {
        List<Picture> pics = new ArrayList<>(shared.size());
        for (int k = 0; k < shared.size(); k++) pics.add(shared.get(k).sharedAs(shared.size() == 1 ? "row " + idx : "row " + idx + " image " + k));
        QuestionPixels total = new QuestionPixels(limits);
        for (Picture p : pics) total.add(p.width(), p.height());
        return pics;
    }

    /**
     * A row's {@code image} cell as the base64 images it holds (a JSON list, or one), a short cell standing for the
     * {@code referenced} row's image (VLMEvalKit's TSVs name another row's index to share its image); null when the row
     * has no {@code image}.
     */
    private static List<String> imageCells(Map<String, String> r, String referenced) {
        String image = blankToNull(r.get("image"));
        if (image == null) return null;
        image = image.strip();
        if (image.length() <= REFERENCE_MAX_LENGTH && !image.startsWith("[")) {
            if (referenced == null) throw new BadRowException("'image' value '" + image + "' names no row with an image");
            image = referenced.strip();
        }
        return image.startsWith("[") ? jsonStrings(image, "image") : List.of(image);
    }

    /**
     * The sizes of the images {@link #decodeImages} would give, without decoding their pixels: each base64 image's header
     * from the start of its cell (the whole cell when the header lies further), each image file's header, and for a
     * video file its stream's size times the frames the run takes (ffprobe; a frame folder's frames are read).
     */
    static List<ImageLoader.Header> imageSizes(String idx, Map<String, String> r, String referenced, Path baseDir, Images limits) {
        ImageLoader loader = limits.loader();
        List<ImageLoader.Header> out = new ArrayList<>();
        List<String> all = imageCells(r, referenced);
        if (all != null) {
            for (int k = 0; k < all.size(); k++) out.add(header(all.size() == 1 ? "row " + idx : "row " + idx + " image " + k, all.get(k), loader));
        } else if (blankToNull(r.get("image_path")) != null) {
            for (Path f : imageFiles(r.get("image_path"), baseDir)) out.add(loader.inspect(f));
        } else if (blankToNull(r.get("video")) != null) {
            Path v = limits.videos().file(r.get("video"), baseDir);
            if (limits.video() != null || Files.isDirectory(v)) return EvalQuestion.sizesOf(limits.frames("row " + idx, v, r));
            dev.gamagent.image.VideoInfo info = limits.videos().frames().probe(v);
            int n = dev.gamagent.image.FrameSelection.uniform(limits.videos().countOr(DEFAULT_VIDEO_FRAMES)).indices(0, Math.max(0, info.frames() - 1), info.fps()).size();
            for (int i = 0; i < n; i++) out.add(new ImageLoader.Header(null, info.width(), info.height()));
        } else {
            throw new BadRowException(NO_IMAGE);
        }
        return out;
    }

    /** One base64 image's header: from the first {@value #HEADER_BASE64} characters, else from all of it. */
    private static ImageLoader.Header header(String source, String b64, ImageLoader loader) {
        String t = b64.strip();
        StringBuilder head = new StringBuilder(Math.min(t.length(), HEADER_BASE64));
        for (int i = 0; i < t.length() && head.length() < HEADER_BASE64; i++) if (!Character.isWhitespace(t.charAt(i))) head.append(t.charAt(i));
        head.setLength(head.length() - head.length() % 4);
        boolean url = head.indexOf("-") >= 0 || head.indexOf("_") >= 0;
        try {
            byte[] bytes = (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(head.toString());
            return loader.header(source, bytes);
        } catch (IllegalArgumentException | ImageException e) {
            return loader.header(source, base64(t, source)); // the header lies past the start: the whole image's bytes (not decoded)
        }
    }

    static final String NO_IMAGE = "no image: neither 'image' nor 'image_path' (nor 'video') is set";

    /** Sums the pixels of one question's images against {@code image.max_question_megapixels}. */
    static final class QuestionPixels {
        private final Images limits;
        private long pixels;
        private int images;

        QuestionPixels(Images limits) { this.limits = limits; }

        void add(ImageLoader.Header h) { add(h.width(), h.height()); }

        void add(int width, int height) {
            pixels += (long) width * height;
            images++;
            long max = limits.maxQuestionPixels();
            if (max > 0 && pixels > max) {
                throw new BadRowException(String.format(Locale.ROOT, "its first %d images hold %.1f megapixels together, more than "
                        + "the limit of %.1f per question (config %s); downscale them or raise the limit", images, pixels / 1e6,
                        max / 1e6, limits.totalSetting()));
            }
        }

        long pixels() { return pixels; }
    }

    /** A video as a directory of frames, in file-name order. */
    private static List<Path> frames(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).matches(".*\\.(png|jpe?g|bmp|gif|webp)"))
                    .sorted().toList();
            if (files.isEmpty()) throw new BadRowException("frame directory " + dir + " holds no image files");
            return files;
        } catch (IOException e) {
            throw new BadRowException("cannot list frame directory " + dir + ": " + e.getMessage());
        }
    }

    /** A JSON list of strings; VLMEvalKit also writes Python's repr ({@code ['a', 'b']}), accepted when it holds no double quotes. */
    static List<String> jsonStrings(String text, String column) {
        String json = text.indexOf('"') < 0 ? text.replace('\'', '"') : text;
        try {
            JsonNode n = Json.MAPPER.readTree(json);
            if (n == null || !n.isArray()) throw new BadRowException("'" + column + "' starts with '[' but is not a JSON list");
            List<String> out = new ArrayList<>();
            n.forEach(e -> out.add(e.asText()));
            return out;
        } catch (IOException e) {
            throw new BadRowException("'" + column + "' is not a valid JSON list: " + firstLine(e.getMessage()));
        }
    }

    private static byte[] base64(String text, String source) {
        try {
            return Base64.getMimeDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new BadRowException("'image' of " + source + " is not valid base64 (" + e.getMessage() + ")");
        }
    }

    /** One base64 image decoded with the default limits. */
    static Picture decode(String base64, String source) {
        return Images.DEFAULT.loader().encodedBase64(source, base64.strip());
    }

    static String blankToNull(String s) {
        if (s == null) return null;
        String t = s.strip();
        return t.isEmpty() || t.equals("nan") || t.equals("NaN") ? null : s;
    }

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
