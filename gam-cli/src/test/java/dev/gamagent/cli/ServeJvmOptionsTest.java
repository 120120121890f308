package dev.gamagent.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 3: the launcher starts {@code gam serve} with {@code gam-cli/jvm/serve.options} (G1 with a periodic
 * collection, so the heap a burst grew shrinks back while the server idles; {@code ServeMemoryBurstTest} measures it).
 * The file must hold options this JVM accepts, and the launcher must read it for serve.
 */
class ServeJvmOptionsTest {
    private static final Path OPTIONS = Path.of("gam-cli/jvm/serve.options");

    @Test void theServeOptionsGiveTheHeapBackWhenIdleAndTheJvmAcceptsThem() throws Exception {
        List<String> opts = new ArrayList<>();
        for (String l : Files.readAllLines(OPTIONS)) {
            String o = l.strip();
            if (!o.isEmpty() && !o.startsWith("#")) opts.add(o);
        }
        assertThat(opts).contains("-XX:+UseG1GC").anyMatch(o -> o.startsWith("-XX:G1PeriodicGCInterval="));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(opts);
        cmd.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).containsPattern("UseG1GC\\s+= true").containsPattern("G1PeriodicGCInterval\\s+= 15000")
                .containsPattern("MaxHeapFreeRatio\\s+= 30");
    }

    @Test void theLauncherReadsThemForServe() throws Exception {
        assertThat(Files.readString(Path.of("gam"))).contains("== serve").contains("gam-cli/jvm/serve.options");
    }
}
