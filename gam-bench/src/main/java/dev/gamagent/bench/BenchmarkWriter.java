package dev.gamagent.bench;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes benchmark items as a VLMEvalKit TSV (base64 PNG images), an M3MAD JSON list, or JSONL. JSON and
 * JSONL write PNG files into a sibling directory {@code <stem>_images/} and refer to them by relative path.
 * Items are written as they come ({@link Stream}), so a benchmark of any size is written in bounded memory.
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
        try (Stream s = open(out)) {
            for (BenchItem it : items) s.add(it);
        }
    }

    public void writeTsv(List<BenchItem> items, Path out) throws IOException { write(items, requireFormat(out, Format.TSV)); }

    public void writeM3mad(List<BenchItem> items, Path out) throws IOException { write(items, requireFormat(out, Format.JSON)); }

    public void writeJsonl(List<BenchItem> items, Path out) throws IOException { write(items, requireFormat(out, Format.JSONL)); }

    private static Path requireFormat(Path out, Format f) {
        if (formatOf(out) != f) throw new IllegalArgumentException(out + " is not a ." + f.name().toLowerCase(Locale.ROOT) + " file");
        return out;
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

    /** Opens {@code out} for items written one at a time; the format follows the extension. */
    public static Stream open(Path out) throws IOException { return new Stream(out); }

    /** An item encoded for its file: a TSV or JSONL line, or an M3MAD record (its image file already written). */
    public record Encoded(int index, String line, ObjectNode record) { }

    /**
     * One benchmark file written as items come, none kept: a TSV header (or the JSON list's start) now, each item
     * when it is written, the end on {@link #close()}. {@link #encode} (PNG, base64, the image file) may run on
     * several threads at once; {@link #write} takes the encoded items in file order.
     */
    public static final class Stream implements AutoCloseable {
        private final Path out;
        private final Format format;
        private final Path imageDir;
        private final Writer writer;
        private final com.fasterxml.jackson.core.JsonGenerator json;
        private int written;

        private Stream(Path out) throws IOException {
            this.out = out;
            this.format = formatOf(out);
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            this.imageDir = format == Format.TSV ? null : imageDir(out);
            this.writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8);
            if (format == Format.JSON) {
                // the same bytes as the list written whole with the default pretty printer
                json = Json.MAPPER.writerWithDefaultPrettyPrinter().createGenerator(writer);
                json.writeStartArray();
            } else {
                json = null;
                if (format == Format.TSV) writer.write(String.join("\t", TSV_COLUMNS) + "\n");
            }
        }

        /** The item's row; for JSON and JSONL its PNG file is written now. Safe to call from several threads. */
        public Encoded encode(BenchItem it) throws IOException {
            return switch (format) {
                case TSV -> new Encoded(it.index(), tsvRow(it), null);
                case JSONL -> new Encoded(it.index(), Json.write(jsonlRecord(it, writeImage(it, out, imageDir))), null);
                case JSON -> new Encoded(it.index(), null, m3madRecord(it, writeImage(it, out, imageDir)));
            };
        }

        /** Writes an encoded item after those written before it. */
        public void write(Encoded e) throws IOException {
            if (format == Format.JSON) json.writeTree(e.record());
            else {
                writer.write(e.line());
                writer.write('\n');
            }
            written++;
        }

        public void add(BenchItem it) throws IOException { write(encode(it)); }

        public int written() { return written; }

        @Override public void close() throws IOException {
            if (json != null) {
                json.writeEndArray();
                json.close();
            }
            writer.close();
        }
    }

    /**
     * Generates items {@code 0..n-1} and writes them to {@code out} in order as they are made, never holding more
     * than a few per thread: {@code threads} draw and encode items at once (each item depends on the seed and its
     * index only, so the file is the same whatever the number of threads). {@code progress} is told each item written.
     */
    public static int generate(BenchmarkGenerator generator, int n, List<Family> families, Path out, int threads,
                               java.util.function.Consumer<BenchItem> progress) throws IOException {
        if (n < 0) throw new IllegalArgumentException("--n must be >= 0, got " + n);
        if (families.isEmpty()) throw new IllegalArgumentException("--families must name at least one family");
        int workers = Math.max(1, threads);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "gam-bench-generate");
            t.setDaemon(true);
            return t;
        });
        try (Stream s = open(out)) {
            java.util.ArrayDeque<java.util.concurrent.Future<Object[]>> window = new java.util.ArrayDeque<>();
            int next = 0;
            while (next < n || !window.isEmpty()) {
                while (next < n && window.size() < 2 * workers) {
                    int i = next++;
                    window.add(pool.submit(() -> {
                        BenchItem it = generator.generate(i, families.get(i % families.size()));
                        return new Object[]{it, s.encode(it)};
                    }));
                }
                Object[] done;
                try {
                    done = window.poll().get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while generating " + out, e);
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof IOException io) throw io;
                    if (c instanceof RuntimeException re) throw re;
                    throw new IOException(c);
                }
                s.write((Encoded) done[1]);
                progress.accept((BenchItem) done[0]);
            }
            return s.written();
        } finally {
            pool.shutdownNow();
        }
    }

    private static ObjectNode m3madRecord(BenchItem it, String imagePath) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("image_path", imagePath);
        StringBuilder q = new StringBuilder(it.question());
        it.options().forEach((k, v) -> q.append('\n').append(k).append(". ").append(v));
        o.put("query", q.toString());
        o.put("gt", it.answer());
        o.put("tag", it.category());
        o.put("source", SOURCE);
        return o;
    }

    /** An image item's JSONL row: every option column A..D, empty where the item has no such option. */
    static ObjectNode jsonlRecord(BenchItem it, String imagePath) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String letter : List.of("A", "B", "C", "D")) options.put(letter, it.options().getOrDefault(letter, ""));
        return new JsonlColumns(it.index(), it.question(), it.hint(), options, it.answer(), it.category(), it.l2Category(), it.difficulty())
                .row("image_path", imagePath);
    }

    /** The columns of a generated question's JSONL row, image and video questions alike, in the order they are written. */
    record JsonlColumns(int index, String question, String hint, Map<String, String> options, String answer, String category,
                        String l2Category, String difficulty) {
        /** The row, with the picture or the video ({@code mediaKey}: image_path or video) after the index. */
        ObjectNode row(String mediaKey, String media) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("index", index);
            o.put(mediaKey, media);
            o.put("question", question);
            o.put("hint", hint);
            options.forEach(o::put);
            o.put("answer", answer);
            o.put("category", category);
            o.put("l2-category", l2Category);
            o.put("split", SPLIT);
            o.put("difficulty", difficulty);
            return o;
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
    static String writeImage(BenchItem it, Path out, Path dir) throws IOException {
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
