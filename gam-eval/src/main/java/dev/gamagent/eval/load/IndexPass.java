package dev.gamagent.eval.load;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.format.ImageCell;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.format.Utf8Scan;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a benchmark file once, from start to end, in each format's way (a TSV line, a JSONL object, an M3MAD record),
 * hashing it on the way; each row's fields go to {@link KeptRows}, which keeps what the run needs of it and, when the
 * file is read, decides which rows become questions. Rows too broken to read (bytes that are not UTF-8, a wrong field
 * count, JSON that does not parse) are skipped here, naming their line. Once {@link KeptRows#idle} the rest of the file is
 * only hashed and its rows counted.
 */
final class IndexPass {
    private final DataBytes data;
    /** The file as given, for messages. */
    private final String where;
    private final KeptRows kept;
    private final Utf8Scan utf8 = new Utf8Scan();
    private List<String> header;
    private PandasTable scanner;
    private int dataRows;

    private IndexPass(DataBytes data, KeptRows kept) {
        this.data = data;
        this.where = data.name();
        this.kept = kept;
    }

    static Dataset index(DataBytes data, FileFormat format, String name, Path baseDir, RowFilter filter, Images images) {
        return index(data, format, name, baseDir, filter, images, Runtime.getRuntime().maxMemory());
    }

    /** As above, measuring what it keeps against {@code heap} bytes instead of the JVM's maximum heap. */
    static Dataset index(DataBytes data, FileFormat format, String name, Path baseDir, RowFilter filter, Images images, long heap) {
        FormatCheck.check(data, format, data.name());
        KeptRows kept = new KeptRows(data, format, baseDir, filter, images, heap);
        IndexPass pass = new IndexPass(data, kept);
        String sha = switch (format) {
            case TSV -> pass.tsv();
            case JSONL -> pass.jsonl();
            case M3MAD -> pass.m3mad();
        };
        if (kept.over()) throw new IllegalArgumentException(kept.tooMany());
        return kept.resolve(name, sha);
    }

    private boolean idle() { return kept.idle(); }

    private void skip(SkippedRow row) { kept.skip(row); }

    private void add(String idx, Map<String, String> m, ImageCell cell, long lineNr, long start, int length) {
        kept.add(idx, m, cell, lineNr, start, length);
    }

    // ---- TSV -------------------------------------------------------------------------------------------

    private int indexColumn;

    private String tsv() {
        scanner = new PandasTable('\t', this::tsvRow);
        String sha = data.stream((b, from, to, offset) -> {
            int start = from;
            if (offset == 0) {
                start += FormatCheck.bom(Arrays.copyOfRange(b, from, Math.min(to, from + 3)));
                scanner.skipStart(start - from);
            }
            utf8.feed(b, start, to, offset - from);
            scanner.feed(b, start, to, offset - from);
        });
        utf8.end();
        scanner.end(data.size());
        if (header == null) throw new IllegalArgumentException(where + ": empty file, expected a header row");
        return sha;
    }

    private void tsvRow(PandasTable.Row r) {
        Utf8Scan.BadByte bad = utf8.firstIn(r.start, r.end);
        if (header == null) {
            if (bad != null) throw new IllegalArgumentException(where + ": header row: " + bad.describe() + "; " + Utf8Scan.FIX);
            if (r.overflow) throw new IllegalArgumentException(where + ": its header row is longer than " + (PandasTable.MAX_ROW_TEXT >> 20) + " MB");
            header = r.fields.stream().map(s -> s == null ? "" : s.strip()).toList();
            scanner.imageColumn(header.lastIndexOf("image")); // as in a map, a repeated column's last value is the one kept
            indexColumn = header.indexOf("index");
            kept.header(header);
            return;
        }
        if (r.fields == null) { // counted only
            if (!r.blank) kept.seen();
            return;
        }
        int number = dataRows++;
        List<String> cells = r.fields;
        if (cells.size() == 1 && (cells.get(0) == null ? r.image == null || r.image.firstNonSpace() < 0 : cells.get(0).isBlank())) return;
        kept.seen();
        if (idle()) {
            scanner.countOnly();
            return;
        }
        String idxCell = indexColumn >= 0 && indexColumn < cells.size() && cells.get(indexColumn) != null ? cells.get(indexColumn).strip() : null;
        String who = idxCell != null ? idxCell : "line " + r.line;
        if (bad != null) {
            skip(new SkippedRow(who, bad.describe() + "; " + Utf8Scan.FIX, r.line));
            return;
        }
        if (r.overflow) {
            skip(new SkippedRow(who, "its text outside the image is longer than " + (PandasTable.MAX_ROW_TEXT >> 20)
                    + " MB (a quote opened and never closed, or a missing newline?)", r.line));
            return;
        }
        if (cells.size() != header.size()) {
            skip(new SkippedRow(who, "has " + cells.size() + " fields, the header has " + header.size()
                    + " (a tab or newline inside an unquoted field?)", r.line));
            return;
        }
        if (r.end - r.start > Integer.MAX_VALUE - 16) {
            skip(new SkippedRow(who, "is larger than 2 GB", r.line));
            return;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int c = 0; c < header.size(); c++) if (cells.get(c) != null) m.put(header.get(c), cells.get(c));
        String idx = m.containsKey("index") ? m.get("index").strip() : Integer.toString(number);
        add(idx, m, r.image, r.line, r.start, (int) (r.end - r.start));
    }

    // ---- JSONL -----------------------------------------------------------------------------------------

    /** A JSONL line is held whole while it is read; past this, a line is refused (its images belong in files). */
    static long maxJsonlLine() {
        return Math.max(16L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8));
    }

    private byte[] line = new byte[8192];
    private int lineLength;
    private long lineStart, lineNumber = 1;
    private boolean lineTooLong;
    private int lineIndex;

    private String jsonl() {
        long max = maxJsonlLine();
        String sha = data.stream((b, from, to, offset) -> {
            int start = from;
            if (offset == 0) {
                start += FormatCheck.bom(Arrays.copyOfRange(b, from, Math.min(to, from + 3)));
                lineStart = start - from;
            }
            long base = offset - from;
            utf8.feed(b, start, to, base);
            int s = start;
            for (int i = start; i < to; i++) {
                if (b[i] != '\n') continue;
                appendLine(b, s, i + 1, max);
                jsonlLine(base + i + 1);
                s = i + 1;
            }
            appendLine(b, s, to, max);
        });
        utf8.end();
        if (lineLength > 0 || lineTooLong) jsonlLine(data.size());
        return sha;
    }

    private void appendLine(byte[] b, int from, int to, long max) {
        int n = to - from;
        if (n <= 0 || lineTooLong) return;
        if (lineLength + (long) n > max) {
            lineTooLong = true;
            return;
        }
        if (lineLength + n > line.length) line = Arrays.copyOf(line, (int) Math.min(max, Math.max(lineLength + n, 2L * line.length)));
        System.arraycopy(b, from, line, lineLength, n);
        lineLength += n;
    }

    private void jsonlLine(long end) {
        long start = lineStart, number = lineNumber;
        int index = lineIndex;
        boolean tooLong = lineTooLong;
        int length = lineLength;
        lineStart = end;
        lineNumber++;
        lineIndex++;
        lineTooLong = false;
        lineLength = 0;
        Utf8Scan.BadByte bad = utf8.firstIn(start, end);
        String where = "line " + number;
        boolean blank = !tooLong;
        for (int i = 0; i < length && blank; i++) blank = Character.isWhitespace(line[i]);
        if (!blank) kept.seen();
        if (idle()) blank = true; // counted only
        if (tooLong && !idle()) {
            skip(new SkippedRow(where, String.format(Locale.ROOT, "is %.0f MB long, more than the %d MB a JSONL row may hold "
                    + "(keep its images in files named by image_path, or give Java more memory with GAM_JAVA_OPTS=-Xmx...)",
                    (end - start) / 1e6, maxJsonlLine() >> 20), number));
        } else if (!blank) {
            if (bad != null) {
                skip(new SkippedRow(where, bad.describe() + "; " + Utf8Scan.FIX, number));
            } else {
                JsonNode node = null;
                try {
                    node = Json.MAPPER.readTree(line, 0, length);
                } catch (IOException e) {
                    skip(new SkippedRow(where, "not valid JSON: " + BadRowException.firstLine(e.getMessage()), number));
                }
                if (node != null && !node.isObject()) skip(new SkippedRow(where, "not a JSON object", number));
                else if (node != null) {
                    Map<String, String> m = RowFields.jsonlFields(node);
                    String idx = m.containsKey("index") ? m.get("index").strip() : Integer.toString(index);
                    String image = m.get("image");
                    add(idx, m, image == null ? null : ImageCell.of(image), number, start, (int) (end - start));
                }
            }
        }
        if (line.length > 1 << 20) line = new byte[8192]; // a long line's buffer is not kept for the rest of the file
    }

    // ---- M3MAD JSON ------------------------------------------------------------------------------------

    private String m3mad() {
        try (DataBytes.Sequential in = data.sequential((b, from, to, offset) -> utf8.feed(b, from, to, offset - from));
             JsonParser p = Json.MAPPER.getFactory().createParser(in)) {
            try {
                JsonToken t = p.nextToken();
                if (t == JsonToken.START_OBJECT) {
                    boolean found = false;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken v = p.nextToken();
                        if (field.equals("data") && v == JsonToken.START_ARRAY) { found = true; break; }
                        p.skipChildren();
                    }
                    if (!found) throw new IllegalArgumentException(where + ": expected a JSON array of M3MAD records (or {\"data\": [...]})");
                } else if (t != JsonToken.START_ARRAY) {
                    throw new IllegalArgumentException(where + ": expected a JSON array of M3MAD records");
                }
                int position = 0;
                for (JsonToken t2 = p.nextToken(); t2 != JsonToken.END_ARRAY; t2 = p.nextToken()) {
                    if (t2 == null) throw new IllegalArgumentException(where + ": ends inside its list of records");
                    kept.seen();
                    if (idle()) { // counted only
                        p.skipChildren();
                        position++;
                        continue;
                    }
                    JsonLocation at = p.currentTokenLocation();
                    JsonNode o = p.readValueAsTree();
                    long end = p.currentLocation().getByteOffset();
                    m3madRecord(o, position++, at.getByteOffset(), end, at.getLineNr());
                }
            } catch (JsonProcessingException e) {
                utf8.end();
                refuseBadUtf8();
                JsonLocation at = e.getLocation();
                throw new IllegalArgumentException(where + ": not valid JSON: " + BadRowException.firstLine(e.getOriginalMessage())
                        + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
            }
            String sha = in.sha256();
            utf8.end();
            refuseBadUtf8();
            return sha;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + data.name() + ": " + e.getMessage(), e);
        }
    }

    /** One JSON document cannot be read in part: a byte that is not UTF-8 refuses the file, naming where. */
    private void refuseBadUtf8() {
        Utf8Scan.BadByte first = utf8.first();
        if (first != null) {
            throw new IllegalArgumentException(where + ": " + first.describe() + " (" + utf8.badLines() + " line"
                    + (utf8.badLines() == 1 ? "" : "s") + " with such bytes in the file); " + Utf8Scan.FIX);
        }
    }

    private void m3madRecord(JsonNode o, int position, long start, long end, long lineNr) {
        String idx = RowFields.m3madIndex(o, position);
        Map<String, String> m;
        try {
            m = RowFields.m3madFields(o, idx);
        } catch (BadRowException e) {
            skip(new SkippedRow(idx, e.getMessage(), lineNr));
            return;
        }
        if (end - start > Integer.MAX_VALUE - 16) {
            skip(new SkippedRow(idx, "is larger than 2 GB", lineNr));
            return;
        }
        add(idx, m, null, lineNr, start, (int) (end - start));
    }
}
