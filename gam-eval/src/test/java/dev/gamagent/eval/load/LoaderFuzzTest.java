package dev.gamagent.eval.load;

import dev.gamagent.image.ImageException;
import dev.gamagent.testing.Fuzz;
import dev.gamagent.testing.FuzzRun;
import dev.gamagent.testing.Pngs;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * Fuzzing of the benchmark loaders: VLMEvalKit TSV, JSONL and M3MAD JSON built from the real
 * column names with good, broken and hostile cells, then cut, spliced and salted with invalid UTF-8. A file
 * may be refused as a whole (IllegalArgumentException naming it) and a row may be skipped; decoding a
 * loaded question's images may fail with an ImageException or a bad-row error; nothing else may escape.
 */
class LoaderFuzzTest {
    private static final Path BASE = baseDir();
    private static final List<String> COLUMNS = List.of("index", "image", "image_path", "question", "hint", "A", "B", "C", "D", "answer",
            "category", "l2-category", "split", "question_type");
    private static final String PNG = Base64.getEncoder().encodeToString(TestImages.png(6, 4, Color.RED));
    private static final List<String> CELLS = List.of("", "nan", "NaN", "1", "2", "0", "-1", "A", "B", "c", "red", "What colour?", "Q?\nA. x\nB. y",
            PNG, PNG.substring(0, PNG.length() / 2), "['" + PNG + "', '" + PNG + "']", "[]", "[", "['a'", "\"[1, 2]\"",
            Base64.getEncoder().encodeToString(Pngs.claiming(20_000, 20_000)), Base64.getEncoder().encodeToString(Pngs.claiming(0, 5)),
            "%%%not base64%%%" + "x".repeat(70), "a.png", "frames", "missing.png", "../a.png", "/etc/passwd", "multi-choice", "open",
            "\"quoted\ttab\"", "\"line\nbreak\"", "\"\"", "\"", "\uFFFD", "\uD83D\uDE00", "12345678901234567890");

    private static Path baseDir() {
        try {
            Path d = Files.createTempDirectory("gam-loader-fuzz");
            Files.write(d.resolve("a.png"), TestImages.png(5, 5, Color.BLUE));
            Files.createDirectories(d.resolve("frames"));
            Files.write(d.resolve("frames/f1.png"), TestImages.png(4, 4, Color.GREEN));
            Files.write(d.resolve("frames/f2.png"), Pngs.claiming(7, 7));
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String cell(Random r) {
        return r.nextInt(6) == 0 ? Fuzz.randomString(r, 10) : CELLS.get(r.nextInt(CELLS.size()));
    }

    static byte[] tsv(Random r) {
        List<String> header = new ArrayList<>();
        for (String c : COLUMNS) if (r.nextInt(3) > 0) header.add(c);
        java.util.Collections.shuffle(header, r);
        StringBuilder sb = new StringBuilder(String.join("\t", header)).append('\n');
        int rows = r.nextInt(7);
        for (int i = 0; i < rows; i++) {
            List<String> cells = new ArrayList<>();
            int n = header.size() + (r.nextInt(8) == 0 ? r.nextInt(3) - 1 : 0);
            for (int c = 0; c < n; c++) cells.add(c < header.size() && header.get(c).equals("index") && r.nextBoolean() ? Integer.toString(i) : cell(r));
            sb.append(String.join("\t", cells)).append(r.nextInt(10) == 0 ? "\r\n" : "\n");
        }
        return salt(sb.toString(), r);
    }

    static byte[] jsonl(Random r) {
        StringBuilder sb = new StringBuilder();
        int rows = r.nextInt(6);
        for (int i = 0; i < rows; i++) {
            var o = Json.MAPPER.createObjectNode();
            for (String c : COLUMNS) if (r.nextBoolean()) o.put(c, cell(r));
            if (r.nextInt(5) == 0) o.set("index", Fuzz.json(r, 2, COLUMNS, CELLS));
            sb.append(Json.write(o)).append('\n');
        }
        return salt(sb.toString(), r);
    }

    static byte[] m3mad(Random r) {
        var arr = Json.MAPPER.createArrayNode();
        int rows = r.nextInt(6);
        List<String> fields = List.of("image_path", "query", "gt", "tag", "source", "id", "index");
        for (int i = 0; i < rows; i++) {
            if (r.nextInt(6) == 0) { arr.add(Fuzz.json(r, 2, fields, CELLS)); continue; }
            var o = arr.addObject();
            for (String f : fields) if (r.nextInt(3) > 0) o.put(f, f.equals("query") ? Fuzz.reply(r) : cell(r));
        }
        String text = r.nextInt(5) == 0 ? "{\"data\": " + Json.write(arr) + "}" : Json.write(arr);
        return salt(text, r);
    }

    /** Sometimes mutated as text, sometimes with invalid UTF-8 bytes. */
    private static byte[] salt(String text, Random r) {
        String t = r.nextInt(4) == 0 ? Fuzz.mutate(text, r, List.of("\t", "\n", "\"", "nan", PNG)) : text;
        byte[] b = t.getBytes(StandardCharsets.UTF_8);
        return r.nextInt(4) == 0 ? Fuzz.withBadUtf8(b, r) : b;
    }

    /** Loads, then decodes every loaded question as a run would; only the documented failures are allowed. */
    private static void load(byte[] file, String kind) {
        Dataset d;
        try {
            d = switch (kind) {
                case "tsv" -> BenchmarkLoader.fromBytes("f.tsv", file, FileFormat.TSV, BASE, RowFilter.ALL,
                        Images.defaults());
                case "jsonl" -> BenchmarkLoader.fromBytes("f.jsonl", file, FileFormat.JSONL, BASE, RowFilter.ALL,
                        Images.defaults());
                default -> BenchmarkLoader.fromBytes("f.json", file, FileFormat.M3MAD, BASE, RowFilter.ALL,
                        Images.defaults());
            };
        } catch (IllegalArgumentException wholeFileRefused) {
            org.assertj.core.api.Assertions.assertThat(wholeFileRefused.getMessage()).startsWith("f.").doesNotContain("\n");
            return;
        }
        for (SkippedRow s : d.skipped()) org.assertj.core.api.Assertions.assertThat(s.reason()).isNotBlank();
        for (EvalQuestion q : CircularExpansion.expand(d.questions())) {
            try {
                q.question();
            } catch (ImageException | BadRowException badInputFoundWhenDecoding) {
                // reported as a skipped row by the runner
            }
        }
    }

    @Test void anyTsvLoadsOrIsRefusedByName() { FuzzRun.check("TSV loader", LoaderFuzzTest::tsv, f -> load(f, "tsv")); }

    @Test void anyJsonlLoadsOrIsRefusedByName() { FuzzRun.check("JSONL loader", LoaderFuzzTest::jsonl, f -> load(f, "jsonl")); }

    @Test void anyM3madFileLoadsOrIsRefusedByName() { FuzzRun.check("M3MAD loader", LoaderFuzzTest::m3mad, f -> load(f, "m3mad")); }
}
