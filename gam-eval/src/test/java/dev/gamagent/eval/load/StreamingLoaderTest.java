package dev.gamagent.eval.load;

import dev.gamagent.api.Question;
import dev.gamagent.eval.EvalRunner;
import dev.gamagent.eval.format.ImageCell;
import dev.gamagent.eval.store.RunIdentity;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The indexed loader: one read of the file, rows read again by position, junk refused from its first megabyte. */
class StreamingLoaderTest {
    @TempDir Path dir;

    private static final String HEADER = "index\timage\tquestion\tA\tB\tanswer\tcategory\n";

    private static String row(String... cells) { return String.join("\t", cells) + "\n"; }

    /** The bytes of {@code inner} that the loader asked for, counted. */
    private static final class CountingBytes extends DataBytes {
        private final DataBytes inner;
        long read;

        CountingBytes(DataBytes inner) { this.inner = inner; }

        @Override String name() { return inner.name(); }

        @Override long size() { return inner.size(); }

        @Override byte[] read(long position, int length) {
            byte[] b = inner.read(position, length);
            read += b.length;
            return b;
        }

        @Override InputStream open() throws IOException {
            InputStream in = inner.open();
            return new InputStream() {
                @Override public int read() throws IOException {
                    int b = in.read();
                    if (b >= 0) CountingBytes.this.read++;
                    return b;
                }

                @Override public int read(byte[] b, int off, int len) throws IOException {
                    int n = in.read(b, off, len);
                    if (n > 0) CountingBytes.this.read += n;
                    return n;
                }
            };
        }
    }

    private static Dataset index(DataBytes data, FileFormat format) {
        return IndexPass.index(data, format, data.name(), null, RowFilter.ALL, Images.defaults());
    }

