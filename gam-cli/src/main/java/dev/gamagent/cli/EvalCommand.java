package dev.gamagent.cli;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.eval.EvalRequest;
import dev.gamagent.eval.Evaluation;
import dev.gamagent.eval.load.RowFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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

    @Option(names = "--circular", negatable = true, description = "MMBench circular evaluation (default: on when the file name contains 'mmbench', 'ccbench', 'circular' or 'mmcr', as in VLMEvalKit)")
    Boolean circular;

    @Option(names = "--grading", description = "how multiple-choice answers are read: vlmevalkit (VLMEvalKit's current can_infer; the default), "
            + "vlmevalkit-2024|2025|2026 (an earlier VLMEvalKit), or extended (ours: also ANSWER: lines; not comparable with leaderboards)")
    String grading;

    @Option(names = "--force-new", description = "start a new run even if --out holds another run's results (they are moved aside, not deleted)")
    boolean forceNew;

    @Option(names = "--judge-backend", description = "the backend that maps unmatched multiple-choice answers to an option (like VLMEvalKit's "
            + "LLM extraction) and extracts MathVista's and MathVision's answers with VLMEvalKit's prompt, by name as gam.judge_backend: "
            + "default, local or an entry of the config's backends section")
    String judgeBackend;

    @Mixin
    BackendOptions backendOptions;

    private final BackendSource backends;

    public EvalCommand() { this(BackendSource.FACTORY); }

    /** For tests: the same command with backends from {@code backends}. */
    public EvalCommand(BackendSource backends) { this.backends = backends; }

    @CommandLine.ParentCommand
    CommandContext parent;

    @Override public Integer call() {
        System.setProperty("java.awt.headless", "true");
        BackendSpec spec = backendOptions.spec();
        EvalConcurrency load = EvalConcurrency.resolve(concurrency, backendOptions.maxConcurrent, Math.max(1, spec.baseUrls().size()),
                spec.kind().equals("local"), Runtime.getRuntime().availableProcessors());
        load.warnings().forEach(w -> System.err.println("warning: " + w));
        Config config = backendOptions.config();
        EvalRequest req = new EvalRequest(EvalRequest.Data.named(data.toString(), () -> dataOptions.files(config, System.err)),
                new RowFilter(limit, category), frames, circular, grading, methods(methods), out, load.questions(), commandLine(),
                forceNew, config, null, CommandContext.secretsOf(parent), null);
        Evaluation.Result r;
        try (TraceExport traces = TraceExport.fromEnvironment(System.getenv())) {
            r = evaluate(req, backendOptions, judgeBackend, load.perEndpoint(), backends);
        }
        r.notes().forEach(System.out::println);
        System.out.print(SummaryTable.render(r.summary()));
        System.out.println("wrote " + String.join(", ", r.files().stream().map(Path::toString).toList()));
        return 0;
    }

    /** The methods as typed: {@code single, gam} and {@code single,,gam} are {@code single,gam}. */
    static List<String> methods(List<String> typed) {
        return typed.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * Opens the run's backends (the panel, checked against the methods, and the judge: a backend of the panel by name, null
     * for none) and runs the one evaluation ({@link Evaluation#run(EvalRequest, NamedBackends, Backend, EvalRequest.Progress)});
     * shared by {@code gam eval} and {@code gam reproduce}.
     */
    static Evaluation.Result evaluate(EvalRequest req, BackendOptions backendOptions, String judgeBackend, int perEndpoint,
                                      BackendSource backends) {
        BackendSpec spec = backendOptions.spec(req.config());
        try (NamedBackends panel = NamedBackends.open(backendOptions.spec(req.config(), perEndpoint), req.config(), backends::create)) {
            BackendSpec judgeSpec = judgeBackend == null ? null : panel.spec(judgeBackend);
            Backend judge = judgeBackend == null ? null : panel.resolve(judgeBackend);
            EvalRequest.Backends identity = new EvalRequest.Backends(spec.kind(), spec.model(), judgeSpec == null ? null
                    : judgeSpec.kind() + ":" + (judgeSpec.model() == null ? "(the server's own)" : judgeSpec.model()));
            PanelCheck.require(panel, req.config(), req.methods(), System.err);
            return Evaluation.run(req.withIdentity(identity), panel, judge, EvalRequest.Progress.onStderr());
        }
    }

    private String commandLine() {
        return commandLine(data.toString(), methods, out, limit, category, frames, circular, grading, backendOptions, backendOptions.overrides,
                judgeBackend);
    }

    /** The {@code gam eval} command line that repeats a run, written into its report. */
    static String commandLine(String data, List<String> methods, Path out, int limit, String category, int frames, Boolean circular,
                              String grading, BackendOptions backendOptions, Map<String, String> sets, String judgeBackend) {
        List<String> parts = new ArrayList<>(Arrays.asList("gam", "eval", "--data", data, "--methods", String.join(",", methods),
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
        for (var e : sets.entrySet()) parts.addAll(List.of("--set", e.getKey() + "=" + e.getValue()));
        if (judgeBackend != null) parts.addAll(List.of("--judge-backend", judgeBackend));
        return String.join(" ", parts);
    }
}
