package dev.gamagent.eval.data.m3mad;

import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.util.Json;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code gam data build} on small sources in the formats the authors' script reads (Parquet files as Hugging Face
 * snapshots hold them, written by DuckDB; VLMEvalKit's MME_Reasoning.tsv), compared byte for byte with what the
 * authors' own script writes from the same rows (resources m3mad/expected, made by m3mad/authors-script.py, image
 * paths made relative): same rows, same order after the seed-2024 shuffle, same strings.
 */
class M3madBuilderTest {
    @TempDir Path data;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private static Path resources() throws Exception { return Path.of(M3madBuilderTest.class.getResource("/m3mad").toURI()); }

    private static Path source(M3madSet set) throws Exception {
        return set == M3madSet.MME_REASONING ? resources().resolve("sources/MME-Reasoning/MME_Reasoning.tsv") : resources().resolve("sources").resolve(set.repository());
    }

    private M3madBuilder.Result build(M3madSet set, int n) throws Exception {
        return M3madBuilder.build(set, source(set), data, n, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private static String expected(String file) throws Exception { return Files.readString(resources().resolve("expected").resolve(file)); }

    @Test void everySetIsWhatTheAuthorsScriptWritesFromTheSameRowsButForRelativeImagePaths() throws Exception {
        for (M3madSet set : M3madSet.values()) {
            M3madBuilder.Result r = build(set, M3madBuilder.NUM2SAMPLE);
            assertThat(r.json()).isEqualTo(data.resolve("M3MAD").resolve(set.dataset() + ".json"));
            assertThat(Files.readString(r.json())).as(set.benchmark()).isEqualTo(expected(set.dataset() + ".json"));
            JsonNode records = Json.MAPPER.readTree(r.json().toFile());
            for (JsonNode rec : records) {
                String p = rec.get("image_path").asText();
                assertThat(p).startsWith(set.dataset() + "/").doesNotContain(data.toString());
                assertThat(r.json().resolveSibling(p)).as(p).isRegularFile();
            }
            assertThat(Files.readString(r.json())).doesNotContain(data.toString()).doesNotContain("/home/");
        }
    }

    @Test void theDeduplicationAndTheSeedDecideWhichRowsAreKeptAndInWhatOrder() throws Exception {
        M3madBuilder.Result r = build(M3madSet.MME, 3);
        assertThat(Files.readString(r.json())).isEqualTo(expected("MME-num2sample-3.json"));
        assertThat(r.read()).isEqualTo(8);
        assertThat(r.duplicates()).isEqualTo(1);
        assertThat(r.written()).isEqualTo(3);
        JsonNode recs = Json.MAPPER.readTree(r.json().toFile());
        // the shuffle of the seven unique queries, as CPython's random.seed(2024); random.shuffle(list(range(7)))[:3] orders them
        assertThat(List.of(recs.get(0).get("query").asText(), recs.get(1).get("query").asText(), recs.get(2).get("query").asText()))
                .doesNotHaveDuplicates();
    }

    @Test void imagesKeepTheirPixelsAndAreConvertedToRgbWhereTheScriptConverts() throws Exception {
        build(M3madSet.MME, 500);
        build(M3madSet.MATHVISTA, 500);
        build(M3madSet.PATHVQA, 500);
        Map<String, List<Map<String, Object>>> rows = Json.MAPPER.readValue(resources().resolve("rows.json").toFile(),
                new com.fasterxml.jackson.core.type.TypeReference<>() { });
        Path m3mad = data.resolve("M3MAD");
        // MME: no conversion; a PNG named .png is its bytes as they are, alpha included
        byte[] rgba = Base64.getDecoder().decode((String) rows.get("MME").get(3).get("image"));
        assertThat(Files.readAllBytes(m3mad.resolve("MME/count/2.png"))).isEqualTo(rgba);
        // MME: a PNG named .jpg is written as a JPEG, as PIL's save does by the extension
        byte[] jpg = Files.readAllBytes(m3mad.resolve("MME/artwork/10002.jpg"));
        assertThat(jpg[0] & 0xff).isEqualTo(0xff);
        assertThat(jpg[1] & 0xff).isEqualTo(0xd8);
        // MathVista converts to RGB: an RGBA PNG named .png loses its alpha and keeps its colours
        BufferedImage src = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode((String) rows.get("MathVista").get(1).get("decoded_image"))));
        BufferedImage got = ImageIO.read(m3mad.resolve("MathVista/images/2.png").toFile());
        assertThat(src.getColorModel().hasAlpha()).isTrue();
        assertThat(got.getColorModel().hasAlpha()).isFalse();
        assertThat(got.getWidth()).isEqualTo(src.getWidth());
        for (int y = 0; y < src.getHeight(); y++) {
            for (int x = 0; x < src.getWidth(); x++) assertThat(got.getRGB(x, y) & 0xffffff).isEqualTo(src.getRGB(x, y) & 0xffffff);
        }
        // PathVQA numbers its images by their place in the whole split (two files, row groups of two rows)
        byte[] seventh = Base64.getDecoder().decode((String) rows.get("PathVQA").get(6).get("image"));
        assertThat(Files.readAllBytes(m3mad.resolve("PathVQA/image_7.png"))).isEqualTo(seventh);
    }

