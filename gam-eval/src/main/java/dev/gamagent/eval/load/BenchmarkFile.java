package dev.gamagent.eval.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An indexed benchmark file as its questions read it: a row's bytes are read again by position and parsed as the
 * index pass parsed them, into the question's text (its shell) and, when it starts, its images.
 */
final class BenchmarkFile implements RowEntry.Rows {
    private final DataBytes data;
    private final FileFormat format;
    private final List<String> header;
    private final Path baseDir;
    private final Images images;
    private final boolean multipleChoice;

    BenchmarkFile(DataBytes data, FileFormat format, List<String> header, Path baseDir, Images images, boolean multipleChoice) {
        this.data = data;
        this.format = format;
        this.header = header;
        this.baseDir = baseDir;
        this.images = images;
        this.multipleChoice = multipleChoice;
    }

    /** The row's fields, the image cell included, read again from the file. */
    Map<String, String> fields(RowEntry e, String idx) {
        byte[] bytes = data.read(e.start, e.length);
        switch (format) {
            case TSV -> {
                List<String> cells = PandasTable.fields(bytes); // the bytes split as the index pass split them, whole this time
                if (cells == null || cells.size() != header.size()) throw changed(e);
                Map<String, String> m = new LinkedHashMap<>();
                for (int c = 0; c < header.size(); c++) m.put(header.get(c), cells.get(c));
                return m;
            }
            case JSONL -> {
                JsonNode n = tree(bytes, e);
                if (!n.isObject()) throw changed(e);
                return RowFields.jsonlFields(n);
            }
            case M3MAD -> { return RowFields.m3madFields(tree(bytes, e), idx); }
            default -> throw new IllegalStateException(format.toString());
        }
    }

    /**
     * Image cells of rows other rows name (VLMEvalKit's convention), kept while they fit in {@link #REFERENCED_CHARS},
     * with the pictures read from them once checked, which every question naming the row shares.
     */
    private final java.util.LinkedHashMap<RowEntry, Named> referenced = new java.util.LinkedHashMap<>(64, 0.75f, true);
    private long referencedChars;
    /** 64 M characters: the images a large MMBench-style file's rows name, without holding the file. */
    static final long REFERENCED_CHARS = 64L << 20;

    /** A named row's image cell and, once a question has read them, its checked pictures (their bytes are the cell's again). */
    private static final class Named {
        final String cell;
        volatile List<Picture> pictures;

        Named(String cell) { this.cell = cell; }

        /** What it holds in memory, in characters: the cell, and the pictures' base64 bytes once read. */
        long chars() { return pictures == null ? cell.length() : 2L * cell.length(); }
    }

    /** The image cell of a row that other rows name, from memory when it was read recently. */
    String referencedCell(RowEntry e) { return named(e).cell; }

    private Named named(RowEntry e) {
        synchronized (referenced) {
            Named n = referenced.get(e);
            if (n != null) return n;
        }
        Named n = new Named(imageCell(e));
        synchronized (referenced) {
            Named had = referenced.get(e);
            if (had != null) return had;
            if (n.chars() <= REFERENCED_CHARS / 4) {
                referenced.put(e, n);
                referencedChars += n.chars();
                trim();
            }
        }
        return n;
    }

    private void trim() {
        var it = referenced.entrySet().iterator();
        while (referencedChars > REFERENCED_CHARS && it.hasNext()) {
            referencedChars -= it.next().getValue().chars();
            it.remove();
        }
    }

    /**
     * The pictures of question {@code idx}, whose row {@code m} names row {@code e} for its image: read and checked
     * once for every question that names the row, each question given its own copies (named after it).
     */
    private List<Picture> namedPictures(RowEntry e, String idx, Map<String, String> m) {
        Named n = named(e);
        List<Picture> shared = n.pictures;
        if (shared == null) {
            shared = RowImages.decodeImages(idx, m, n.cell, baseDir, images);
            if (shared.stream().anyMatch(p -> p.sharedAs(p.source()) == null)) return shared; // decoded to pixels: not kept
            synchronized (referenced) {
                if (n.pictures == null && referenced.get(e) == n) {
                    referencedChars -= n.chars();
                    n.pictures = List.copyOf(shared);
                    referencedChars += n.chars();
                    trim();
                }
            }
        }
        return RowImages.sharedImages(idx, shared, images);
    }

    /** The text of a row's {@code image} cell (for a check the index pass could not make as the row passed). */
    String imageCell(RowEntry e) {
        String cell = fields(e, null).get("image");
        if (cell == null) throw new BadRowException("no 'image' cell");
        return cell;
    }

    private JsonNode tree(byte[] bytes, RowEntry e) {
        try {
            JsonNode n = Json.MAPPER.readTree(bytes);
            if (n == null) throw changed(e);
            return n;
        } catch (IOException ex) {
            throw changed(e);
        }
    }

    private IllegalStateException changed(RowEntry e) {
        return new IllegalStateException("benchmark file " + data.name() + ": the row on line " + e.line + " no longer reads as it did "
                + "when the file was indexed (was the file changed?); rerun the command");
    }

    /** The question of row {@code e} without its pixels. */
    @Override public KeyedQuestion shell(RowEntry e) { return RowFields.toQuestion(e.idx, fields(e, e.idx), multipleChoice); }

    /** The question of row {@code e} with its images decoded. */
    @Override public KeyedQuestion full(RowEntry e) {
        Map<String, String> m = fields(e, e.idx);
        KeyedQuestion shell = RowFields.toQuestion(e.idx, m, multipleChoice);
        if (e.imageRow != null && RowImages.namesAnotherRow(m)) return shell.withImages(namedPictures(e.imageRow, e.idx, m));
        String named = e.imageRow == null ? null : referencedCell(e.imageRow);
        return shell.withImages(RowImages.decodeImages(e.idx, m, named, baseDir, images));
    }

    /** The sizes of row {@code e}'s images, from their headers. */
    @Override public List<ImageLoader.Header> imageSizes(RowEntry e) {
        String named = e.imageRow == null ? null : referencedCell(e.imageRow);
        return RowImages.imageSizes(e.idx, fields(e, e.idx), named, baseDir, images);
    }
}
