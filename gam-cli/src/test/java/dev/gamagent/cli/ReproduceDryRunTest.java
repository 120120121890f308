package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam reproduce --dry-run} sizes the benchmark's images from their headers through the streaming index: a
 * benchmark whose images have intact headers but pixel data that cannot be decoded is planned in full (had the plan
 * decoded them, it would fail on the first row), and its image tokens follow the headers' sizes.
 */
class ReproduceDryRunTest {
    @TempDir Path dir;

    private static byte[] png(int w, int h) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }

    /** The PNG with its IDAT chunk's data overwritten: the header and trailer read, the pixels do not decode. */
    private static byte[] undecodable(int w, int h) throws Exception {
        byte[] png = png(w, h);
        for (int i = 8; i + 8 < png.length; ) {
            int len = ((png[i] & 0xff) << 24) | ((png[i + 1] & 0xff) << 16) | ((png[i + 2] & 0xff) << 8) | (png[i + 3] & 0xff);
            if (new String(png, i + 4, 4, java.nio.charset.StandardCharsets.US_ASCII).equals("IDAT")) {
                for (int k = 0; k < len; k++) png[i + 8 + k] = (byte) 0xA5;
                return png;
            }
            i += 12 + len;
        }
        throw new AssertionError("no IDAT");
    }

    private Path data(int w, int h, int rows) throws Exception {
        Path data = dir.resolve("LMUData-" + w + "x" + h);
        StringBuilder tsv = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        String img = Base64.getEncoder().encodeToString(undecodable(w, h));
        for (int i = 1; i <= rows; i++) tsv.append(i).append('\t').append(i == 1 ? img : "1").append("\tWhich?\tx\ty\tA\tc\n");
        Files.createDirectories(data);
        Files.writeString(data.resolve("MMBench_DEV_EN_V11.tsv"), tsv);
        return data;
    }

    private JsonNode dryRun(Path data, String name) throws Exception {
        Path out = dir.resolve(name);
        CommandRun r = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--methods", "self-debate", "--dry-run", "--out", out.toString(),
                "--data-dir", data.toString(), "--backend", "local");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("images sized from their headers", "MMBench_V11_Test = MMBench_DEV_EN_V11 (MMBench_DEV_EN_V11.tsv): 12 questions",
                "dry run: nothing was asked");
        return Json.MAPPER.readTree(out.resolve("plan.json").toFile());
    }

    @Test void theDryRunPlansABenchmarkWhosePixelsItNeverDecodes() throws Exception {
        // 6 rows, each 2-option question rotated twice (circular): 12 questions; rows 2-6 name row 1's image
        JsonNode small = dryRun(data(64, 64, 6), "small");
        JsonNode large = dryRun(data(1280, 960, 6), "large");
        double s = small.at("/runs/0/methods/0/promptTokens/high").asDouble(), l = large.at("/runs/0/methods/0/promptTokens/high").asDouble();
        assertThat(small.at("/runs/0/questions").asInt()).isEqualTo(12);
        // the larger header's images cost more tokens at the most: the sizes came from the headers
        assertThat(l).isGreaterThan(s);
    }
}
