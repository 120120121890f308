package dev.gamagent.cli;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.eval.BenchmarkLoader;
import dev.gamagent.eval.CircularExpansion;
import dev.gamagent.eval.Dataset;
import dev.gamagent.eval.Evaluation;
import dev.gamagent.eval.GradingMode;
import dev.gamagent.eval.ProgressBar;
import dev.gamagent.eval.RunIdentity;
import dev.gamagent.eval.RunSummary;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.image.DecodeBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code gam eval}: run methods over a benchmark file; resumable; writes results, summary and report. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Evaluate methods on a benchmark file (VLMEvalKit TSV, M3MAD JSON, JSONL). Rerun the same command to resume.")
public final class EvalCommand implements Callable<Integer> {
    @Option(names = "--data", required = true, description = "benchmark file (.tsv VLMEvalKit, .json M3MAD, .jsonl) or a benchmark's name "
            + "(e.g. MMBench_DEV_EN_V11; 'gam data list'), found in the data directory or downloaded once")
    Path data;

    @Mixin
    DataOptions dataOptions = new DataOptions();

    @Option(names = "--methods", required = true, split = ",", description = "methods to compare, e.g. single,gam")
    List<String> methods = new ArrayList<>();

    @Option(names = "--out", required = true, description = "output directory (results.db, results.jsonl, summary.json, report.html)")
    Path out;

    @Option(names = "--limit", defaultValue = "0", description = "only the first N questions (0 = all)")
    int limit;

    @Option(names = "--concurrency", description = "questions in flight (default: one per core with the built-in model; "
            + "else --max-concurrent × endpoints, or 8 per endpoint; the per-endpoint limit then follows from it)")
    Integer concurrency;

    @Option(names = "--frames", defaultValue = "0", description = "frames taken from each question's video, sampled uniformly (default: "
            + "the benchmark's own, as VLMEvalKit: 8 for MVBench_8frame and MVBench_MP4_8frame, 64 for MVBench_64frame, one per second for "
            + "MVBench_MP4_1fps; 8 for a row's video)")
    int frames;

    @Option(names = "--category", description = "only questions of this category")
    String category;

    @Option(names = "--circular", negatable = true, description = "MMBench circular evaluation (default: on when the file name contains 'mmbench' or 'ccbench', as in VLMEvalKit)")
    Boolean circular;

    @Option(names = "--grading", description = "how multiple-choice answers are read: vlmevalkit (VLMEvalKit's current can_infer; the default), "
            + "vlmevalkit-2024|2025|2026 (an earlier VLMEvalKit), or extended (ours: also ANSWER: lines; not comparable with leaderboards)")
    String grading;

    @Option(names = "--force-new", description = "start a new run even if --out holds another run's results (they are moved aside, not deleted)")
    boolean forceNew;

    @Option(names = "--judge-backend", description = "the backend that maps unmatched multiple-choice answers to an option (like VLMEvalKit's "
            + "LLM extraction), by name as gam.judge_backend: default, local or an entry of the config's backends section")
    String judgeBackend;

    @Mixin
    BackendOptions backendOptions;

    private final BackendSource backends;

    public EvalCommand() { this(BackendSource.FACTORY); }

    /** For tests: the same command with backends from {@code backends}. */
    public EvalCommand(BackendSource backends) { this.backends = backends; }

