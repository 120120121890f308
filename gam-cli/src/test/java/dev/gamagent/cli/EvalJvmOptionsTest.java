package dev.gamagent.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the launcher starts {@code gam eval} with the heap policy in {@code gam-cli/jvm/eval.options} (G1 kept near
 * the live data, so peak memory follows the questions in flight rather than the run's length; the figures are
 * {@code bench/perf.sh --only memory}'s). The file must hold options this JVM accepts, and the launcher must read it.
 */
class EvalJvmOptionsTest {
    private static final Path OPTIONS = Path.of("gam-cli/jvm/eval.options");

    static List<String> options() throws Exception {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(OPTIONS)) {
            String o = l.strip();
            if (!o.isEmpty() && !o.startsWith("#")) out.add(o);
        }
        return out;
    }

    @Test
    void theEvalOptionsPickACollectorThatKeepsTheHeapNearTheLiveDataAndTheJvmAcceptsThem() throws Exception {
        List<String> opts = options();
        assertThat(opts).contains("-XX:+UseG1GC", "-XX:GCTimeRatio=4");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(opts);
        cmd.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).containsPattern("UseG1GC\\s+= true").containsPattern("MaxHeapFreeRatio\\s+= 30").containsPattern("MinHeapFreeRatio\\s+= 10")
                .containsPattern("GCTimeRatio\\s+= 4");
    }

    @Test
    void theLauncherReadsThemForEvalOnlyAndLetsAChosenCollectorWin() throws Exception {
        String launcher = Files.readString(Path.of("gam"));
        assertThat(launcher).contains("gam-cli/jvm/eval.options").contains("== eval").contains("-XX:+UseSerialGC")
                .contains("GAM_JAVA_OPTS:-}\" =~ -XX:\\+Use");
    }
}
