package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * the rest load. Images are checked (source, format header) at load and decoded only while their question
 * is in flight, so a large benchmark need not fit in memory.
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

    private BenchmarkLoader() { }

    public static Dataset load(Path file) { return load(file, Filter.ALL); }

    /** Loads by file extension; an unreadable file (not a bad row) throws with the file's name. */
    public static Dataset load(Path file, Filter filter) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("benchmark file " + file + " does not exist");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("benchmark file " + file + " is not UTF-8 text (an image or a binary file?); "
                    + "--data takes a VLMEvalKit .tsv, an M3MAD .json or a .jsonl file", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + file + ": " + e.getMessage(), e);
        }
        String name = file.getFileName().toString();
        Path base = file.toAbsolutePath().getParent();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".jsonl")) return fromJsonl(name, text, base, filter);
        if (lower.endsWith(".json")) return fromM3mad(name, text, base, filter);
        if (lower.endsWith(".tsv")) return fromTsv(name, text, base, filter);
        throw new IllegalArgumentException("benchmark file " + file + ": unknown format; use .tsv (VLMEvalKit), .json (M3MAD) or .jsonl");
    }

    /** VLMEvalKit TSV text (header row, then one row per question). */
    public static Dataset fromTsv(String name, String text, Path baseDir, Filter filter) {
        List<List<String>> rows = Tsv.parse(text);
        if (rows.isEmpty()) throw new IllegalArgumentException(name + ": empty file, expected a header row");
        List<String> header = rows.get(0).stream().map(String::strip).toList();
        List<Map<String, String>> maps = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        for (int r = 1; r < rows.size(); r++) {
            List<String> cells = rows.get(r);
            if (cells.size() == 1 && cells.get(0).isBlank()) continue;
            Map<String, String> m = new LinkedHashMap<>();
            for (int c = 0; c < header.size() && c < cells.size(); c++) m.put(header.get(c), cells.get(c));
            if (cells.size() != header.size()) {
                String idx = m.getOrDefault("index", "line " + (r + 1));
                skipped.add(new SkippedRow(idx, "has " + cells.size() + " fields, the header has " + header.size()
                        + " (a tab or newline inside an unquoted field?)"));
                continue;
            }
            m.putIfAbsent("index", Integer.toString(r - 1));
            maps.add(m);
        }
        return fromRows(name, maps, skipped, baseDir, filter);
    }

    /** JSONL: one JSON object per line with the TSV field names. */
    public static Dataset fromJsonl(String name, String text, Path baseDir, Filter filter) {
        List<Map<String, String>> maps = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
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
        return fromRows(name, maps, skipped, baseDir, filter);
    }

    /**
     * M3MAD JSON: an array (or {@code {"data": [...]}}) of objects with {@code image_path, query, gt, tag,
     * source}. Options are the query's "A. text" lines; {@code tag} becomes the category, {@code source} the l2-category.
     */
    public static Dataset fromM3mad(String name, String text, Path baseDir, Filter filter) {
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
        return fromRows(name, maps, skipped, baseDir, filter);
    }

    private static Dataset fromRows(String name, List<Map<String, String>> rows, List<SkippedRow> skipped,
                                    Path baseDir, Filter filter) {
        Map<String, String> imageByIndex = new HashMap<>();
        for (var r : rows) {
            String img = r.get("image");
            if (img != null && img.strip().length() > REFERENCE_MAX_LENGTH) imageByIndex.putIfAbsent(r.get("index").strip(), img);
        }
        List<EvalQuestion> out = new ArrayList<>();
        List<SkippedRow> skips = new ArrayList<>(skipped);
        java.util.Set<String> seen = new java.util.HashSet<>();
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
                Question shell = toQuestion(idx, r);
                images(idx, r, imageByIndex, baseDir, false); // checks every image's source and header now, decodes later
                out.add(new EvalQuestion(shell, () -> images(idx, r, imageByIndex, baseDir, true), idx, 0, blankToNull(r.get("split"))));
            } catch (BadRowException | ImageException e) {
                skips.add(new SkippedRow(idx, e.getMessage()));
            }
        }
        return new Dataset(name, out, skips);
    }

    /** The row's question without images. */
    private static Question toQuestion(String idx, Map<String, String> r) {
        String text = blankToNull(r.get("question"));
        if (text == null) throw new BadRowException(r.containsKey("question") ? "empty 'question'" : "missing column 'question'");
        Map<String, String> options = new LinkedHashMap<>();
        for (char c = 'A'; c <= 'Z'; c++) {
            String v = blankToNull(r.get(String.valueOf(c)));
            if (v != null) options.put(String.valueOf(c), v.strip());
        }
        String answer = blankToNull(r.get("answer"));
        if (answer == null) throw new BadRowException(r.containsKey("answer") ? "empty 'answer'" : "missing column 'answer'");
        answer = answer.strip();
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
     * The row's images, decoded when {@code decode}; otherwise only checked (base64, format header, file
     * present) and null is returned.
     */
    private static List<Picture> images(String idx, Map<String, String> r, Map<String, String> imageByIndex, Path baseDir, boolean decode) {
        String image = blankToNull(r.get("image"));
        if (image != null) {
            image = image.strip();
            if (image.length() <= REFERENCE_MAX_LENGTH && !image.startsWith("[")) {
                String ref = imageByIndex.get(image);
                if (ref == null) throw new BadRowException("'image' value '" + image + "' names no row with an image");
                image = ref.strip();
            }
            if (image.startsWith("[")) {
                List<Picture> pics = new ArrayList<>();
                int k = 0;
                List<String> all = jsonStrings(image, "image");
                if (all.isEmpty()) throw new BadRowException("'image' holds an empty list");
                for (String b64 : all) {
                    if (decode) pics.add(decode(b64, "row " + idx + " image " + k++));
                    else check(b64);
                }
                return decode ? pics : null;
            }
            if (!decode) return check(image);
            return List.of(decode(image, "row " + idx));
        }
        String path = blankToNull(r.get("image_path"));
        if (path == null) throw new BadRowException("no image: neither 'image' nor 'image_path' is set");
        List<String> paths = path.strip().startsWith("[") ? jsonStrings(path.strip(), "image_path") : List.of(path.strip());
        List<Picture> pics = new ArrayList<>();
        for (String p : paths) {
            Path f = baseDir == null ? Path.of(p) : baseDir.resolve(p);
            if (Files.isDirectory(f)) pics.addAll(frames(f, decode));
            else if (!Files.exists(f)) throw new BadRowException("image file " + f + " does not exist");
            else if (decode) pics.add(ImageLoader.load(f));
            else checkFile(f);
        }
        return decode ? pics : null;
    }

    /** A video as a directory of frames, in file-name order. */
    private static List<Picture> frames(Path dir, boolean decode) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).matches(".*\\.(png|jpe?g|bmp|gif|webp)"))
                    .sorted().toList();
            if (files.isEmpty()) throw new BadRowException("frame directory " + dir + " holds no image files");
            if (!decode) {
                for (Path f : files) checkFile(f);
                return List.of();
            }
            return files.stream().map(ImageLoader::load).toList();
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

    /** Checks that base64 text holds an image in a readable format, reading only its header; returns null. */
    private static List<Picture> check(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new BadRowException("'image' is not valid base64 (" + e.getMessage() + ")");
        }
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            if (!readsHeader(in)) throw new BadRowException("'image' decodes to " + bytes.length + " bytes that are not an image in a supported format");
        } catch (IOException e) {
            throw new BadRowException("'image' cannot be decoded: " + e.getMessage());
        }
        return null;
    }

    private static void checkFile(Path f) {
        try (ImageInputStream in = ImageIO.createImageInputStream(f.toFile())) {
            if (in == null || !readsHeader(in)) throw new BadRowException("image file " + f + " is not an image in a supported format");
        } catch (IOException e) {
            throw new BadRowException("image file " + f + " cannot be read: " + e.getMessage());
        }
    }

    /** True when some ImageIO reader accepts the stream and can read the first image's size. */
    private static boolean readsHeader(ImageInputStream in) throws IOException {
        var readers = ImageIO.getImageReaders(in);
        if (!readers.hasNext()) return false;
        ImageReader reader = readers.next();
        try {
            reader.setInput(in, true, true);
            return reader.getWidth(0) > 0 && reader.getHeight(0) > 0;
        } finally {
            reader.dispose();
        }
    }

    static Picture decode(String base64, String source) {
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new BadRowException("'image' is not valid base64 (" + e.getMessage() + ")");
        }
        try {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(bytes));
            if (img == null) throw new BadRowException("'image' decodes to " + bytes.length + " bytes that are not an image in a supported format");
            return new Picture(source, img);
        } catch (IOException e) {
            throw new BadRowException("'image' cannot be decoded: " + e.getMessage());
        }
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
