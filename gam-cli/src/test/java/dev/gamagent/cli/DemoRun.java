package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gam demo} run once per test JVM, as a user runs it (the built-in model, the bundled questions, every method of
 * the demo), for the tests that compare the docs with what it prints ({@link ReadmeDemoTableTest},
 * {@code DocTablesTest}): the demo is the most expensive run in {@code mvn verify} (about a minute on 2 cores), so it is
 * kept for the JVM's life rather than run by each of them. Surefire runs a module's test classes in several JVMs at once
 * ({@code gam.test.forks}): within one Maven run ({@code gam.test.session}, set by the build) the first JVM to ask runs
 * the demo into a directory named for the run while holding a file lock, and the others wait for it and read what it
 * wrote. Without the property (a test started by hand) each JVM runs its own.
 */
public final class DemoRun {
    private static DemoRun done; // the one run of this JVM: memoised because it costs a minute, never changed after

    private final Path dir;
    private final CommandRun run;

    private DemoRun(Path dir, CommandRun run) {
        this.dir = dir;
        this.run = run;
    }

    /** The demo's run, made on the first call (or by another JVM of the same Maven run). */
    public static synchronized DemoRun get() {
        if (done == null) {
            String session = System.getProperty("gam.test.session", "");
            try {
                done = session.isBlank() || session.contains("${") ? own() : shared(session);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make or read the demo's run", e);
            }
        }
        return done;
    }

    private static DemoRun own() throws IOException {
        Path dir = Files.createTempDirectory("gam-demo-run");
        return new DemoRun(dir, CommandRun.of(new DemoCommand(), "--out", dir.toString()));
    }

    /** The run of this Maven session, made by whichever JVM locks first; its exit code, written last, marks it whole. */
    private static DemoRun shared(String session) throws IOException {
        String root = Integer.toHexString(Path.of(System.getProperty("gam.root", ".")).toAbsolutePath().normalize().hashCode());
        Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "gam-demo-run-" + session + "-" + root));
        Path run = dir.resolve("run"), code = dir.resolve("exit-code"), out = dir.resolve("stdout"), err = dir.resolve("stderr");
        try (FileChannel ch = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = ch.lock()) {
            if (!Files.exists(code)) {
                CommandRun r = CommandRun.of(new DemoCommand(), "--out", Files.createDirectories(run).toString());
                Files.writeString(out, r.out());
                Files.writeString(err, r.err());
                Files.writeString(code, Integer.toString(r.code()));
            }
            return new DemoRun(run, new CommandRun(Integer.parseInt(Files.readString(code).strip()), Files.readString(out), Files.readString(err)));
        }
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
