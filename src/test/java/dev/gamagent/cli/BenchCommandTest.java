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