    @Test void randomBytesAreRefusedInOneLineFromTheFirstMegabyte() {
        byte[] junk = new byte[8 << 20];
        new Random(1).nextBytes(junk);
        for (FileFormat f : FileFormat.values()) {
            CountingBytes data = new CountingBytes(DataBytes.of("junk." + f.name().toLowerCase(), junk));
            assertThatThrownBy(() -> index(data, f)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("junk.").hasMessageContaining("not").hasMessageNotContaining("\n");
            assertThat(data.read).as("bytes read before refusing %s", f).isLessThanOrEqualTo(FormatCheck.BYTES);
        }
    }

    @Test void tabSeparatedJunkLinesAreRefusedByTheirHeader() {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(2);
        while (sb.length() < 3 << 20) {
            for (int c = 0; c < 6; c++) sb.append(c == 0 ? "" : "\t").append(Long.toHexString(r.nextLong()));
            sb.append('\n');
        }
        CountingBytes data = new CountingBytes(DataBytes.of("lines.tsv", sb.toString().getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> index(data, FileFormat.TSV))
                .hasMessageStartingWith("lines.tsv: not a VLMEvalKit TSV: its header (line 1) has no 'question' column");
        assertThat(data.read).isLessThanOrEqualTo(FormatCheck.BYTES);
    }

    @Test void aGoodHeaderOverRowsWithoutItsFieldsIsRefusedAsAWhole() {
        StringBuilder sb = new StringBuilder(HEADER);
        for (int i = 0; i < 5000; i++) sb.append("junk ").append(i).append(" without tabs\n");
        assertThatThrownBy(() -> index(DataBytes.of("rows.tsv", sb.toString().getBytes(StandardCharsets.UTF_8)), FileFormat.TSV))
                .hasMessage("rows.tsv: not a VLMEvalKit TSV: none of its first 5000 rows has the header's 7 tab-separated fields "
                        + "(line 2 has 1)");
    }

    @Test void jsonlAndJsonThatAreNotRecordsAreRefusedInOneLine() {
        String notObjects = "[1]\n[2]\n[3]\n[4]\n";
        assertThatThrownBy(() -> index(DataBytes.of("a.jsonl", notObjects.getBytes(StandardCharsets.UTF_8)), FileFormat.JSONL))
                .hasMessageStartingWith("a.jsonl: not JSONL");
        assertThatThrownBy(() -> index(DataBytes.of("b.json", "hello world".getBytes(StandardCharsets.UTF_8)), FileFormat.M3MAD))
                .hasMessageStartingWith("b.json: not an M3MAD JSON file: it starts with 'hello world'");
        assertThatThrownBy(() -> index(DataBytes.of("c.json", "[{\"query\": }]".getBytes(StandardCharsets.UTF_8)), FileFormat.M3MAD))
                .hasMessageStartingWith("c.json: not valid JSON").hasMessageContaining("line 1, column");
    }

    @Test void aQuestionReadsItsRowAgainFromTheFileWhenItStarts() throws Exception {
        String img = TestImages.base64(12, 9, Color.RED);
        Path f = dir.resolve("b.tsv");
        Files.writeString(f, HEADER + row("1", img, "First?", "x", "y", "A", "c") + row("2", img, "Second?", "x", "y", "B", "c"));
        Dataset d = BenchmarkLoader.load(f);
        assertThat(d.sha256()).isEqualTo(RunIdentity.sha256(f));
        assertThat(d.questions()).extracting(EvalQuestion::line).containsExactly(2L, 3L);
        assertThat(d.questions().get(1).question().text()).isEqualTo("Second?");
        assertThat(d.questions().get(1).question().images().get(0).width()).isEqualTo(12);
        Files.writeString(f, HEADER + row("1", img, "Changed?", "x", "y", "A", "c"));
        assertThatThrownBy(() -> d.questions().get(0).question()).hasMessageContaining("changed after it was indexed");
    }

    @Test void rowsThatNameAnotherRowsImageShareItsCheckedBytesButNotItsPixels() {
        String img = TestImages.base64(40, 30, Color.BLUE);
        String text = HEADER + row("1", img, "Own?", "x", "y", "A", "c") + row("2", "1", "Named?", "x", "y", "B", "c")
                + row("3", "1", "Again?", "x", "y", "A", "c");
        CountingBytes data = new CountingBytes(DataBytes.of("shared.tsv", text.getBytes(StandardCharsets.UTF_8)));
        Dataset d = index(data, FileFormat.TSV);
        Picture second = d.questions().get(1).question().images().get(0);
        long before = data.read;
        Picture third = d.questions().get(2).question().images().get(0);
        // the third question read its own row, not row 1's image again
        assertThat(data.read - before).isLessThan(img.length());
        assertThat(second.source()).isEqualTo("row 2");
        assertThat(third.source()).isEqualTo("row 3");
        assertThat(third.base64()).isEqualTo(second.base64()).isEqualTo(img);
        assertThat(third.encoding()).isSameAs(second.encoding());
        assertThat(second.image().getRGB(5, 5) & 0xffffff).isEqualTo(Color.BLUE.getRGB() & 0xffffff);
        assertThat(third.isDecoded()).as("one question's pixels are not another's").isFalse();
        assertThat(d.questions().get(0).question().images().get(0).source()).isEqualTo("row 1");
    }

    @Test void aBomAndWindowsLineEndsReadAsTheTextWouldWithout() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        String text = (HEADER + row("7", img, "Q?", "x", "y", "B", "c")).replace("\n", "\r\n");
        byte[] bytes = ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8);
        Path f = Files.write(dir.resolve("bom.tsv"), bytes);
        Dataset d = BenchmarkLoader.load(f);
        assertThat(d.skipped()).isEmpty();
        KeyedQuestion q = d.questions().get(0).question();
        assertThat(q.id()).isEqualTo("7");
        assertThat(q.category()).isEqualTo("c");
        assertThat(q.groundTruth()).isEqualTo("B");
    }

