package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;
import dev.gamagent.eval.BenchmarkLoader;
import dev.gamagent.eval.Dataset;
import dev.gamagent.eval.Evaluation;
import dev.gamagent.eval.ProgressBar;
import dev.gamagent.eval.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gam demo}: offline, the built-in local model on the bundled benchmark, several methods, a table and a report. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Offline demo: the built-in local model answers the bundled benchmark with several methods; prints a table and writes an HTML report.")
public final class DemoCommand implements Callable<Integer> {
    /** Made by {@code gam bench generate --n 60 --seed 7 --hard-fraction 0.5 --render classic --out gam-local/src/main/resources/bench/demo.tsv}. */
    static final String RESOURCE = "/bench/demo.tsv";
    static final List<String> METHODS = List.of("single", "vote", "debate", "gam", "dream+gam");

    @Option(names = "--out", defaultValue = "runs/demo", description = "output directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--limit", defaultValue = "0", description = "only the first N questions (0 = all)")
    int limit;

    @Option(names = "--concurrency", defaultValue = "2", description = "questions in flight (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--resume", description = "keep results from an earlier demo in --out instead of starting afresh")
    boolean resume;

    private final BackendSource backends;
    private final String resource;

    public DemoCommand() { this(BackendSource.FACTORY, RESOURCE); }

    /** For tests: another backend source and benchmark resource. */
    public DemoCommand(BackendSource backends, String resource) {
        this.backends = backends;
        this.resource = resource;
    }

    @Override public Integer call() throws IOException {
        System.setProperty("java.awt.headless", "true");
        String tsv;
        try (InputStream in = DemoCommand.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the bundled benchmark " + resource + " is missing from the jar; rebuild with "
                        + "`mvn -o package` (it lives in src/main/resources" + resource + ") or run `gam eval --data FILE` on your own file");
            }
            tsv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Dataset ds = BenchmarkLoader.fromTsv("demo.tsv", tsv, null, new BenchmarkLoader.Filter(limit, null));
        List<String> registered = MethodRegistry.listed();
        List<String> methods = METHODS.stream().filter(registered::contains).toList();
        if (methods.isEmpty()) throw new IllegalStateException("none of the demo methods " + METHODS + " is registered; known: " + registered);
        if (!resume) {
            for (String f : List.of("results.db", "results.db-wal", "results.db-shm", "results.jsonl")) Files.deleteIfExists(out.resolve(f));
        }
        Config config = Config.defaults();
        System.err.println("demo: " + ds.questions().size() + " questions × " + methods.size() + " methods (" + String.join(", ", methods)
                + ") on the built-in local model, " + concurrency + " in flight");
        long t0 = System.nanoTime();
        RunSummary s;
        try (Backend backend = backends.create(BackendSpec.local(), config)) {
            s = Evaluation.run(new Evaluation.Plan(ds, false, methods, out, concurrency, "gam demo"), backend, null, config, System.err,
                    n -> {
                        ProgressBar bar = ProgressBar.onStderr(n);
                        return r -> bar.step(r.outcomeValue());
                    });
        }
        System.out.print(SummaryTable.render(Map.of("", s), false));
        System.out.printf(java.util.Locale.ROOT, "%.1f s in total; report: %s%n", (System.nanoTime() - t0) / 1e9, out.resolve("report.html"));
        return 0;
    }
}
