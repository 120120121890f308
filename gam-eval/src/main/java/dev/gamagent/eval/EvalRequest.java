package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.store.ResultRecord;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Everything one evaluation needs, as the command line gave it: {@code Evaluation.run(EvalRequest, panel, judge,
 * progress)} resolves the benchmark, reads its grading rule, runs, stores and writes the summary once.
 *
 * @param data       the benchmark: a file or a benchmark's name ({@link Data#named}), or questions already loaded ({@link Data#loaded})
 * @param filter     the first N questions, one category
 * @param frames     frames taken from each question's video (0: the benchmark's own)
 * @param circular   MMBench's circular evaluation; null: on for MMBench and CCBench files, as in VLMEvalKit
 * @param grading    how multiple-choice answers are read ({@link dev.gamagent.eval.grade.GradingMode}); null: the configuration's
 * @param methods    the methods compared
 * @param out        where results.db, results.jsonl, summary.json and report.html go
 * @param concurrency questions in flight
 * @param command    the command line, written into the report so the numbers can be repeated
 * @param forceNew   move another run's results in {@code out} aside instead of refusing
 * @param config     the run's configuration (before the benchmark's grading rule is added)
 * @param identity   the backend, model and judge the run identity names
 * @param secrets    what is scrubbed from every stored trace
 * @param paperFigures for a reproduction: the paper's figures beside this run's, from its records (null: none)
 */
public record EvalRequest(Data data, RowFilter filter, int frames, Boolean circular, String grading, List<String> methods,
                          Path out, int concurrency, String command, boolean forceNew, Config config, Backends identity,
                          SecretScrubber secrets, PaperFigures paperFigures) {
    public EvalRequest {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(config, "config");
        methods = List.copyOf(methods);
        if (filter == null) filter = RowFilter.ALL;
        if (secrets == null) secrets = SecretScrubber.NONE;
        if (frames < 0) throw new IllegalArgumentException("--frames " + frames + ": give a positive number of frames (or 0 for the benchmark's default)");
        if (concurrency < 1) throw new IllegalArgumentException("concurrency " + concurrency + ": at least one question in flight");
    }

    /** This request with the backends its run identity names. */
    public EvalRequest withIdentity(Backends backends) {
        return new EvalRequest(data, filter, frames, circular, grading, methods, out, concurrency, command, forceNew, config, backends,
                secrets, paperFigures);
    }

    /** The benchmark of a run. */
    public sealed interface Data permits Named, Loaded {
        /** A file, or a benchmark's name found in (or fetched into) {@code files}' data directory; {@code files} null: a file only. */
        static Data named(String data, Supplier<DataFiles> files) { return new Named(data, files); }

        /** Questions already loaded (the demo's): no file to resolve, no grading rule of a catalogue. */
        static Data loaded(Dataset dataset) { return new Loaded(dataset); }
    }

    public record Named(String data, Supplier<DataFiles> files) implements Data {
        public Named { Objects.requireNonNull(data, "data"); }
    }

    public record Loaded(Dataset dataset) implements Data {
        public Loaded { Objects.requireNonNull(dataset, "dataset"); }
    }

    /** What the run identity records of the backends: kind and model of the panel's default backend, and the judge (null: none). */
    public record Backends(String kind, String model, String judge) { }

    /** The paper's figures beside a reproduction's (summary.json's {@code paper_figures}), made from the run's records. */
    @FunctionalInterface
    public interface PaperFigures {
        JsonNode of(List<ResultRecord> records);
    }

    /** Where progress goes: lines on {@code err}, and a progress display for the number of pending pairs. */
    public record Progress(PrintStream err, LongFunction<EvalRunner.ProgressSink> display) {
        public static Progress onStderr() {
            return new Progress(System.err, n -> {
                ProgressBar bar = ProgressBar.onStderr(n);
                return r -> bar.step(r.outcomeValue());
            });
        }
    }
}
