package dev.gamagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BenchCommandTest {
    @Test
    void generatesTheRequestedFamiliesIntoATsv(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("sub/b.tsv");
        int code = Main.run("bench", "generate", "--n", "4", "--seed", "5", "--out", out.toString(), "--families", "count,chart");
        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(5);
        assertThat(lines.subList(1, 5)).allSatisfy(l -> assertThat(l.split("\t")[9]).isIn("count", "chart"));
    }

    @Test
    void failsOnAnUnknownFamily(@TempDir Path dir) {
        assertThat(Main.run("bench", "generate", "--n", "2", "--out", dir.resolve("x.tsv").toString(), "--families", "colour")).isEqualTo(1);
        assertThat(dir.resolve("x.tsv")).doesNotExist();
    }

    @Test
    void generatesOnlyHardItemsWithHardFractionOne(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("h.tsv");
        assertThat(Main.run("bench", "generate", "--n", "6", "--hard-fraction", "1", "--out", out.toString())).isZero();
        assertThat(Files.readAllLines(out).subList(1, 7)).allSatisfy(l -> assertThat(l.split("\t")[12]).isEqualTo("hard"));
    }

    @Test
    void rendersVariedByDefaultAndClassicOnRequest(@TempDir Path dir) throws IOException {
        Path varied = dir.resolve("v.tsv"), classic = dir.resolve("c.tsv");
        assertThat(Main.run("bench", "generate", "--n", "6", "--seed", "7", "--out", varied.toString())).isZero();
        assertThat(Main.run("bench", "generate", "--n", "6", "--seed", "7", "--render", "classic", "--out", classic.toString())).isZero();
        List<String> v = Files.readAllLines(varied), c = Files.readAllLines(classic);
        // Different pictures; the same questions except where the layout decides them (spatial: item 4).
        for (int i = 1; i < 7; i++) {
            String[] a = v.get(i).split("\t"), b = c.get(i).split("\t");
            assertThat(a[1]).isNotEqualTo(b[1]);
            if (i != 5) assertThat(a[2]).as("question of item " + (i - 1)).isEqualTo(b[2]);
        }
        assertThat(Main.run("bench", "generate", "--n", "2", "--render", "fancy", "--out", dir.resolve("x.tsv").toString())).isEqualTo(1);
        assertThat(dir.resolve("x.tsv")).doesNotExist();
    }

    /** The real local model (OCR + classical vision) on six questions at two scales; a few seconds. */
    @Test
    void measuresTheLocalModelPerFamilyScaleAndTierWithPerceptionTimes(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("m.json");
        assertThat(Main.run("bench", "measure", "--n", "6", "--seed", "3", "--scales", "0.5,1", "--out", out.toString())).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.get("questions").asInt()).isEqualTo(6);
        assertThat(j.get("scales")).hasSize(2);
        for (JsonNode s : j.get("scales")) {
            assertThat(s.get("overall").get("total").asInt()).isEqualTo(6);
            int fam = 0, tier = 0;
            for (JsonNode f : s.get("families")) fam += f.get("total").asInt();
            for (JsonNode t : s.get("tiers")) tier += t.get("total").asInt();
            assertThat(fam).isEqualTo(6);
            assertThat(tier).isEqualTo(6);
            assertThat(s.get("families").get("text").get("total").asInt()).isEqualTo(1);
            assertThat(s.get("perception_ms").get("mean").asDouble()).isPositive();
            assertThat(s.get("perception_ms").get("p95").asDouble()).isGreaterThanOrEqualTo(s.get("perception_ms").get("mean").asDouble() * 0.5);
        }
        assertThat(j.get("scales").get(0).get("scale").asDouble()).isEqualTo(0.5);
        assertThat(j.get("command").asText()).endsWith("--render varied");
        JsonNode styles = j.get("scales").get(0).get("styles");
        int filledOrOutlined = styles.path("filled").path("total").asInt() + styles.path("outlined").path("total").asInt();
        assertThat(filledOrOutlined).isEqualTo(6);
    }

    @Test
    void takesTheNearestRankNinetyFifthPercentile() {
        double[] xs = new double[100];
        for (int i = 0; i < 100; i++) xs[i] = 100 - i;
        assertThat(BenchMeasureCommand.p95(xs)).isEqualTo(95.0);
        assertThat(BenchMeasureCommand.mean(new double[]{1, 2, 6})).isEqualTo(3.0);
    }

    @Test
    void refusesANonPositiveScale() {
        assertThat(Main.run("bench", "measure", "--n", "2", "--scales", "0,1")).isEqualTo(1);
    }
}
