package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads benchmark files: VLMEvalKit TSV ({@code .tsv}), M3MAD JSON ({@code .json}) and JSONL with the
 * TSV field names ({@code .jsonl}). Rows that cannot be used are skipped and reported with their index;
 * the rest load. Images are checked (source, format header, size limits, end marker) at load and decoded
 * only while their question is in flight, so a large benchmark need not fit in memory. A byte that is not
 * UTF-8 skips its row, naming the offset; a row of a multiple-choice file without options is skipped
 * rather than graded as an open question.
 */
public final class BenchmarkLoader {
    /** VLMEvalKit: an image value this short names another row's index whose image it reuses. */
    private static final int REFERENCE_MAX_LENGTH = 64;
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s*\\(?([A-Z])[.):]\\s+(.+?)\\s*$");

    /** Which rows to keep: at most {@code limit} (0 = all) rows of {@code category} (null = all). */
    public record Filter(int limit, String category) {
        public static final Filter ALL = new Filter(0, null);

        boolean keeps(Map<String, String> row) {
            return category == null || category.isBlank() || category.equalsIgnoreCase(blankToNull(row.get("category")));
        }
    }

    /**
     * How a file's images are checked and decoded: the loader (per-image limit, decode budget, the size
     * kept in memory) and the most pixels one question's images may hold together (0 = no limit).
     */
    public record Images(ImageLoader loader, long maxQuestionPixels, String totalSetting) {
        /** The defaults of config section {@code image}, without a decode budget. */
        public static final Images DEFAULT = new Images(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                DEFAULT_MAX_QUESTION_PIXELS, "image.max_question_megapixels");

        /**
         * Limits from config {@code image.max_megapixels} (per image) and {@code image.max_question_megapixels}
         * (all images of one question), decoding within {@code budget} and keeping at most {@code keepPixels}
         * per image (what the backend can use).
         */
        public static Images from(Config config, DecodeBudget budget, long keepPixels) {
            ImageLoader loader = ImageLoader.withMaxMegapixels(config.number("image.max_megapixels", ImageLoader.DEFAULT_MAX_PIXELS / 1e6))
                    .withBudget(budget).keepingAtMost(keepPixels);
            double total = config.number("image.max_question_megapixels", DEFAULT_MAX_QUESTION_PIXELS / 1e6);
            return new Images(loader, total <= 0 ? 0 : Math.round(total * 1e6), "image.max_question_megapixels");
        }
    }

    /** All images of one question together: a 64-frame video of 1080p frames fits, forty 6000² photos do not. */
    public static final long DEFAULT_MAX_QUESTION_PIXELS = 200_000_000L;

    private BenchmarkLoader() { }

    public static Dataset load(Path file) { return load(file, Filter.ALL); }

    /** Loads by file extension; an unreadable file (not a bad row) throws with the file's name. */
    public static Dataset load(Path file, Filter filter) { return load(file, filter, Images.DEFAULT); }

