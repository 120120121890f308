package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gam demo} run once per test JVM, as a user runs it (the built-in model, the bundled questions, every method of
 * the demo), for the tests that compare the docs with what it prints ({@link ReadmeDemoTableTest},
 * {@code DocTablesTest}): the demo is the most expensive run in {@code mvn verify} (about a minute on 2 cores), so it is
 * kept for the JVM's life rather than run by each of them. Surefire runs a module's test classes in one JVM.
 */
public final class DemoRun {
    private static DemoRun done; // the one run of this JVM: memoised because it costs a minute, never changed after

    private final Path dir;
    private final CommandRun run;

    private DemoRun(Path dir, CommandRun run) {
        this.dir = dir;
        this.run = run;
    }

    /** The demo's run, made on the first call. */
    public static synchronized DemoRun get() {
        if (done == null) {
            try {
                Path dir = Files.createTempDirectory("gam-demo-run");
                done = new DemoRun(dir, CommandRun.of(new DemoCommand(), "--out", dir.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make a directory for the demo's run", e);
            }
        }
        return done;
    }

    /** The demo's exit code, standard output (the table) and standard error. */
    public CommandRun run() { return run; }

    /** Its {@code results.jsonl}, every answer with its trace. */
    public Path results() { return dir.resolve("results.jsonl"); }

    /** What the demo prints from the method table's header to its {@code grading:} line (the README's block). */
    public List<String> printedTables() {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : run.out().lines().toList()) {
            if (!in && l.startsWith("method ")) in = true;
            if (in) out.add(l);
            if (in && l.startsWith("grading:")) break;
        }
        return out;
    }
}
