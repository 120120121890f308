package dev.gamagent.eval.load;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.format.Utf8Scan;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks at the first megabyte of a benchmark file before anything else is read, and refuses in one line, naming
 * the file and what is wrong, a file that is not a benchmark at all: binary data (NUL bytes, or not UTF-8 from
 * its first bytes), a TSV whose first line is not a header with a {@code question} column and an image column,
 * a TSV whose rows do not have the header's fields, JSONL whose lines are not JSON objects, JSON that is not a
 * list of records. A 1 GB file of random bytes or junk lines is refused in the time it takes to read 1 MB.
 */
final class FormatCheck {
    /** How much of the file is looked at. */
    static final int BYTES = 1 << 20;
    /** Rows in the first megabyte that must all be broken for the file (not the rows) to be refused. */
    static final int ROWS_TO_JUDGE = 3;
    /** Columns of which a TSV header needs one to hold a question's images. */
    static final List<String> IMAGE_COLUMNS = List.of("image", "image_path", "video");

    private FormatCheck() { }

    static void check(DataBytes data, FileFormat format, String name) {
        long size = data.size();
        if (size == 0) throw new IllegalArgumentException(name + ": empty file (0 bytes)" + (format == FileFormat.TSV
                ? ", expected a header row" : ""));
        byte[] head = data.read(0, (int) Math.min(size, BYTES));
        boolean whole = head.length == size;
        int from = bom(head);
        Utf8Scan utf8 = new Utf8Scan();
        utf8.feed(head, from, head.length, 0);
        if (whole) utf8.end();
        String what = "--data takes a VLMEvalKit .tsv, an M3MAD .json or a .jsonl file";
        if (utf8.firstNul() >= 0) {
            throw new IllegalArgumentException(name + " is not UTF-8 text: it holds a NUL byte at offset " + utf8.firstNul()
                    + " (an image, an archive or UTF-16 text?); " + what);
        }
        Utf8Scan.BadByte bad = utf8.first();
        if (bad != null && bad.offset() < 64) {
            throw new IllegalArgumentException(name + " is not UTF-8 text (" + bad.describe() + "; an image or a binary file?); " + what);
        }
        switch (format) {
            case TSV -> tsv(head, from, whole, name);
            case JSONL -> jsonl(head, from, whole, name);
            case M3MAD -> json(head, from, whole, name);
        }
    }

    /** For a file whose extension names no format: a binary file is said to be one, else null. */
    static String binary(DataBytes data, String name) {
        try {
            FormatCheck.check(data, FileFormat.JSONL, name);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage() != null && e.getMessage().startsWith(name + " is not UTF-8 text") ? e.getMessage() : null;
        }
    }

    static int bom(byte[] b) {
        return b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF ? 3 : 0;
    }

