package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 9: {@code --set gam.lambda=NaN} was accepted and recorded in the run. Every command that takes settings
 * now refuses a non-finite number in one line naming the key, before anything runs.
 */
class NonFiniteSetTest {
    @TempDir Path dir;

    @Test void aNonFiniteSettingIsRefusedByEveryCommandBeforeItRuns() throws Exception {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", "2", "--seed", "9", "--out", data.resolve("d.tsv").toString())).isZero();
        CommandRun show = CommandRun.main("config", "show", "--set", "gam.lambda=NaN");
        assertThat(show.code()).isEqualTo(1);
        assertThat(show.err().strip()).isEqualTo("error: --set gam.lambda=NaN: gam.lambda must be a finite number, got 'NaN'");
        Path out = dir.resolve("run");
        CommandRun eval = CommandRun.main("eval", "--data", data.resolve("d.tsv").toString(), "--methods", "single", "--out", out.toString(),
                "--set", "gam.theta_term=-Infinity");
        assertThat(eval.code()).isEqualTo(1);
        assertThat(eval.err()).contains("error: --set gam.theta_term=-Infinity: gam.theta_term must be a finite number, got '-Infinity'");
        assertThat(out.resolve("results.jsonl")).doesNotExist();
        Path file = Files.writeString(dir.resolve("c.json"), "{\"dream\": {\"rho\": 1e999}}");
        CommandRun reproduce = CommandRun.main("reproduce", "dream-table1", "--out", dir.resolve("r").toString(), "--data-dir", data.toString(),
                "--config", file.toString(), "--dry-run");
        assertThat(reproduce.code()).isEqualTo(1);
        assertThat(reproduce.err()).contains("config file " + file + ": dream.rho must be a finite number, got Infinity");
    }
}
