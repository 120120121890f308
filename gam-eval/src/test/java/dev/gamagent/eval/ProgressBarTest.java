package dev.gamagent.eval;

import dev.gamagent.eval.grade.Outcome;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressBarTest {
    @Test void withoutATerminalItPrintsPlainLinesWithCountsAccuracyAndErrors() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(buf, true, StandardCharsets.UTF_8), false, 3);
        bar.step(Outcome.CORRECT);   // first line: printed at once
        bar.step(Outcome.ERROR);     // within 5 s of the last line: not printed
        bar.step(Outcome.WRONG);     // the last one: always printed
        String[] lines = buf.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("1/3 pairs").contains("acc 1.000").contains("pairs/s").doesNotContain("q/s").contains("ETA");
        assertThat(lines[1]).startsWith("3/3 pairs 100.0%").contains("acc 0.500").contains("errors 1");
        assertThat(buf.toString(StandardCharsets.UTF_8)).doesNotContain("\r");
    }

    @Test void onATerminalItRedrawsOneBarInPlace() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(buf, true, StandardCharsets.UTF_8), true, 2);
        bar.step(Outcome.CORRECT);
        bar.step(Outcome.CORRECT);
        String s = buf.toString(StandardCharsets.UTF_8);
        assertThat(s).startsWith("\r[############            ] 1/2").contains("\r[########################] 2/2").endsWith("\n");
        assertThat(ProgressBar.clock(3725)).isEqualTo("1:02:05");
        assertThat(ProgressBar.clock(65)).isEqualTo("1:05");
    }
}
