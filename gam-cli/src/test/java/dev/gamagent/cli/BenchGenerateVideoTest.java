package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.bench.RenderStyle;
import dev.gamagent.bench.VideoGenerator;
import dev.gamagent.bench.VideoItem;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.image.internal.FrameSelection;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gam bench generate --families video,...}: video rows naming a folder of frames, read back by the loader as the clip's frames. */
class BenchGenerateVideoTest {
    @TempDir Path dir;

    @Test void theVideoFamilyWritesRowsWhoseFramesTheLoaderReadsBack() throws Exception {
        Path out = dir.resolve("v.jsonl");
        assertThat(Main.run("bench", "generate", "--n", "6", "--seed", "11", "--out", out.toString(), "--families", "video,count")).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(6);
        VideoGenerator gen = new VideoGenerator(11, dev.gamagent.bench.Difficulty.DEFAULT_HARD_FRACTION, RenderStyle.Render.VARIED);
        Dataset ds = BenchmarkLoader.load(out);
        assertThat(ds.skipped()).isEmpty();
        assertThat(ds.questions()).hasSize(6);
        for (int i = 0; i < 6; i += 2) { // items 0, 2, 4 are video items; 1, 3, 5 count items
            JsonNode row = Json.MAPPER.readTree(lines.get(i));
            VideoItem item = gen.generate(i);
            assertThat(row.path("video").asText()).isEqualTo("v_videos/" + i);
            assertThat(row.path("category").asText()).isEqualTo("video");
            assertThat(row.path("answer").asText()).isEqualTo(item.answer());
            dev.gamagent.eval.load.KeyedQuestion q = ds.questions().get(i).question();
            assertThat(q.text()).isEqualTo(item.question());
            assertThat(q.options()).isEqualTo(item.options());
            assertThat(q.groundTruth()).isEqualTo(item.answer());
            // the loader's 8 uniform frames of the folder are exactly the frames the item draws there (PNG: lossless)
            List<Picture> sent = q.images();
            List<Picture> drawn = item.pictures(FrameSelection.uniform(8));
            assertThat(sent).hasSize(8);
            for (int k = 0; k < 8; k++) assertThat(same(sent.get(k).image(), drawn.get(k).image())).as("item %d frame %d", i, k).isTrue();
        }
        assertThat(Json.MAPPER.readTree(lines.get(1)).path("image_path").asText()).isEqualTo("v_images/1.png");
        assertThat(ds.questions().get(1).question().images()).hasSize(1);
    }

    @Test void theVideoFamilyNeedsJsonl() {
        assertThat(Main.run("bench", "generate", "--n", "2", "--out", dir.resolve("v.tsv").toString(), "--families", "video")).isEqualTo(1);
        assertThat(dir.resolve("v.tsv")).doesNotExist();
    }

    private static boolean same(BufferedImage a, BufferedImage b) {
        if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) return false;
        for (int y = 0; y < a.getHeight(); y++) for (int x = 0; x < a.getWidth(); x++) if ((a.getRGB(x, y) & 0xFFFFFF) != (b.getRGB(x, y) & 0xFFFFFF)) return false;
        return true;
    }
}