    private static void tsv(byte[] head, int from, boolean whole, String name) {
        List<PandasTable.Row> rows = new ArrayList<>();
        PandasTable scanner = new PandasTable('\t', rows::add);
        scanner.skipStart(from);
        scanner.feed(head, from, head.length, 0);
        if (whole) scanner.end(head.length);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(name + ": its first line is longer than " + (BYTES >> 20) + " MB, so it is not the header "
                    + "row of a VLMEvalKit TSV (index, image, question, A, B, ..., answer)");
        }
        List<String> header = rows.get(0).fields.stream().map(String::strip).toList();
        if (!header.contains("question") || IMAGE_COLUMNS.stream().noneMatch(header::contains)) {
            String missing = !header.contains("question") ? "no 'question' column" : "no 'image' or 'image_path' column";
            throw new IllegalArgumentException(name + ": not a VLMEvalKit TSV: its header (line 1) has " + missing + "; it reads "
                    + abbreviate(String.join(" | ", header)) + " (expected index, image, question, A, B, ..., answer, tab-separated)");
        }
        int judged = 0, broken = 0;
        String example = null;
        for (PandasTable.Row r : rows.subList(1, rows.size())) {
            if (r.fields.size() == 1 && r.fields.get(0).isBlank()) continue;
            judged++;
            if (r.fields.size() != header.size()) {
                broken++;
                if (example == null) example = "line " + r.line + " has " + r.fields.size();
            }
        }
        if (judged >= ROWS_TO_JUDGE && broken == judged) {
            throw new IllegalArgumentException(name + ": not a VLMEvalKit TSV: none of its first " + judged + " rows has the header's "
                    + header.size() + " tab-separated fields (" + example + ")");
        }
    }

    private static void jsonl(byte[] head, int from, boolean whole, String name) {
        int first = firstNonSpace(head, from);
        if (first < 0) {
            if (whole) return; // blank lines only: no rows, said by the caller
            throw new IllegalArgumentException(name + ": its first megabyte is blank; a .jsonl file holds one JSON object per line");
        }
        if (head[first] != '{') {
            throw new IllegalArgumentException(name + ": not JSONL: a .jsonl file holds one JSON object per line, but it starts with '"
                    + abbreviate(new String(head, first, Math.min(40, head.length - first), StandardCharsets.UTF_8).lines().findFirst().orElse(""))
                    + "'");
        }
        int judged = 0, objects = 0, start = from;
        String firstError = null;
        long line = 1;
        for (int i = from; i <= head.length; i++) {
            if (i < head.length && head[i] != '\n') continue;
            if (i == head.length && !whole) break; // a line cut by the end of the megabyte
            String text = new String(head, start, i - start, StandardCharsets.UTF_8);
            if (!text.isBlank()) {
                judged++;
                try {
                    JsonNode n = Json.MAPPER.readTree(text);
                    if (n != null && n.isObject()) objects++;
                    else if (firstError == null) firstError = "line " + line + " is not a JSON object";
                } catch (IOException e) {
                    if (firstError == null) firstError = "line " + line + " is not valid JSON: " + BadRowException.firstLine(e.getMessage());
                }
            }
            start = i + 1;
            line++;
        }
        if (judged == 0 && !whole) tokens(head, first, name, "JSONL");
        if (judged >= ROWS_TO_JUDGE && objects == 0) {
            throw new IllegalArgumentException(name + ": not JSONL: none of its first " + judged + " lines is a JSON object (" + firstError + ")");
        }
    }

    private static void json(byte[] head, int from, boolean whole, String name) {
        int first = firstNonSpace(head, from);
        if (first < 0) throw new IllegalArgumentException(name + ": " + (whole ? "holds only white space" : "its first megabyte is blank")
                + "; expected a JSON list of M3MAD records");
        if (head[first] != '[' && head[first] != '{') {
            throw new IllegalArgumentException(name + ": not an M3MAD JSON file: it starts with '"
                    + abbreviate(new String(head, first, Math.min(40, head.length - first), StandardCharsets.UTF_8).lines().findFirst().orElse(""))
                    + "', expected a list of records ('[') or {\"data\": [...]}");
        }
        tokens(head, first, name, "JSON");
    }

    /** Reads the JSON tokens of the first megabyte; a syntax error there (not the megabyte's end) refuses the file. */
    private static void tokens(byte[] head, int from, String name, String kind) {
        try (JsonParser p = Json.MAPPER.getFactory().createParser(head, from, head.length - from)) {
            while (p.nextToken() != null) { /* syntax only */ }
        } catch (JsonEOFException cutByTheMegabyte) {
            // the first megabyte ends inside a value: fine so far
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(name + ": not valid " + kind + ": " + BadRowException.firstLine(e.getOriginalMessage())
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new IllegalArgumentException(name + ": cannot be read as " + kind + ": " + e.getMessage());
        }
    }

    private static int firstNonSpace(byte[] b, int from) {
        for (int i = from; i < b.length; i++) if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r' && b[i] != '\n') return i;
        return -1;
    }

    private static String abbreviate(String s) {
        String t = s.replaceAll("\\p{Cntrl}", "?");
        return t.length() <= 120 ? t : t.substring(0, 120) + "...";
    }
}
