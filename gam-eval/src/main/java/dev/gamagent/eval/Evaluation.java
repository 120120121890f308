package dev.gamagent.eval;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.NamedBackends;
import dev.gamagent.config.Config;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One evaluation run end to end: check the run identity, expand (circular), run what is missing, then
 * write {@code summary.json} and {@code report.html} from everything stored for these questions and methods.
 */
public final class Evaluation {
    private Evaluation() { }

    /**
     * What to run and where. {@code command} is written into the report so the numbers can be repeated.
     * {@code identity} (null = not checked) must match the one stored in {@code out}, unless {@code forceNew}
     * moves the earlier run aside first.
     */
    public record Plan(Dataset dataset, boolean circular, List<String> methods, Path out, int concurrency, String command,
                       RunIdentity identity, boolean forceNew) {
        public Plan(Dataset dataset, boolean circular, List<String> methods, Path out, int concurrency, String command) {
            this(dataset, circular, methods, out, concurrency, command, null, false);
        }
    }

    /** Every pair of the run failed; the summary and report were still written. */
    public static final class AllPairsFailed extends IllegalStateException {
        public AllPairsFailed(String message) { super(message); }
    }

    /** A run whose agents all use {@code backend}. */
    public static RunSummary run(Plan plan, Backend backend, Backend judge, Config config, PrintStream err,
                                 LongFunction<EvalRunner.ProgressSink> progress) {
        return run(plan, NamedBackends.of(backend), judge, config, err, progress);
    }

    /**
     * @param backends the default backend and the named ones the methods' agents may use
     * @param progress makes the progress display for the number of pending pairs
     */
    public static RunSummary run(Plan plan, NamedBackends backends, Backend judge, Config config, PrintStream err,
                                 LongFunction<EvalRunner.ProgressSink> progress) {
        for (SkippedRow r : plan.dataset().skipped()) err.println("skipped " + plan.dataset().name() + " " + r);
        if (plan.forceNew()) {
            Path moved = ResultStore.moveAside(plan.out());
            if (moved != null) err.println("--force-new: moved the earlier run's files to " + moved);
        }
        List<EvalQuestion> questions = plan.circular() ? CircularExpansion.expand(plan.dataset().questions()) : plan.dataset().questions();
        List<ResultRecord> records;
        EvalRunner.Stats stats;
        try (ResultStore store = new ResultStore(plan.out())) {
            if (plan.identity() != null) checkIdentity(plan, store, err);
            EvalRunner runner = new EvalRunner(backends, config, new Grader(config, judge), store, plan.concurrency());
            EvalRunner.ProgressSink[] sink = {r -> { }};
            stats = runner.run(questions, plan.methods(), n -> sink[0] = progress.apply(n), r -> sink[0].finished(r));
            for (SkippedRow r : stats.skipped()) err.println("skipped " + plan.dataset().name() + " " + r);
            if (stats.alreadyDone() > 0) err.println("resumed: " + stats.alreadyDone() + " question × method pairs were already done in " + plan.out());
            if (stats.errors() > 0 && !stats.allFailed()) {
                err.println(stats.errors() + " pairs failed (recorded as 'error'); rerun the same command to retry them");
            }
            Set<String> ids = new HashSet<>();
            Set<String> badGroups = badGroups(stats);
            for (EvalQuestion q : questions) if (!badGroups.contains(q.group())) ids.add(q.id());
            Set<String> methods = Set.copyOf(plan.methods());
            records = store.all().stream().filter(r -> ids.contains(r.questionId()) && methods.contains(r.method())).toList();
        }
        List<SkippedRow> skipped = new ArrayList<>(plan.dataset().skipped());
        skipped.addAll(stats.skipped());
        RunSummary summary = RunSummary.compute(plan.dataset().name(), plan.methods(), plan.circular(),
                (int) questions.stream().map(EvalQuestion::group).distinct().filter(g -> !badGroups(stats).contains(g)).count(), skipped,
                records, PriceTable.from(config), config.number("gam.theta_u", 0.5), plan.command());
        summary.write(plan.out().resolve("summary.json"));
        HtmlReport.write(plan.out().resolve("report.html"), summary, records, HtmlReport.thumbnails(plan.dataset().questions()));
        if (stats.allFailed()) {
            String first = records.stream().filter(ResultRecord::isError).map(ResultRecord::error).findFirst().orElse("?");
            throw new AllPairsFailed("all " + stats.errors() + " question × method pairs failed, nothing was graded; first failure: "
                    + first + " (the pairs are recorded as 'error' in " + plan.out() + "; rerun the same command to retry them)");
        }
        return summary;
    }

    /** Rows skipped when their images turned out undecodable: their groups are left out of the summary. */
    private static Set<String> badGroups(EvalRunner.Stats stats) {
        Set<String> out = new HashSet<>();
        for (SkippedRow r : stats.skipped()) out.add(r.index());
        return out;
    }

    /**
     * Refuses to add records to a directory holding another run's; a directory without an identity (new, or
     * written before identities existed) takes this run's.
     */
    private static void checkIdentity(Plan plan, ResultStore store, PrintStream err) {
        RunIdentity stored = store.identity();
        if (stored == null) {
            if (store.size() > 0) {
                err.println("note: " + plan.out() + " holds " + store.size() + " results from before run identities were stored; "
                        + "assuming they were made with the same data, backend, model and settings");
            }
            store.identity(plan.identity());
            return;
        }
        List<String> diffs = plan.identity().differencesFrom(stored);
        if (diffs.isEmpty()) return;
        throw new IllegalArgumentException(plan.out() + " holds " + store.size() + " results of a different run ("
                + String.join("; ", diffs) + "); resuming would mix them. Use the same data, backend, model and settings to resume, "
                + "or start over with --force-new (moves the old results aside) or another --out");
    }
}