    @Override public Integer call() {
        System.setProperty("java.awt.headless", "true");
        // a benchmark's name becomes its file here; from now on `data` is that file (the field keeps what was typed)
        DataFiles.DataFile dataFile = BenchmarkByName.resolve(data, dataOptions, backendOptions.config(), System.err);
        Path data = dataFile.path();
        Config config = backendOptions.config();
        if (grading != null) config = config.with(GradingMode.CONFIG_KEY, GradingMode.of(grading).label());
        config = BenchmarkByName.grading(dataFile, config);
        BackendSpec spec = backendOptions.spec();
        EvalConcurrency load = EvalConcurrency.resolve(concurrency, backendOptions.maxConcurrent, Math.max(1, spec.baseUrls().size()),
                spec.kind().equals("local"), Runtime.getRuntime().availableProcessors());
        load.warnings().forEach(w -> System.err.println("warning: " + w));
        List<String> ms = methods.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
        boolean circ = circular != null ? circular : CircularExpansion.defaultFor(data.getFileName().toString());
        RunSummary s;
        try (NamedBackends panel = NamedBackends.open(backendOptions.spec(load.perEndpoint()), config, backends::create)) {
            BackendSpec judgeSpec = judgeBackend == null ? null : panel.spec(judgeBackend);
            Backend judge = judgeBackend == null ? null : panel.resolve(judgeBackend);
            PanelCheck.require(panel, config, ms, System.err);
            // decode within one budget for the run and keep each image at most as large as a backend of the run can use
            long keep = panel.defaultBackend().capabilities().maxImagePixels();
            if (!panel.entries().isEmpty()) keep = Math.max(keep, Capabilities.DEFAULT_MAX_PIXELS);
            if (frames < 0) throw new IllegalArgumentException("--frames " + frames + ": give a positive number of frames (or 0 for the benchmark's default)");
            // one VideoFrames (one on-disk frame cache) for every question's video; a benchmark's name picks its variant (MVBench_64frame)
            var images = BenchmarkLoader.Images.from(config, DecodeBudget.megapixels(config.number("image.decode_budget_megapixels")), keep)
                    .withVideos(frames, BenchmarkByName.videoDataset(this.data));
            // one read of the file indexes its rows and hashes it for the run identity
            Dataset ds = BenchmarkLoader.load(data, new BenchmarkLoader.Filter(limit, category), images, indexing(data));
            dataFile = dataFile.withSha256(ds.sha256());
            config = BenchmarkByName.gradingOf(ds, config);
            RunIdentity identity = RunIdentity.of(ds.name(), ds.sha256() != null ? ds.sha256() : "(not hashed)", spec.kind(),
                    spec.model(), judgeSpec == null ? null : judgeSpec.kind() + ":" + (judgeSpec.model() == null ? "(the server's own)"
                    : judgeSpec.model()), config);
            if (ds.questions().isEmpty()) {
                throw new IllegalArgumentException(data + ": no usable questions" + (category != null ? " in category '" + category + "'" : "")
                        + (ds.skipped().isEmpty() ? "" : " (" + ds.skipped().size() + " rows skipped, first: " + ds.skipped().get(0) + ")"));
            }
            var plan = new Evaluation.Plan(ds, circ, ms, out, load.questions(), commandLine(), identity, forceNew);
            try {
                s = Evaluation.run(plan, panel, judge, config, System.err, n -> {
                    ProgressBar bar = ProgressBar.onStderr(n);
                    return r -> bar.step(r.outcomeValue());
                });
            } finally {
                BenchmarkByName.record(dataFile, out);
            }
        }
        System.out.print(SummaryTable.render(s));
        System.out.println("wrote " + out.resolve("results.jsonl") + ", " + out.resolve("summary.json") + ", " + out.resolve("report.html"));
        return 0;
    }

    /** Progress of the one read that indexes the file: a line every 2 s on stderr (none for a file read in less). */
    private static BenchmarkLoader.Progress indexing(Path data) {
        long start = System.nanoTime();
        long[] last = {start};
        return (bytes, size) -> {
            long now = System.nanoTime();
            if (now - last[0] < 2_000_000_000L) return;
            last[0] = now;
            System.err.printf(java.util.Locale.ROOT, "indexing %s: %.0f of %.0f MB (%.0f s)%n", data, bytes / 1e6, size / 1e6, (now - start) / 1e9);
        };
    }

    private String commandLine() {
        List<String> parts = new ArrayList<>(Arrays.asList("gam", "eval", "--data", data.toString(), "--methods", String.join(",", methods),
                "--out", out.toString()));
        if (limit > 0) parts.addAll(List.of("--limit", Integer.toString(limit)));
        if (category != null) parts.addAll(List.of("--category", category));
        if (frames > 0) parts.addAll(List.of("--frames", Integer.toString(frames)));
        if (circular != null) parts.add(circular ? "--circular" : "--no-circular");
        if (grading != null) parts.addAll(List.of("--grading", grading));
        parts.addAll(List.of("--backend", backendOptions.spec().kind()));
        for (String u : backendOptions.baseUrls) parts.addAll(List.of("--base-url", u));
        if (backendOptions.model != null) parts.addAll(List.of("--model", backendOptions.model));
        if (backendOptions.config != null) parts.addAll(List.of("--config", backendOptions.config.toString()));
        for (var e : backendOptions.overrides.entrySet()) parts.addAll(List.of("--set", e.getKey() + "=" + e.getValue()));
        if (judgeBackend != null) parts.addAll(List.of("--judge-backend", judgeBackend));
        return String.join(" ", parts);
    }
}
