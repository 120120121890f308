package dev.gamagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
