package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23: `gam reproduce --list` shows the recipes with paper, table and calls per question; --show the figures and the runs. */
class ReproduceCommandTest {
    @Test void listShowsEveryRecipeWithItsPaperTableAndCallsPerQuestion() {
        CommandRun r = CommandRun.main("reproduce", "--list");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("gam-agent-main: GAM-Agent", "gam-agent-kmax", "gam-agent-debate-rounds", "dream-table1: DREAM, Table 1",
                "dream-table4: DREAM, Table 4", "published figures in our text: 75 of", "GAM-Agent 3–21", "DMPL (no method: empty row)",
                "LLM Debate 9", "w/ DREAM 12–18", "one gam run", "57, re-decided by gam sweep");
    }

    @Test void showPrintsTheFiguresTheEmptyCellsAndTheCommandsThatRunTheGrid() {
        CommandRun r = CommandRun.main("reproduce", "--show", "dream-table1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Gemma-3-4B", "79.3", "43.9", "·", "gam eval --data M3MAD_MME --methods single,cot,sc,dwi,debate,dream+debate --out runs/dream-table1/MME");
        CommandRun k = CommandRun.main("reproduce", "--show", "gam-agent-kmax", "--out", "my-runs");
        assertThat(k.out()).contains("gam eval --data MMBench_DEV_EN_V11 --methods gam --out my-runs/gam-agent-kmax/MMBench_V11_Test --set gam.max_rounds=9 --set gam.record_full=true",
                "has no public answers: its stand-in MMBench_DEV_EN_V11", "gam sweep my-runs/gam-agent-kmax/MMBench_V11_Test --max-rounds 0,1,2,3,4,5,6,7,8,9",
                "82.97", "86.53");
        CommandRun main = CommandRun.main("reproduce", "--show", "gam-agent-main");
        assertThat(main.out()).contains("83.54*", "gam eval --data MVBench_8frame --methods single,dmad,chateval,mad,debunc,gam --out runs/gam-agent-main/MVBench_Test", "gam eval --data VStarBench --methods single,dmad,chateval,mad,debunc,gam");
    }

    @Test void helpIsCleanAndNamesTheRunnerItsOptionsAndTheBill() {
        CommandRun h = CommandRun.main("reproduce", "--help");
        assertThat(h.code()).isZero();
        assertThat(h.err()).isEmpty();
        assertThat(h.out()).contains("gam reproduce RECIPE --out DIR", "95 % intervals", "--dry-run", "--pilot", "--paper-model", "--benchmarks",
                "--methods", "--base-url", "--data-dir");
    }

    @Test void runningARecipeNeedsAnOutputDirectoryAndKnownNames() {
        CommandRun r = CommandRun.main("reproduce", "gam-agent-main");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("gam reproduce gam-agent-main needs --out DIR");
        CommandRun bench = CommandRun.main("reproduce", "gam-agent-main", "--out", "x", "--benchmarks", "ChartQA", "--dry-run");
        assertThat(bench.code()).isEqualTo(1);
        assertThat(bench.err()).contains("recipe gam-agent-main has no benchmark 'ChartQA'",
                "MMBench_V11_Test (MMBench_TEST_EN_V11, MMBench_DEV_EN_V11)");
        CommandRun row = CommandRun.main("reproduce", "gam-agent-main", "--out", "x", "--methods", "ToT", "--dry-run");
        assertThat(row.code()).isEqualTo(1);
        assertThat(row.err()).contains("has no row or method 'ToT'", "DMPL (no method)");
        CommandRun unknown = CommandRun.main("reproduce", "--show", "table9");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("no recipe 'table9'", "gam-agent-main");
    }
}
