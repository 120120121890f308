package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.eval.BenchmarkLoader.BadRowException;
import dev.gamagent.eval.BenchmarkLoader.Format;
import dev.gamagent.eval.BenchmarkLoader.Images;
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
final class BenchmarkFile {
    private final DataBytes data;
    private final Format format;
    private final List<String> header;
    private final Path baseDir;
    private final Images images;
    private final boolean multipleChoice;

    BenchmarkFile(DataBytes data, Format format, List<String> header, Path baseDir, Images images, boolean multipleChoice) {
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
                List<String> cells = TsvScanner.fields(bytes); // the bytes split as the index pass split them, whole this time
                if (cells == null || cells.size() != header.size()) throw changed(e);
                Map<String, String> m = new LinkedHashMap<>();
                for (int c = 0; c < header.size(); c++) m.put(header.get(c), cells.get(c));
                return m;
            }
            case JSONL -> {
                JsonNode n = tree(bytes, e);
                if (!n.isObject()) throw changed(e);
                return BenchmarkLoader.jsonlFields(n);
            }
            case M3MAD -> { return BenchmarkLoader.m3madFields(tree(bytes, e), idx); }
            default -> throw new IllegalStateException(format.toString());
        }
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

    /** A question that reads row {@code e} when asked. */
    EvalQuestion.Source source(RowEntry e, String idx) {
        return new EvalQuestion.Source() {
            @Override public Question shell() { return BenchmarkLoader.toQuestion(idx, fields(e, idx), multipleChoice); }

            @Override public Question full() {
                Map<String, String> m = fields(e, idx);
                Question shell = BenchmarkLoader.toQuestion(idx, m, multipleChoice);
                String referenced = e.imageRow == null ? null : imageCell(e.imageRow);
                return shell.withImages(BenchmarkLoader.decodeImages(idx, m, referenced, baseDir, images));
            }
        };
    }
}
