package dev.gamagent.eval;

import dev.gamagent.backend.Backend;
import dev.gamagent.config.Config;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One evaluation run end to end: expand (circular), run what is missing, then write
 * {@code summary.json} and {@code report.html} from everything stored for these questions and methods.
 */
public final class Evaluation {
    private Evaluation() { }

    /** What to run and where. {@code command} is written into the report so the numbers can be repeated. */
    public record Plan(Dataset dataset, boolean circular, List<String> methods, Path out, int concurrency, String command) { }

    /** @param progress makes the progress display for the number of pending pairs */
    public static RunSummary run(Plan plan, Backend backend, Backend judge, Config config, PrintStream err,
                                 LongFunction<EvalRunner.ProgressSink> progress) {
        for (SkippedRow r : plan.dataset().skipped()) err.println("skipped " + plan.dataset().name() + " " + r);
        List<EvalQuestion> questions = plan.circular() ? CircularExpansion.expand(plan.dataset().questions()) : plan.dataset().questions();
        List<ResultRecord> records;
        try (ResultStore store = new ResultStore(plan.out())) {
            EvalRunner runner = new EvalRunner(backend, config, new Grader(config, judge), store, plan.concurrency());
            EvalRunner.ProgressSink[] sink = {r -> { }};
            EvalRunner.Stats stats = runner.run(questions, plan.methods(), n -> sink[0] = progress.apply(n), r -> sink[0].finished(r));
            if (stats.alreadyDone() > 0) err.println("resumed: " + stats.alreadyDone() + " question × method pairs were already done in " + plan.out());
            if (stats.errors() > 0) err.println(stats.errors() + " pairs failed (recorded as 'error'); rerun the same command to retry them");
            Set<String> ids = new HashSet<>();
            for (EvalQuestion q : questions) ids.add(q.id());
            Set<String> methods = Set.copyOf(plan.methods());
            records = store.all().stream().filter(r -> ids.contains(r.questionId()) && methods.contains(r.method())).toList();
        }
        RunSummary summary = RunSummary.compute(plan.dataset().name(), plan.methods(), plan.circular(),
                (int) questions.stream().map(EvalQuestion::group).distinct().count(), plan.dataset().skipped(), records, PriceTable.from(config),
                config.number("gam.theta_u", 0.5), plan.command());
        summary.write(plan.out().resolve("summary.json"));
        HtmlReport.write(plan.out().resolve("report.html"), summary, records, HtmlReport.thumbnails(plan.dataset().questions()));
        return summary;
    }
}