    public static Dataset load(Path file, Filter filter, Images images) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("benchmark file " + file + " does not exist");
        Utf8Text text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = Utf8Text.decode(bytes);
            // a stray byte skips its row; a file that is binary from its first bytes is not a benchmark at all
            if (!text.bad().isEmpty() && (text.bad().get(0).offset() < 64 || indexOfNul(bytes) >= 0)) {
                throw new IllegalArgumentException("benchmark file " + file + " is not UTF-8 text (an image or a binary file?); "
                        + "--data takes a VLMEvalKit .tsv, an M3MAD .json or a .jsonl file");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + file + ": " + e.getMessage(), e);
        }
        String name = file.getFileName().toString();
        Path base = file.toAbsolutePath().getParent();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".jsonl")) return fromJsonl(name, text, base, filter, images);
        if (lower.endsWith(".json")) return fromM3mad(name, text, base, filter, images);
        if (lower.endsWith(".tsv")) return fromTsv(name, text, base, filter, images);
        throw new IllegalArgumentException("benchmark file " + file + ": unknown format; use .tsv (VLMEvalKit), .json (M3MAD) or .jsonl");
    }

    private static int indexOfNul(byte[] b) {
        for (int i = 0; i < b.length; i++) if (b[i] == 0) return i;
        return -1;
    }

    /** VLMEvalKit TSV text (header row, then one row per question). */
    public static Dataset fromTsv(String name, String text, Path baseDir, Filter filter) {
        return fromTsv(name, new Utf8Text(text, List.of()), baseDir, filter, Images.DEFAULT);
    }

    static Dataset fromTsv(String name, Utf8Text utf8, Path baseDir, Filter filter, Images images) {
        String text = utf8.text();
        List<Tsv.Row> rows = Tsv.rows(text);
        if (rows.isEmpty()) throw new IllegalArgumentException(name + ": empty file, expected a header row");
        Utf8Text.BadBytes inHeader = utf8.firstIn(rows.get(0).start(), rows.get(0).end());
        if (inHeader != null) throw new IllegalArgumentException(name + ": header row: " + inHeader.describe(text) + "; " + Utf8Text.FIX);
        List<String> header = rows.get(0).fields().stream().map(String::strip).toList();
        List<Map<String, String>> maps = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        for (int r = 1; r < rows.size(); r++) {
            List<String> cells = rows.get(r).fields();
            if (cells.size() == 1 && cells.get(0).isBlank()) continue;
            Map<String, String> m = new LinkedHashMap<>();
            for (int c = 0; c < header.size() && c < cells.size(); c++) m.put(header.get(c), cells.get(c));
            String where = "line " + rows.get(r).line();
            Utf8Text.BadBytes bad = utf8.firstIn(rows.get(r).start(), rows.get(r).end());
            if (bad != null) {
                skipped.add(new SkippedRow(m.getOrDefault("index", where).strip(), bad.describe(text) + "; " + Utf8Text.FIX));
                continue;
            }
            if (cells.size() != header.size()) {
                String idx = m.getOrDefault("index", where);
                skipped.add(new SkippedRow(idx, "has " + cells.size() + " fields, the header has " + header.size()
                        + " (a tab or newline inside an unquoted field?)"));
                continue;
            }
            m.putIfAbsent("index", Integer.toString(r - 1));
            maps.add(m);
        }
        return fromRows(name, maps, skipped, baseDir, filter, images);
    }

    /** JSONL: one JSON object per line with the TSV field names. */
    public static Dataset fromJsonl(String name, String text, Path baseDir, Filter filter) {
        return fromJsonl(name, new Utf8Text(text, List.of()), baseDir, filter, Images.DEFAULT);
    }

    static Dataset fromJsonl(String name, Utf8Text utf8, Path baseDir, Filter filter, Images images) {
        String text = utf8.text();
        List<Map<String, String>> maps = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        int offset = 0;
        for (int i = 0; i < lines.length; offset += lines[i].length() + 1, i++) {
            if (lines[i].isBlank()) continue;
            Utf8Text.BadBytes bad = utf8.firstIn(offset, offset + lines[i].length());
            if (bad != null) {
                skipped.add(new SkippedRow("line " + (i + 1), bad.describe(text) + "; " + Utf8Text.FIX));
                continue;
            }
            JsonNode node;
            try {
                node = Json.MAPPER.readTree(lines[i]);
            } catch (IOException e) {
                skipped.add(new SkippedRow("line " + (i + 1), "not valid JSON: " + firstLine(e.getMessage())));
                continue;
            }
            if (!node.isObject()) {
                skipped.add(new SkippedRow("line " + (i + 1), "not a JSON object"));
                continue;
            }
            Map<String, String> m = new LinkedHashMap<>();
            node.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                    : e.getValue().isNull() ? "" : e.getValue().toString()));
            m.putIfAbsent("index", Integer.toString(i));
            maps.add(m);
        }
        return fromRows(name, maps, skipped, baseDir, filter, images);
    }

    /**
     * M3MAD JSON: an array (or {@code {"data": [...]}}) of objects with {@code image_path, query, gt, tag,
     * source}. Options are the query's "A. text" lines; {@code tag} becomes the category, {@code source} the l2-category.
     */
    public static Dataset fromM3mad(String name, String text, Path baseDir, Filter filter) {
        return fromM3mad(name, new Utf8Text(text, List.of()), baseDir, filter, Images.DEFAULT);
    }

    static Dataset fromM3mad(String name, Utf8Text utf8, Path baseDir, Filter filter, Images images) {
        String text = utf8.text();
        if (!utf8.bad().isEmpty()) {
            throw new IllegalArgumentException(name + ": " + utf8.bad().get(0).describe(text) + " (" + utf8.bad().size()
                    + " such places in the file); " + Utf8Text.FIX);
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(name + ": not valid JSON: " + firstLine(e.getMessage()));
        }
        if (root != null && root.isObject() && root.has("data")) root = root.get("data");
        if (root == null || !root.isArray()) throw new IllegalArgumentException(name + ": expected a JSON array of M3MAD records");
        List<Map<String, String>> maps = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode o = root.get(i);
            String idx = o.hasNonNull("id") ? o.get("id").asText() : o.hasNonNull("index") ? o.get("index").asText() : Integer.toString(i);
            if (!o.isObject()) { skipped.add(new SkippedRow(idx, "not a JSON object")); continue; }
            if (!o.hasNonNull("query")) { skipped.add(new SkippedRow(idx, "missing field 'query'")); continue; }
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
            String gt = o.hasNonNull("gt") ? o.get("gt").asText().strip() : "";
            m.put("answer", gt);
            m.put("category", o.hasNonNull("tag") ? o.get("tag").asText() : "");
            m.put("l2-category", o.hasNonNull("source") ? o.get("source").asText() : "");
            maps.add(m);
        }
        return fromRows(name, maps, skipped, baseDir, filter, images);
    }

    private static Dataset fromRows(String name, List<Map<String, String>> rows, List<SkippedRow> skipped,
                                    Path baseDir, Filter filter, Images images) {
        // a file where some row has options is a multiple-choice file: a row there without options is broken, not open
        boolean multipleChoiceFile = rows.stream().anyMatch(r -> !options(r).isEmpty());
        Map<String, String> imageByIndex = new HashMap<>();
        for (var r : rows) {
            String img = r.get("image");
            if (img != null && img.strip().length() > REFERENCE_MAX_LENGTH) imageByIndex.putIfAbsent(r.get("index").strip(), img);
        }
        List<EvalQuestion> out = new ArrayList<>();
        List<SkippedRow> skips = new ArrayList<>(skipped);
        java.util.Set<String> seen = new java.util.HashSet<>();
        // rows naming another row's image share its text: inspect that image once, not once per row
        Map<String, ImageLoader.Header> inspected = new java.util.IdentityHashMap<>();
        for (var r : rows) {
            if (filter.limit() > 0 && out.size() >= filter.limit()) break;
            if (!filter.keeps(r)) continue;
            String idx = r.get("index").strip();
            // results are keyed by index, so a repeated index would silently take the first row's result
            if (!seen.add(idx)) {
                skips.add(new SkippedRow(idx, "duplicate index (an earlier row has the same index)"));
                continue;
            }
            try {
                Question shell = toQuestion(idx, r, multipleChoiceFile);
                images(idx, r, imageByIndex, baseDir, images, inspected); // checks every image's source and header now, reads it later
                out.add(new EvalQuestion(shell, () -> images(idx, r, imageByIndex, baseDir, images, null), idx, 0, blankToNull(r.get("split"))));
            } catch (BadRowException | ImageException e) {
                skips.add(SkippedRow.of(idx, e.getMessage()));
            }
        }
        return new Dataset(name, out, skips);
    }

    /** The row's options A..Z that are set. */
    private static Map<String, String> options(Map<String, String> r) {
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
    private static Question toQuestion(String idx, Map<String, String> r, boolean multipleChoiceFile) {
        String text = blankToNull(r.get("question"));
        if (text == null) throw new BadRowException(r.containsKey("question") ? "empty 'question'" : "missing column 'question'");
        Map<String, String> options = options(r);
        String answer = blankToNull(r.get("answer"));
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
     * The row's images when {@code inspected} is null (PNG and JPEG kept as their bytes and checked whole, decoded
     * only if something needs their pixels; other formats, and images larger than the backend uses, decoded now);
     * otherwise only checked (base64, format header, size, end marker, file present; each image text once,
     * remembered in {@code inspected}), with the images' header pixels together within the per-question limit,
     * and null is returned.
     */
    private static List<Picture> images(String idx, Map<String, String> r, Map<String, String> imageByIndex, Path baseDir,
                                        Images limits, Map<String, ImageLoader.Header> inspected) {
        boolean decode = inspected == null;
        QuestionPixels total = new QuestionPixels(limits);
        ImageLoader loader = limits.loader();
        String image = blankToNull(r.get("image"));
        if (image != null) {
            image = image.strip();
            if (image.length() <= REFERENCE_MAX_LENGTH && !image.startsWith("[")) {
                String ref = imageByIndex.get(image);
                if (ref == null) throw new BadRowException("'image' value '" + image + "' names no row with an image");
                image = ref.strip();
            }
            List<String> all = image.startsWith("[") ? jsonStrings(image, "image") : List.of(image);
            if (all.isEmpty()) throw new BadRowException("'image' holds an empty list");
            List<Picture> pics = new ArrayList<>();
            for (int k = 0; k < all.size(); k++) {
                String source = all.size() == 1 ? "row " + idx : "row " + idx + " image " + k;
                String text = all.get(k);
                if (decode) {
                    pics.add(loader.encodedBase64(source, text.strip()));
                    continue;
                }
                ImageLoader.Header h = inspected.get(text);
                if (h == null) {
                    h = loader.inspect(source, base64(text, source));
                    inspected.put(text, h);
                }
                total.add(h);
            }
            return decode ? pics : null;
        }
        String path = blankToNull(r.get("image_path"));
        if (path == null) throw new BadRowException("no image: neither 'image' nor 'image_path' is set");
        List<String> paths = path.strip().startsWith("[") ? jsonStrings(path.strip(), "image_path") : List.of(path.strip());
        List<Path> files = new ArrayList<>();
        for (String p : paths) {
            Path f = baseDir == null ? Path.of(p) : baseDir.resolve(p);
            if (Files.isDirectory(f)) files.addAll(frames(f));
            else if (!Files.exists(f)) throw new BadRowException("image file " + f + " does not exist");
            else files.add(f);
        }
        if (decode) return files.stream().map(loader::encodedFile).toList();
        for (Path f : files) total.add(loader.inspect(f));
        return null;
    }

    /** Sums the header pixels of one question's images against {@code image.max_question_megapixels}. */
    private static final class QuestionPixels {
        private final Images limits;
        private long pixels;
        private int images;

        QuestionPixels(Images limits) { this.limits = limits; }

        void add(ImageLoader.Header h) {
            pixels += h.pixels();
            images++;
            long max = limits.maxQuestionPixels();
            if (max > 0 && pixels > max) {
                throw new BadRowException(String.format(Locale.ROOT, "its first %d images hold %.1f megapixels together, more than "
                        + "the limit of %.1f per question (config %s); downscale them or raise the limit", images, pixels / 1e6,
                        max / 1e6, limits.totalSetting()));
            }
        }
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
    private static List<String> jsonStrings(String text, String column) {
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

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /** A row-level problem; the loader records it against the row's index and goes on. */
    static final class BadRowException extends RuntimeException {
        BadRowException(String message) { super(message); }
    }
}
