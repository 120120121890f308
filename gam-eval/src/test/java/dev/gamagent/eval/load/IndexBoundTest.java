package dev.gamagent.eval.load;

import dev.gamagent.testing.Pngs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 38, item 5: many small rows cannot exhaust the heap. The index keeps a few dozen bytes a row ({@link RowIndex}),
 * {@code --limit} bounds what it keeps, and past its share of the heap it refuses the file in one line naming the rows
 * and the heap. The heap is given to the pass here (a few megabytes), as a small {@code -Xmx} would give it.
 */
class IndexBoundTest {
    @TempDir Path dir;

    private static final String HEADER = "index\timage\tquestion\tA\tB\tanswer\tcategory\n";
    private static final String IMG = TestImages.base64(8, 8, Color.RED);

    /** Row 0 holds the image; rows 1..n-1 name it, as VLMEvalKit's files name a row's image by its index. */
    private static byte[] namingRowZero(int n) {
        StringBuilder sb = new StringBuilder(HEADER);
        sb.append("0\t").append(IMG).append("\tWhat colour?\tred\tblue\tA\tc\n");
        for (int i = 1; i < n; i++) sb.append(i).append("\t0\tWhat colour?\tred\tblue\tA\tc\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Dataset index(byte[] bytes, String name, FileFormat format, RowFilter filter, long heap) {
        return IndexPass.index(DataBytes.of(name, bytes), format, name, null, filter, Images.defaults(), heap);
    }

    @Test void pastItsShareOfTheHeapTheIndexRefusesInOneLineNamingTheRowsAndTheHeap() {
        byte[] file = namingRowZero(100_000);
        assertThatThrownBy(() -> index(file, "many.tsv", FileFormat.TSV, RowFilter.ALL, 4L << 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("many.tsv: its 100,000 rows are more than a Java heap of 4 MB can index: after ")
                .hasMessageContaining("bytes a row), the half of the heap it may use; give Java a larger heap (e.g. GAM_JAVA_OPTS=-Xmx1g")
                .hasMessageEndingWith(", or take fewer questions with --limit N")
                .hasMessageNotContaining("\n");
        // the same rows fit a heap of their size
        assertThat(index(file, "many.tsv", FileFormat.TSV, RowFilter.ALL, 128L << 20).questions()).hasSize(100_000);
    }

    @Test void jsonlAndM3madFilesAreCountedAndRefusedTheSameWay() {
        StringBuilder jsonl = new StringBuilder(), m3mad = new StringBuilder("[");
        for (int i = 0; i < 30_000; i++) {
            jsonl.append("{\"index\": ").append(i).append(", \"image_path\": \"a.png\", \"question\": \"Q?\", \"A\": \"x\", \"B\": \"y\", \"answer\": \"A\"}\n");
            if (i % 7 == 0) jsonl.append('\n'); // blank lines are not rows
            m3mad.append(i == 0 ? "" : ",\n").append("{\"image_path\": \"a.png\", \"query\": \"Q?\\nA. x\\nB. y\", \"gt\": \"A\"}");
        }
        m3mad.append("]");
        assertThatThrownBy(() -> index(jsonl.toString().getBytes(StandardCharsets.UTF_8), "m.jsonl", FileFormat.JSONL,
                RowFilter.ALL, 2L << 20)).hasMessageStartingWith("m.jsonl: its 30,000 rows are more than a Java heap of 2 MB can index");
        assertThatThrownBy(() -> index(m3mad.toString().getBytes(StandardCharsets.UTF_8), "m.json", FileFormat.M3MAD,
                RowFilter.ALL, 2L << 20)).hasMessageStartingWith("m.json: its 30,000 rows are more than a Java heap of 2 MB can index");
    }

    @Test void aLimitBoundsWhatTheIndexKeepsWhateverTheFileHolds() {
        byte[] file = namingRowZero(200_000);
        // half a megabyte cannot hold 200,000 rows, but it holds the three the limit needs
        Dataset d = index(file, "many.tsv", FileFormat.TSV, new RowFilter(2, null), 1L << 20);
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("0", "1");
        assertThat(d.questions().get(1).question().images().get(0).width()).isEqualTo(8);
        assertThat(d.sha256()).as("the whole file is still read for its hash").isEqualTo(
                java.util.HexFormat.of().formatHex(sha256(file)));
    }

    @Test void aLimitedRowNamingAnImageFurtherOnWaitsForItAndTheRestIsNotKept() {
        StringBuilder sb = new StringBuilder(HEADER);
        sb.append("1\t9\tNamed further on?\tred\tblue\tA\tc\n");
        for (int i = 100; i < 100_100; i++) sb.append(i).append("\t").append(IMG).append("\tOwn?\tred\tblue\tB\tc\n");
        sb.append("9\t").append(TestImages.base64(5, 3, Color.BLUE)).append("\tNamed?\tred\tblue\tB\tother\n");
        byte[] file = sb.toString().getBytes(StandardCharsets.UTF_8);
        Dataset d = index(file, "later.tsv", FileFormat.TSV, new RowFilter(1, null), 1L << 20);
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("1");
        assertThat(d.questions().get(0).question().images().get(0).width()).as("row 9's image, of another category").isEqualTo(5);
    }

    @Test void rowsAfterTheLimitAreNotReportedAsSkipped() {
        String text = HEADER + "1\t" + IMG + "\tQ?\tred\tblue\tA\tc\n" + "2\t" + IMG + "\t\tred\tblue\tA\tc\n"
                + "3\t" + IMG + "\tQ?\tred\tblue\tA\tc\n" + "4\ttoo\tfew\n";
        byte[] file = text.getBytes(StandardCharsets.UTF_8);
        Dataset limited = index(file, "s.tsv", FileFormat.TSV, new RowFilter(2, null), 1L << 30);
        assertThat(limited.questions()).extracting(EvalQuestion::id).containsExactly("1", "3");
        assertThat(limited.skipped()).extracting(SkippedRow::index).containsExactly("2");
        Dataset all = index(file, "s.tsv", FileFormat.TSV, RowFilter.ALL, 1L << 30);
        assertThat(all.skipped()).extracting(SkippedRow::index).containsExactly("4", "2");
    }

    /**
     * Random files of the shapes a limit must get right (rows naming images before and after them, repeated indices,
     * broken images, missing files, rows without options in files with options, other categories): the first N
     * questions of a limited load are the first N of the whole index, for every N, with and without a category.
     */
    @Test void aLimitedLoadTakesTheQuestionsTheWholeIndexTakesFirst() throws Exception {
        TestImages.write(dir.resolve("a.png"), 5, 5, Color.GREEN);
        String bad = Base64.getEncoder().encodeToString(Pngs.claiming(20_000, 20_000));
        Random r = new Random(38);
        for (int file = 0; file < 150; file++) {
            StringBuilder sb = new StringBuilder("index\timage\timage_path\tquestion\tA\tB\tanswer\tcategory\n");
            int rows = 3 + r.nextInt(25);
            for (int i = 0; i < rows; i++) {
                String idx = Integer.toString(r.nextInt(rows + 3));
                String image = "", path = "";
                switch (r.nextInt(7)) {
                    case 0, 1 -> image = IMG;
                    case 2 -> image = bad;
                    case 3, 4 -> image = Integer.toString(r.nextInt(rows + 3));
                    case 5 -> path = r.nextBoolean() ? "a.png" : "missing.png";
                    default -> { }
                }
                boolean options = r.nextInt(6) > 0;
                String answer = r.nextInt(8) == 0 ? "" : r.nextBoolean() ? "A" : "blue";
                String line = String.join("\t", idx, image, path, r.nextInt(10) == 0 ? "" : "Q?", options ? "red" : "", options ? "blue" : "",
                        answer, r.nextBoolean() ? "c1" : "c2");
                sb.append(r.nextInt(15) == 0 ? "broken\trow" : line).append('\n');
            }
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            for (String category : new String[] {null, "c1"}) {
                Dataset whole = IndexPass.index(DataBytes.of("f.tsv", bytes), FileFormat.TSV, "f.tsv", dir,
                        new RowFilter(0, category), Images.defaults(), 1L << 30);
                List<String> all = lines(whole.questions());
                for (int n = 1; n <= 5; n++) {
                    Dataset limited = IndexPass.index(DataBytes.of("f.tsv", bytes), FileFormat.TSV, "f.tsv", dir,
                            new RowFilter(n, category), Images.defaults(), 1L << 30);
                    assertThat(lines(limited.questions())).as("file %d, limit %d, category %s:\n%s", file, n, category, sb)
                            .isEqualTo(all.subList(0, Math.min(n, all.size())));
                    assertThat(limited.skipped()).as("file %d, limit %d", file, n).isSubsetOf(whole.skipped());
                    for (EvalQuestion q : limited.questions()) assertThat(q.question().images()).as("file %d: %s", file, q).isNotEmpty();
                }
            }
        }
    }

    /** Each question as "id@line". */
    private static List<String> lines(List<EvalQuestion> qs) {
        List<String> out = new ArrayList<>();
        for (EvalQuestion q : qs) out.add(q.id() + "@" + q.line());
        return out;
    }

    @Test void aRowOfTheIndexIsFortyBytesAndItsIndexText() {
        RowIndex ix = new RowIndex();
        RowIndex.Labels labels = new RowIndex.Labels("c", null, "dev");
        long before = ix.bytes();
        for (int i = 0; i < 100_000; i++) {
            ix.add(1000L * i, 7 + i, i + 2L, Integer.toString(i).getBytes(StandardCharsets.UTF_8), i % 3 == 0 ? "0".getBytes() : null,
                    RowIndex.flags(4, 2) | RowIndex.CANDIDATE, labels);
        }
        double perRow = (ix.bytes() - before) / 100_000.0;
        assertThat(perRow).as("bytes a row").isBetween((double) RowIndex.ROW_BYTES, RowIndex.ROW_BYTES + 12.0);
        assertThat(ix.idx(99_999)).isEqualTo("99999");
        assertThat(ix.name(99_999)).isEqualTo("0");
        assertThat(ix.name(99_998)).isNull();
        assertThat(ix.start(54_321)).isEqualTo(54_321_000L);
        assertThat(ix.length(54_321)).isEqualTo(54_328);
        assertThat(ix.line(54_321)).isEqualTo(54_323L);
        assertThat(ix.options(54_321)).isEqualTo(4);
        assertThat(ix.kind(54_321)).isEqualTo(2);
        assertThat(ix.labels(54_321)).isEqualTo(labels);
        assertThat(ix.target(54_321)).isEqualTo(-1);
        ix.target(54_321, 7);
        ix.set(54_321, RowIndex.CHECKED);
        assertThat(ix.target(54_321)).isEqualTo(7);
        assertThat(ix.has(54_321, RowIndex.CHECKED)).isTrue();
        assertThat(ix.has(54_321, RowIndex.CANDIDATE)).isTrue();
        assertThat(ix.options(54_321)).isEqualTo(4);
        // a long index text gets a pool page of its own
        String longIdx = "x".repeat(100_000);
        int row = ix.add(1, 2, 3, longIdx.getBytes(StandardCharsets.UTF_8), "é".getBytes(StandardCharsets.UTF_8), 0, labels);
        assertThat(ix.idx(row)).isEqualTo(longIdx);
        assertThat(ix.name(row)).isEqualTo("é");
        RowIndex.Lookup byIdx = ix.new Lookup();
        for (int i = 0; i <= row; i++) byIdx.putIfAbsent(i, ix.idx(i).getBytes(StandardCharsets.UTF_8));
        assertThat(byIdx.find("4711".getBytes(StandardCharsets.UTF_8))).isEqualTo(4711);
        assertThat(byIdx.find(longIdx.getBytes(StandardCharsets.UTF_8))).isEqualTo(row);
        assertThat(byIdx.find("nope".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
        assertThat(byIdx.putIfAbsent(row, "12".getBytes(StandardCharsets.UTF_8))).as("the first row under a text stays").isEqualTo(12);
    }

    private static byte[] sha256(byte[] b) {
        return DataBytes.newDigest().digest(b);
    }
}
