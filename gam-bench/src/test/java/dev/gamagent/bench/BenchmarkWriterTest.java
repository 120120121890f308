package dev.gamagent.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkWriterTest {
    private static final List<BenchItem> ITEMS = new BenchmarkGenerator(3).generate(6, Arrays.asList(Family.values()));

    @Test
    void writesAVlmEvalKitTsvWhoseImagesDecodeToTheGeneratedPictures(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("bench.tsv");
        new BenchmarkWriter().write(ITEMS, out);
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(ITEMS.size() + 1);
        assertThat(lines.get(0).split("\t")).containsExactly("index", "image", "question", "hint", "A", "B", "C", "D",
                "answer", "category", "l2-category", "split", "difficulty");
        for (int i = 0; i < ITEMS.size(); i++) {
            String[] f = lines.get(i + 1).split("\t", -1);
            BenchItem it = ITEMS.get(i);
            assertThat(f).hasSize(13);
            assertThat(f[0]).isEqualTo(String.valueOf(it.index()));
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(f[1])));
            assertThat(img.getWidth()).isEqualTo(it.image().getWidth());
            assertThat(img.getRGB(img.getWidth() / 2, img.getHeight() / 2)).isEqualTo(it.image().getRGB(img.getWidth() / 2, img.getHeight() / 2));
            assertThat(f[2]).isEqualTo(it.question());
            assertThat(f[4]).isEqualTo(it.options().get("A"));
            assertThat(f[8]).isEqualTo(it.answer());
            assertThat(f[9]).isEqualTo(it.category());
            assertThat(f[10]).isEqualTo(it.l2Category());
            assertThat(f[11]).isEqualTo("test");
        }
    }

    @Test
    void writesAnM3madJsonListWithImageFilesBesideIt(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("m3mad.json");
        new BenchmarkWriter().write(ITEMS, out);
        JsonNode arr = Json.MAPPER.readTree(out.toFile());
        assertThat(arr.isArray()).isTrue();
        assertThat(arr).hasSize(ITEMS.size());
        for (int i = 0; i < ITEMS.size(); i++) {
            JsonNode o = arr.get(i);
            BenchItem it = ITEMS.get(i);
            assertThat(o.get("gt").asText()).isEqualTo(it.answer());
            assertThat(o.get("tag").asText()).isEqualTo(it.category());
            assertThat(o.get("source").asText()).isEqualTo("gam-synthetic");
            String[] query = o.get("query").asText().split("\n");
            assertThat(query[0]).isEqualTo(it.question());
            assertThat(query).hasSize(1 + it.options().size());
            assertThat(query[1]).isEqualTo("A. " + it.options().get("A"));
            Path img = dir.resolve(o.get("image_path").asText());
            assertThat(img).exists();
            assertThat(ImageIO.read(img.toFile()).getHeight()).isEqualTo(it.image().getHeight());
        }
    }

    @Test
    void writesJsonlWithTheTsvFieldsAndAnImagePath(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("items.jsonl");
        new BenchmarkWriter().write(ITEMS, out);
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(ITEMS.size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode o = Json.MAPPER.readTree(lines.get(i));
            assertThat(o.get("question").asText()).isEqualTo(ITEMS.get(i).question());
            assertThat(o.get("answer").asText()).isEqualTo(ITEMS.get(i).answer());
            assertThat(o.get("l2-category").asText()).isEqualTo(ITEMS.get(i).l2Category());
            assertThat(dir.resolve(o.get("image_path").asText())).exists();
        }
    }

    @Test
    void refusesAnOutputFileWithAnUnknownExtension() {
        assertThatThrownBy(() -> BenchmarkWriter.formatOf(Path.of("out.csv")))
                .hasMessageContaining("out.csv").hasMessageContaining(".tsv");
    }

    /**
     * The bundled demo set is provably the generator's output ({@code gam bench generate --n 60 --seed 7
     * --hard-fraction 0.5}): same questions, options, answers and image sizes.
     */
    @Test
    void bundledDemoTsvIsWhatTheGeneratorProducesForSeedSevenWithHalfHardItems() throws IOException {
        List<String> bundled;
        try (InputStream in = BenchmarkWriterTest.class.getResourceAsStream("/bench/demo.tsv")) {
            assertThat(in).as("gam-bench/src/main/resources/bench/demo.tsv").isNotNull();
            bundled = Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
        List<BenchItem> items = new BenchmarkGenerator(7, 0.5).generate(60, Arrays.asList(Family.values()));
        assertThat(bundled).hasSize(61);
        for (int i = 0; i < items.size(); i++) {
            String[] want = BenchmarkWriter.tsvRow(items.get(i)).split("\t", -1);
            String[] got = bundled.get(i + 1).split("\t", -1);
            // Text pixels depend on the JDK's font rasteriser, so compare everything except the image bytes.
            for (int c = 0; c < want.length; c++) if (c != 1) assertThat(got[c]).as("row %d column %d", i, c).isEqualTo(want[c]);
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(got[1])));
            assertThat(img.getWidth()).isEqualTo(items.get(i).image().getWidth());
            assertThat(img.getHeight()).isEqualTo(items.get(i).image().getHeight());
        }
        assertThat(items.stream().filter(it -> it.family() == Family.CHART)).hasSize(10);
    }

    @Test
    void itemsGeneratedOnSeveralThreadsAndWrittenAsTheyComeGiveTheSameFileAsTheListWrittenWhole(@TempDir Path dir) throws IOException {
        // issue 25: `gam bench generate` kept every image until the end; it now writes each item as it is made
        List<Family> families = Arrays.asList(Family.values());
        for (String ext : List.of("tsv", "json", "jsonl")) {
            Path whole = dir.resolve("whole/b." + ext), streamed = dir.resolve("streamed/b." + ext);
            new BenchmarkWriter().write(new BenchmarkGenerator(3).generate(9, families), whole);
            List<Integer> order = new java.util.ArrayList<>();
            int n = BenchmarkWriter.generate(new BenchmarkGenerator(3), 9, families, streamed, 3, it -> order.add(it.index()));
            assertThat(n).isEqualTo(9);
            assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
            assertThat(Files.readString(streamed)).as(ext).isEqualTo(Files.readString(whole).replace("whole/", "streamed/"));
        }
    }

    /** One home for the JSONL row (BenchmarkWriter.JsonlColumns): an image row and a video row name the same columns in one order. */
    @Test
    void imageAndVideoRowsWriteTheSameColumnsInTheSameOrder() {
        VideoItem video = new VideoGenerator(7, 0.5, RenderStyle.Render.VARIED).generate(0, VideoPhrasings.Kind.DIRECTION);
        List<String> image = columns(BenchmarkWriter.jsonlRecord(ITEMS.get(0), "0.png"), "image_path");
        List<String> clip = columns(VideoRows.record(video, "clips/0"), "video");
        assertThat(image).containsExactly("index", "MEDIA", "question", "hint", "OPTIONS", "answer", "category", "l2-category", "split",
                "difficulty");
        assertThat(clip).isEqualTo(java.util.stream.Stream.concat(image.stream(), java.util.stream.Stream.of("kind")).toList());
    }

    /** The row's column names with the media column and the run of option letters each named once. */
    private static List<String> columns(JsonNode row, String mediaKey) {
        List<String> names = new java.util.ArrayList<>();
        row.fieldNames().forEachRemaining(n -> {
            String c = n.equals(mediaKey) ? "MEDIA" : n.matches("[A-Z]") ? "OPTIONS" : n;
            if (names.isEmpty() || !names.get(names.size() - 1).equals(c)) names.add(c);
        });
        return names;
    }
}
