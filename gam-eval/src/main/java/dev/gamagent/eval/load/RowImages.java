package dev.gamagent.eval.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.ImageTooLargeException;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static dev.gamagent.eval.load.RowFields.blankToNull;

/**
 * A benchmark row's images ({@code image} cells of base64, a short cell naming another row's, {@code image_path} files,
 * a {@code video}): checked from their bytes or headers while the file is indexed, sized without decoding, and decoded
 * when their question starts, each within the per-image limit and all of one question's within the per-question limit.
 */
public final class RowImages {
    /** VLMEvalKit: an image value this short names another row's index whose image it reuses. */
    static final int REFERENCE_MAX_LENGTH = 64;

    private RowImages() { }

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
            Path f = RowPaths.path(p, baseDir, "image_path");
            if (Files.isDirectory(f)) files.addAll(frames(f));
            else if (!Files.exists(f)) throw new BadRowException("image file " + f + " does not exist");
            else files.add(f);
        }
        return files;
    }

    /** A path a row names, relative to the data file; one the file system cannot name skips the row. */
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
            dev.gamagent.image.internal.VideoInfo info = limits.videos().frames().probe(v);
            int n = dev.gamagent.image.internal.FrameSelection.uniform(limits.videos().countOr(Videos.DEFAULT_FRAMES)).indices(0, Math.max(0, info.frames() - 1), info.fps()).size();
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
            throw new BadRowException("'" + column + "' is not a valid JSON list: " + BadRowException.firstLine(e.getMessage()));
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
    public static Picture decode(String base64, String source) {
        return new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS).encodedBase64(source, base64.strip());
    }
}