    @Test void gamLoadsWhatItBuiltWithItsImagesFromRelativePaths() throws Exception {
        for (M3madSet set : M3madSet.values()) {
            M3madBuilder.Result r = build(set, 500);
            Path moved = Files.createDirectories(data.resolve("elsewhere-" + set.dataset()));
            // the JSON and its folder moved together still load: nothing names the machine's paths
            Files.move(r.json(), moved.resolve(r.json().getFileName()));
            Files.move(r.json().resolveSibling(set.dataset()), moved.resolve(set.dataset()));
            Dataset d = BenchmarkLoader.load(moved.resolve(r.json().getFileName()));
            // the one row skipped is MME-Reasoning's whose answer pandas read as missing: the script writes gt "nan"
            long nan = 0;
            for (JsonNode rec : Json.MAPPER.readTree(moved.resolve(r.json().getFileName()).toFile())) if (rec.get("gt").asText().equals("nan")) nan++;
            assertThat(d.skipped()).as(set.benchmark()).hasSize((int) nan).allMatch(s -> s.toString().contains("empty 'answer'"));
            assertThat(nan).isEqualTo(set == M3madSet.MME_REASONING ? 1 : 0);
            assertThat(d.questions()).hasSize(r.written() - (int) nan);
            assertThat(d.questions().get(0).question().question().images()).hasSize(1);
            for (var q : d.questions()) {
                var k = q.question();
                if (!k.question().options().isEmpty()) {
                    // the script's "(B)" is option B
                    assertThat(k.question().options()).as(set.benchmark() + " " + k.id()).containsKey(k.groundTruth());
                } else if (k.question().text().endsWith("Choose the correct answer from the image.")) {
                    // the options are in the image: asked as it is, the script's gt kept
                    assertThat(k.groundTruth()).matches("\\(?[A-E]\\)?"); // MME-reasoning writes "B", the others "(B)"
                }
            }
        }
    }

    @Test void aMissingOrWrongSourceIsOneLineNamingItAndWhereToGetIt() throws Exception {
        Path empty = Files.createDirectories(data.resolve("empty"));
        assertThatThrownBy(() -> M3madBuilder.build(M3madSet.MME, empty, data, 500, System.err))
                .hasMessage("M3MAD_MME: no Parquet file of lmms-lab/MME's 'test' split (test-*.parquet) under " + empty
                        + "; get it with 'huggingface-cli download lmms-lab/MME --repo-type dataset --local-dir " + empty
                        + "' (https://huggingface.co/datasets/lmms-lab/MME)");
        Path wrong = Files.createDirectories(data.resolve("wrong"));
        Files.copy(source(M3madSet.PATHVQA).resolve("data/test-00000-of-00002-f0c1a3b6.parquet"), wrong.resolve("test-00000-of-00001.parquet"));
        assertThatThrownBy(() -> M3madBuilder.build(M3madSet.MME, wrong, data, 500, System.err))
                .hasMessageContaining("M3MAD_MME: " + wrong.resolve("test-00000-of-00001.parquet") + " has no column 'question_id' (it has [image, question, answer])")
                .hasMessageContaining("not lmms-lab/MME's 'test' split as the script reads it (https://huggingface.co/datasets/lmms-lab/MME)");
        assertThatThrownBy(() -> M3madBuilder.build(M3madSet.MME_REASONING, data.resolve("nope.tsv"), data, 500, System.err))
                .hasMessageContaining("M3MAD_MME-reasoning: the source " + data.resolve("nope.tsv") + " is not a file")
                .hasMessageContaining("gam data fetch MME-Reasoning");
        assertThat(data.resolve("M3MAD/MME.json")).doesNotExist();
    }

    @Test void theParquetReaderGivesStructsListsNullsAndIntegers() throws Exception {
        ParquetFile vp = ParquetFile.open(source(M3madSet.VISUALPUZZLES).resolve("data/train-00000-of-00001.parquet"));
        assertThat(vp.rows()).isEqualTo(5);
        assertThat(vp.fields()).containsExactly("id", "category", "image", "question", "options", "answer");
        List<Object> options = vp.column("options", r -> true);
        assertThat(options.get(0)).isEqualTo(List.of("1", "2", "3", "4"));
        assertThat(options.get(1)).isNull();
        assertThat(vp.column("id", r -> true)).containsExactly(1L, 2L, 3L, 4L, 5L);
        List<Object> img = vp.column("image", r -> r == 2);
        assertThat(img.get(0)).isNull();
        assertThat(((Map<?, ?>) img.get(2)).get("bytes")).isInstanceOf(byte[].class);
        assertThat(((Map<?, ?>) img.get(2)).get("path")).isNull();
        ParquetFile mv = ParquetFile.open(source(M3madSet.MATHVISION).resolve("data/test-00000-of-00001.parquet"));
        assertThat(mv.column("options", r -> true).get(2)).isEqualTo(List.of());
        assertThat(mv.column("solution", r -> true)).containsExactly(null, null, "count them", null, null);
        assertThatThrownBy(() -> mv.column("nope", r -> true)).hasMessageContaining("no column 'nope'");
    }

    @Test void aFileThatIsNotParquetIsNamed() throws IOException {
        Path f = Files.writeString(data.resolve("x.parquet"), "not parquet at all");
        assertThatThrownBy(() -> ParquetFile.open(f)).hasMessage(f + ": not a Parquet file (it does not end with PAR1)");
    }
}
