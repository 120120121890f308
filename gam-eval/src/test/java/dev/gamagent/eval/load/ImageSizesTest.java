package dev.gamagent.eval.load;

import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.eval.recipe.CostEstimate;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.testing.TestVideos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link EvalQuestion#imageSizes}: what {@code gam reproduce --dry-run} sizes a benchmark by, read from each image's
 * header through the streaming index, one row at a time, without decoding a pixel — so a plan of a multi-GB benchmark
 * holds the rows in flight, not the file, and costs no decode.
 */
class ImageSizesTest {
    @TempDir Path dir;

    private static String row(String... cells) { return String.join("\t", cells) + "\n"; }

    /** A PNG whose header and trailer are intact but whose pixel data is not: its header reads, it does not decode. */
    static byte[] pngWithBrokenPixels(int w, int h) {
        byte[] png = TestImages.png(w, h, Color.ORANGE);
        for (int i = 8; i + 8 < png.length; ) {
            int len = ((png[i] & 0xff) << 24) | ((png[i + 1] & 0xff) << 16) | ((png[i + 2] & 0xff) << 8) | (png[i + 3] & 0xff);
            String type = new String(png, i + 4, 4, java.nio.charset.StandardCharsets.US_ASCII);
            if (type.equals("IDAT")) {
                for (int k = 0; k < len; k++) png[i + 8 + k] = (byte) 0xA5; // not a zlib stream
                return png;
            }
            i += 12 + len;
        }
        throw new AssertionError("no IDAT chunk");
    }

    /** A JPEG with an APP segment of {@code padding} bytes before its frame header, so its header lies past the first 6 KiB. */
    static byte[] jpegWithLateHeader(int w, int h, int padding) throws Exception {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        byte[] jpg = out.toByteArray();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(jpg, 0, 2); // SOI
        b.write(0xFF);
        b.write(0xEC); // APP12, ignored by readers
        b.write((padding + 2) >> 8);
        b.write((padding + 2) & 0xff);
        b.write(new byte[padding]);
        b.write(jpg, 2, jpg.length - 2);
        return b.toByteArray();
    }

    private static List<int[]> dims(EvalQuestion q) {
        return q.imageSizes().stream().map(h -> new int[]{h.width(), h.height()}).toList();
    }

    @Test void sizesComeFromTheHeadersOfInlineReferencedListedAndFileImagesWithoutDecodingThem() throws Exception {
        String broken = Base64.getEncoder().encodeToString(pngWithBrokenPixels(300, 200));
        String late = Base64.getEncoder().encodeToString(jpegWithLateHeader(64, 48, 9000));
        String list = "['" + TestImages.base64(8, 9, Color.BLUE) + "', '" + broken + "']";
        Files.write(Files.createDirectories(dir.resolve("imgs")).resolve("b.png"), pngWithBrokenPixels(120, 80));
        String tsv = row("index", "image", "image_path", "question", "A", "B", "answer", "category")
                + row("1", broken, "", "What is it?", "x", "y", "A", "c")
                + row("2", "1", "", "And now?", "x", "y", "B", "c")          // row 1's image, by reference
                + row("3", list, "", "Which?", "x", "y", "A", "c")
                + row("4", late, "", "Late header?", "x", "y", "A", "c")
                + row("5", "", "imgs/b.png", "From a file?", "x", "y", "A", "c");
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("bench.tsv"), tsv));
        assertThat(d.skipped()).isEmpty();
        List<EvalQuestion> qs = d.questions();
        assertThat(dims(qs.get(0))).containsExactly(new int[]{300, 200});
        assertThat(dims(qs.get(1))).containsExactly(new int[]{300, 200});
        assertThat(dims(qs.get(2))).containsExactly(new int[]{8, 9}, new int[]{300, 200});
        assertThat(dims(qs.get(3))).containsExactly(new int[]{64, 48});
        assertThat(dims(qs.get(4))).containsExactly(new int[]{120, 80});
        // nothing was decoded: the same rows' pixels do not decode at all
        assertThatThrownBy(() -> qs.get(0).question()).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> qs.get(4).question()).isInstanceOf(RuntimeException.class);
        // a rotation (circular evaluation) has its row's sizes
        assertThat(dims(CircularExpansion.expand(List.of(qs.get(0))).get(1))).containsExactly(new int[]{300, 200});
    }

    @Test void theSizesGiveTheSameEstimateAsTheDecodedImages() throws Exception {
        String tsv = row("index", "image", "question", "A", "B", "answer")
                + row("1", TestImages.base64(640, 480, Color.RED), "Color?", "red", "blue", "A")
                + row("2", "['" + TestImages.base64(33, 1000, Color.GREEN) + "', '" + TestImages.base64(1001, 7, Color.GREEN) + "']", "Which?", "x", "y", "B");
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("ok.tsv"), tsv));
        Config c = Config.defaults();
        for (EvalQuestion q : d.questions()) {
            Question text = q.shell().question().withImages(List.of());
            for (String methods : List.of("single", "dream+debate")) {
                assertThat(CostEstimate.size(text, q.imageSizes(), methods, c, null).imageTokens())
                        .isEqualTo(CostEstimate.size(q.question().question(), methods, c, null).imageTokens()).isPositive();
            }
        }
    }

    @Test void aRowsVideoIsSizedFromItsStreamTimesTheFramesTaken() throws Exception {
        TestVideos.make(Files.createDirectories(dir.resolve("v")).resolve("clip.mp4"), TestVideos.Kind.MP4_H264, 24, 8);
        String jsonl = "{\"index\": \"1\", \"video\": \"v/clip.mp4\", \"question\": \"Which way?\", \"A\": \"left\", \"B\": \"right\", \"answer\": \"A\"}\n";
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("video.jsonl"), jsonl));
        EvalQuestion q = d.questions().get(0);
        List<ImageLoader.Header> sizes = q.imageSizes();
        var decoded = q.question().images();
        assertThat(sizes).hasSize(decoded.size()).hasSize(Videos.DEFAULT_FRAMES);
        for (int i = 0; i < sizes.size(); i++) {
            assertThat(sizes.get(i).width()).isEqualTo(decoded.get(i).width());
            assertThat(sizes.get(i).height()).isEqualTo(decoded.get(i).height());
        }
    }
}
