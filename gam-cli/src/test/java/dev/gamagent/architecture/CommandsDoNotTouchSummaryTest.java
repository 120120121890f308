package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: a run's summary.json is written once, by the evaluation (gam-eval), and read through it; the commands of
 * gam-cli parse options, call it and print. Read from the compiled commands: no class of gam-cli names the file (a
 * string constant that is its name, as a path is made from; a sentence that mentions it is fine) or calls what reads,
 * writes or patches it.
 */
class CommandsDoNotTouchSummaryTest {
    /** What reads, writes or patches a summary file, as {@code class.method} (a class alone: any of its methods). */
    static final List<String> SUMMARY_FILE_CALLS = List.of("dev.gamagent.eval.report.RunSummary.write", "dev.gamagent.eval.report.RunSummary.read");

    @Test void noCommandReadsOrWritesSummaryJson() throws IOException {
        Path classes = ClassFiles.modules(PackageCyclesTest.ROOT).get("gam-cli");
        assertThat(classes).as("gam-cli's compiled classes").isNotNull();
        List<String> problems = new ArrayList<>();
        for (String name : ClassFiles.classNames(classes)) {
            ClassFiles.ConstantPool pool = ClassFiles.constantPool(Files.readAllBytes(classes.resolve(name.replace('.', '/') + ".class")));
            List<String> why = new ArrayList<>();
            for (String s : pool.strings()) if (s.equals("summary.json")) why.add("names the file \"summary.json\"");
            for (String m : pool.methods()) for (String call : SUMMARY_FILE_CALLS) if (m.startsWith(call)) why.add("calls " + m);
            if (!why.isEmpty()) problems.add(name + ": " + String.join("; ", why));
        }
        assertThat(problems).as("commands that read or write summary.json themselves").isEmpty();
    }
}
