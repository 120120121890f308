package dev.gamagent.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import javax.imageio.ImageIO;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Writes benchmark items as a VLMEvalKit TSV (base64 PNG images), an M3MAD JSON list, or JSONL. JSON and
 * JSONL write PNG files into a sibling directory {@code <stem>_images/} and refer to them by relative path.
 */
public final class BenchmarkWriter {
    /** VLMEvalKit's multiple-choice columns, plus our difficulty tag last. */
    public static final List<String> TSV_COLUMNS = List.of("index", "image", "question", "hint", "A", "B", "C", "D",
            "answer", "category", "l2-category", "split", "difficulty");
    public static final String SPLIT = "test";
    public static final String SOURCE = "gam-synthetic";

    public enum Format { TSV, JSON, JSONL }

    /** The format named by the file's extension (.tsv, .json, .jsonl). */
    public static Format formatOf(Path out) {
        String name = out.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".tsv")) return Format.TSV;
        if (name.endsWith(".jsonl")) return Format.JSONL;
        if (name.endsWith(".json")) return Format.JSON;
        throw new IllegalArgumentException("--out " + out + ": unknown format; end the file name with .tsv, .json or .jsonl");
    }

    public void write(List<BenchItem> items, Path out) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        switch (formatOf(out)) {
            case TSV -> writeTsv(items, out);
            case JSON -> writeM3mad(items, out);
            case JSONL -> writeJsonl(items, out);
        }
    }

    public void writeTsv(List<BenchItem> items, Path out) throws IOException {
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write(String.join("\t", TSV_COLUMNS));
            w.write('\n');
            for (BenchItem it : items) {
                w.write(tsvRow(it));
                w.write('\n');
            }
        }
    }

    /** One TSV row (without the newline), in {@link #TSV_COLUMNS} order. */
    public static String tsvRow(BenchItem it) {
        StringBuilder sb = new StringBuilder();
        sb.append(it.index()).append('\t').append(Base64.getEncoder().encodeToString(png(it)));
        sb.append('\t').append(clean(it.question())).append('\t').append(clean(it.hint()));
        for (String letter : List.of("A", "B", "C", "D")) sb.append('\t').append(clean(it.options().getOrDefault(letter, "")));
        sb.append('\t').append(it.answer()).append('\t').append(it.category()).append('\t').append(it.l2Category())
                .append('\t').append(SPLIT).append('\t').append(it.difficulty());
        return sb.toString();
    }

    public void writeM3mad(List<BenchItem> items, Path out) throws IOException {
        Path dir = imageDir(out);
        ArrayNode arr = Json.MAPPER.createArrayNode();
        for (BenchItem it : items) {
            ObjectNode o = arr.addObject();
            o.put("image_path", writeImage(it, out, dir));
            StringBuilder q = new StringBuilder(it.question());
            it.options().forEach((k, v) -> q.append('\n').append(k).append(". ").append(v));
            o.put("query", q.toString());
            o.put("gt", it.answer());
            o.put("tag", it.category());
            o.put("source", SOURCE);
        }
        Files.writeString(out, Json.writePretty(arr));
    }

    public void writeJsonl(List<BenchItem> items, Path out) throws IOException {
        Path dir = imageDir(out);
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (BenchItem it : items) {
                ObjectNode o = Json.MAPPER.createObjectNode();
                o.put("index", it.index());
                o.put("image_path", writeImage(it, out, dir));
                o.put("question", it.question());
                o.put("hint", it.hint());
                for (String letter : List.of("A", "B", "C", "D")) o.put(letter, it.options().getOrDefault(letter, ""));
                o.put("answer", it.answer());
                o.put("category", it.category());
                o.put("l2-category", it.l2Category());
                o.put("split", SPLIT);
                o.put("difficulty", it.difficulty());
                w.write(Json.write(o));
                w.write('\n');
            }
        }
    }

    static Path imageDir(Path out) throws IOException {
        String name = out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        Path dir = out.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "_images");
        Files.createDirectories(dir);
        return dir;
    }

    /** Writes the item's PNG and returns its path relative to the output file's directory. */
    private static String writeImage(BenchItem it, Path out, Path dir) throws IOException {
        Path file = dir.resolve(it.index() + ".png");
        Files.write(file, png(it));
        Path base = out.toAbsolutePath().getParent();
        return base == null ? file.toString() : base.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
    }

    public static byte[] png(BenchItem it) {
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            if (!ImageIO.write(it.image(), "png", bos)) throw new IOException("no PNG writer available");
            return bos.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode image of item " + it.index() + " as PNG: " + e.getMessage(), e);
        }
    }

    private static String clean(String s) {
        return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