    @Test void aDuplicateIndexNamesTheLineLeftOutAndSkippedRowsSayTheirLine() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        Path f = Files.writeString(dir.resolve("dup.tsv"), HEADER + row("1", img, "Q?", "x", "y", "A", "c")
                + row("2", img, "", "x", "y", "A", "c") + row("1", img, "Again?", "x", "y", "A", "c"));
        Dataset d = BenchmarkLoader.load(f);
        assertThat(d.skipped()).extracting(SkippedRow::toString).containsExactly(
                "row 2 (line 3): empty 'question'",
                "row 1 (line 4): duplicate index: line 4 is left out, the row on line 2 has the same index");
    }

    @Test void aDirectorySaysWhatItLacksAndNamesTheBenchmarkFilesInIt() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        List<DirectoryLayout> layouts = List.of(new TestLayout());
        assertThatThrownBy(() -> load(empty, layouts)).hasMessageContaining(empty + " is a directory, not a benchmark file")
                .hasMessageContaining("TestLayout: a layout.marker file").hasMessageEndingWith("it is empty");
        // gam's own layouts are named when none matches
        assertThatThrownBy(() -> BenchmarkLoader.load(empty)).hasMessageContaining("MVBench: json/").hasMessageNotContaining("TestLayout");
        Path full = Files.createDirectories(dir.resolve("full"));
        Files.writeString(full.resolve("MMBench_DEV_EN.tsv"), HEADER);
        Files.writeString(full.resolve("notes.txt"), "x");
        assertThatThrownBy(() -> load(full, layouts)).hasMessageNotContaining("does not exist")
                .hasMessageEndingWith("it holds MMBench_DEV_EN.tsv: pass one of them, e.g. --data " + full.resolve("MMBench_DEV_EN.tsv"));
        Files.writeString(full.resolve("layout.marker"), "");
        assertThat(load(full, layouts).name()).isEqualTo("test layout");
    }

    private static Dataset load(Path dir, List<DirectoryLayout> layouts) {
        return BenchmarkLoader.load(dir, RowFilter.ALL, Images.defaults(), BenchmarkLoader.Progress.NONE, layouts);
    }

    /** A directory layout for the test above, passed to the loader. */
    public static final class TestLayout implements DirectoryLayout {
        @Override public String name() { return "TestLayout"; }

        @Override public String expects() { return "a layout.marker file"; }

        @Override public boolean matches(Path d) { return Files.exists(d.resolve("layout.marker")); }

        @Override public Dataset load(Path d, RowFilter filter, Images images) {
            return new Dataset("test layout", List.of(), List.of());
        }
    }

    private static String noisePngBase64(int w, int h) throws IOException {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(3);
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) img.setRGB(x, y, r.nextInt());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    @Test void aLongImageIsCheckedFromItsHeaderAsItPassesAndWholeWhenItsQuestionStarts() throws Exception {
        String big = noisePngBase64(300, 300);
        assertThat(big.length()).isGreaterThan(ImageCell.PREFIX);
        String truncated = big.substring(0, big.length() - 4000);
        Path f = Files.writeString(dir.resolve("long.tsv"), HEADER + row("1", big, "Q?", "x", "y", "A", "c")
                + row("2", truncated, "Q?", "x", "y", "A", "c") + row("3", "1", "Same image?", "x", "y", "A", "c"));
        Dataset d = BenchmarkLoader.load(f);
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("1", "2", "3");
        assertThat(d.questions().get(0).question().images().get(0).width()).isEqualTo(300);
        assertThat(d.questions().get(2).question().images().get(0).width()).isEqualTo(300);
        // the cut image passed the header check; its question's start finds the damage, as a bad row the runner reports
        assertThatThrownBy(() -> d.questions().get(1).question()).isInstanceOf(ImageException.class).hasMessageContaining("row 2");
        assertThat(EvalRunner.isBadInput(catchRuntime(() -> d.questions().get(1).question()))).isTrue();
    }

    @Test void aLongImageWhoseHeaderIsTooLargeIsSkippedAtLoad() throws Exception {
        String big = noisePngBase64(300, 300);
        Path f = Files.writeString(dir.resolve("large.tsv"), HEADER + row("1", big, "Q?", "x", "y", "A", "c"));
        var limits = new Images(new dev.gamagent.image.ImageLoader(200 * 200), 0, "image.max_question_megapixels");
        Dataset d = BenchmarkLoader.load(f, RowFilter.ALL, limits);
        assertThat(d.questions()).isEmpty();
        assertThat(d.skipped()).singleElement().satisfies(s -> assertThat(s.reason()).contains("300x300 pixels").contains("larger than the limit"));
    }

    @Test void thePerQuestionPixelLimitHoldsWhenTheImagesAreDecodedToo() throws Exception {
        String a = TestImages.base64(30, 30, Color.RED);
        String multi = "['" + a + "', '" + a + "']";
        Path f = Files.writeString(dir.resolve("multi.tsv"), HEADER + row("1", multi, "Q?", "x", "y", "A", "c"));
        var strict = new Images(dev.gamagent.image.ImageLoader.withMaxMegapixels(100), 1500, "image.max_question_megapixels");
        assertThat(BenchmarkLoader.load(f, RowFilter.ALL, strict).skipped()).singleElement()
                .satisfies(s -> assertThat(s.reason()).startsWith("its first 2 images hold"));
        // what the index pass could not check (a list too long to keep as it passed) is checked when the question starts
        assertThatThrownBy(() -> RowImages.decodeImages("1", Map.of("image", multi), null, null, strict))
                .isInstanceOf(BadRowException.class).hasMessageStartingWith("its first 2 images hold")
                .hasMessageContaining("image.max_question_megapixels");
    }

    @Test void aRowsVideoIsDecodedByTheGivenDecoderWhenItsQuestionStarts() throws Exception {
        Files.createDirectories(dir.resolve("clips"));
        Files.writeString(dir.resolve("clips/a.mp4"), "not really a video");
        Path f = Files.writeString(dir.resolve("v.tsv"), "index\tvideo\tquestion\tA\tB\tanswer\n" + row("1", "clips/a.mp4", "Which way?", "left",
                "right", "B") + row("2", "clips/none.mp4", "Which way?", "left", "right", "B"));
        AtomicReference<Path> asked = new AtomicReference<>();
        Picture frame = RowImages.decode(TestImages.base64(5, 5, Color.BLUE), "frame");
        var images = Images.defaults().withVideo((source, video, row, loader) -> {
            asked.set(video);
            return List.of(frame, frame);
        });
        Dataset d = BenchmarkLoader.load(f, RowFilter.ALL, images);
        assertThat(asked.get()).isNull();
        assertThat(d.skipped()).singleElement().satisfies(s -> assertThat(s.reason()).contains("none.mp4").contains("does not exist"));
        assertThat(d.questions().get(0).question().images()).hasSize(2);
        assertThat(asked.get()).isEqualTo(dir.resolve("clips/a.mp4"));
    }

    @Test void theFileIsReadOnceToIndexItWhateverItsSize() {
        String img = TestImages.base64(4, 4, Color.RED);
        StringBuilder sb = new StringBuilder(HEADER);
        for (int i = 0; i < 3000; i++) sb.append(row(Integer.toString(i), i == 0 ? img : "0", "Q" + i + "?", "x", "y", "A", "c"));
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        CountingBytes data = new CountingBytes(DataBytes.of("once.tsv", bytes));
        Dataset d = index(data, FileFormat.TSV);
        assertThat(d.questions()).hasSize(3000);
        assertThat(data.read).isLessThanOrEqualTo(bytes.length + FormatCheck.BYTES);
    }

    @Test void jsonRecordsAreIndexedByTheirBytesAndReadAgain() throws Exception {
        TestImages.write(dir.resolve("m/a.png"), 10, 10, Color.RED);
        String json = "\uFEFF{\"data\": [\n {\"image_path\": \"m/a.png\", \"query\": \"Colour?\\nA. red\\nB. blue\", \"gt\": \"A\", \"tag\": \"c\"},\n"
                + " {\"image_path\": \"m/a.png\", \"query\": \"Again?\\nA. red\\nB. blue\", \"gt\": \"blue\", \"id\": \"x9\"}\n]}";
        Dataset d = BenchmarkLoader.load(Files.write(dir.resolve("m.json"), json.getBytes(StandardCharsets.UTF_8)));
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("0", "x9");
        assertThat(d.questions()).extracting(EvalQuestion::line).containsExactly(2L, 3L);
        assertThat(d.questions().get(1).question().groundTruth()).isEqualTo("B");
        assertThat(d.questions().get(0).question().images().get(0).width()).isEqualTo(10);
        String jsonl = "{\"index\": 1, \"image\": \"" + TestImages.base64(6, 6, Color.RED) + "\", \"question\": \"Q?\", \"A\": \"x\", \"B\": \"y\", "
                + "\"answer\": \"A\"}\r\n\n{\"index\": 2, \"image\": \"1\", \"question\": \"Q2?\", \"A\": \"x\", \"B\": \"y\", \"answer\": \"B\"}";
        Dataset j = BenchmarkLoader.load(Files.writeString(dir.resolve("j.jsonl"), jsonl));
        assertThat(j.questions()).extracting(EvalQuestion::line).containsExactly(1L, 3L);
        assertThat(j.questions().get(1).question().images().get(0).width()).isEqualTo(6);
    }

    private static RuntimeException catchRuntime(Runnable r) {
        try {
            r.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @Test void aFileWhereEveryLineHoldsLatin1IsReadRowByRow() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        byte[] good = (HEADER + row("1", img, "Q?", "x", "y", "A", "c")).getBytes(StandardCharsets.UTF_8);
        byte[] bad = row("2", img, "Caf\u00e9?", "x", "y", "A", "c").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(good, good.length + bad.length);
        System.arraycopy(bad, 0, all, good.length, bad.length);
        Dataset d = BenchmarkLoader.load(Files.write(dir.resolve("latin.tsv"), all));
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("1");
        assertThat(d.skipped()).singleElement().satisfies(s -> {
            assertThat(s.index()).isEqualTo("2");
            assertThat(s.line()).isEqualTo(3);
            int at = good.length + new String(bad, StandardCharsets.ISO_8859_1).indexOf('\u00e9');
            assertThat(s.reason()).startsWith("byte 0xE9 at offset " + at + " (line 3) is not valid UTF-8");
        });
        List<String> ids = new ArrayList<>();
        d.questions().forEach(q -> ids.add(q.id()));
        assertThat(ids).containsExactly("1");
    }
}
