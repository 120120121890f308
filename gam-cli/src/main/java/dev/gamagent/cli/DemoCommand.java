package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.bench.RenderStyle;
import dev.gamagent.bench.VideoGenerator;
import dev.gamagent.bench.VideoItem;
import dev.gamagent.bench.VideoPhrasings;
import dev.gamagent.bench.VideoRows;
import dev.gamagent.config.Config;
import dev.gamagent.eval.EvalRequest;
import dev.gamagent.eval.Evaluation;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.report.RunSummary;
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
    /** Made by {@code gam bench generate --n 60 --seed 7 --hard-fraction 0.5 --render classic --out gam-bench/src/main/resources/bench/demo.tsv}. */
    static final String RESOURCE = "/bench/demo.tsv";
    static final List<String> METHODS = List.of("single", "vote", "debate", "gam", "dream+gam");
    /**
     * The demo's video questions, beside its image questions: drawn by {@code bench.VideoGenerator} from seed 7 (the
     * image questions' seed) at indices after theirs, varied rendering styles, one of each kind named here, written
     * as frame folders (no ffmpeg needed) into {@code --out} and read as {@code gam eval} reads a row's {@code video}.
     * One question: its 8 frames cost every method of the demo about 6 s of CPU (DREAM's probes at 2× the most), and the
     * whole demo stays within 60 s on two cores; a second one (a blink question) would take it to the edge.
     */
    static final long VIDEO_SEED = 7;
    static final List<VideoPhrasings.Kind> VIDEO_KINDS = List.of(VideoPhrasings.Kind.DIRECTION);

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

    /**
     * The image questions and, unless {@code --limit} leaves no room for them, the video questions after them
     * ({@code --limit N} keeps the first N questions of the whole demo).
     */
    private Dataset withVideos(Dataset images) throws IOException {
        int room = limit > 0 ? Math.max(0, limit - images.questions().size()) : VIDEO_KINDS.size();
        if (room == 0) return images;
        VideoGenerator g = new VideoGenerator(VIDEO_SEED, 0.5, RenderStyle.Render.VARIED);
        List<VideoItem> items = new java.util.ArrayList<>();
        int first = images.questions().size();
        for (int i = 0; i < Math.min(room, VIDEO_KINDS.size()); i++) items.add(g.generate(first + i, VIDEO_KINDS.get(i)));
        Path file = VideoRows.write(items, out.resolve("demo-videos.jsonl"));
        Dataset videos = BenchmarkLoader.load(file);
        List<dev.gamagent.eval.load.EvalQuestion> all = new java.util.ArrayList<>(images.questions());
        all.addAll(videos.questions());
        List<dev.gamagent.eval.load.SkippedRow> skipped = new java.util.ArrayList<>(images.skipped());
        skipped.addAll(videos.skipped());
        return new Dataset(images.name(), all, skipped, images.sha256());
    }

    /**
     * The built-in model looks at every picture of the demo once with its default instruments before the methods
     * start ({@link dev.gamagent.local.LocalPerception#lookAt}), on {@code concurrency} threads: the five methods then
     * share that look instead of each computing it, and each method's s/q is its own work beyond it. Printed with its
     * time, which the total includes.
     */
    private void lookFirst(dev.gamagent.local.LocalBackend local, Dataset ds) {
        long t0 = System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger pictures = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Math.max(1, concurrency));
        try {
            List<java.util.concurrent.Future<?>> looks = new java.util.ArrayList<>();
            for (dev.gamagent.eval.load.EvalQuestion q : ds.questions()) {
                looks.add(pool.submit(() -> {
                    for (dev.gamagent.image.Picture p : q.question().question().images()) {
                        local.lookAt(p);
                        pictures.incrementAndGet();
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : looks) f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            // a picture that cannot be decoded is the evaluation's to report, with its row: the look only saves time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdownNow();
        }
        System.err.printf(java.util.Locale.ROOT, "looked at the %d pictures once (PP-OCRv4 reading and objects, shared by the methods) in %.1f s%n",
                pictures.get(), (System.nanoTime() - t0) / 1e9);
    }

    @picocli.CommandLine.ParentCommand
    CommandContext parent;

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
        Dataset images = BenchmarkLoader.fromTsv("demo.tsv", tsv, null, new RowFilter(limit, null));
        Dataset ds = resource.equals(RESOURCE) ? withVideos(images) : images;
        List<String> registered = MethodRegistry.listed();
        List<String> methods = METHODS.stream().filter(registered::contains).toList();
        if (methods.isEmpty()) throw new IllegalStateException("none of the demo methods " + METHODS + " is registered; known: " + registered);
        if (!resume) {
            for (String f : List.of("results.db", "results.db-wal", "results.db-shm", "results.jsonl")) Files.deleteIfExists(out.resolve(f));
        }
        Config config = Config.defaults();
        System.err.println("demo: " + ds.questions().size() + " questions (" + (ds.questions().size() - images.questions().size())
                + " of them about a video) × " + methods.size() + " methods (" + String.join(", ", methods)
                + ") on the built-in local model, " + concurrency + " in flight");
        long t0 = System.nanoTime();
        Evaluation.Result r;
        try (Backend backend = backends.create(BackendSpec.local(), config)) {
            if (backend instanceof dev.gamagent.local.LocalBackend local) lookFirst(local, ds);
            EvalRequest req = new EvalRequest(EvalRequest.Data.loaded(ds), null, 0, false, null, methods, out, concurrency, "gam demo",
                    false, config, null, CommandContext.secretsOf(parent), null);
            r = Evaluation.run(req, NamedBackends.of(backend), null, EvalRequest.Progress.onStderr());
        }
        RunSummary s = r.summary();
        System.out.print(SummaryTable.render(Map.of("", s), false));
        System.out.printf(java.util.Locale.ROOT, "%.1f s in total; report: %s%n", (System.nanoTime() - t0) / 1e9, out.resolve("report.html"));
        return 0;
    }
}
