package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.ReportRun;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.gam.GamSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code gam report}: several eval runs side by side (an HTML page and a table on stdout), every method of every run a
 * series "run / method", and every pair of series compared on the questions both answered (paired by question id).
 */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Compare gam eval runs side by side.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", description = "gam eval output directories")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", defaultValue = "comparison.html", description = "HTML file to write (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--interval", defaultValue = "wilson", description = "accuracy intervals: wilson (score intervals; the difference "
            + "of two methods by Newcombe's paired method) or bootstrap (percentile, 2000 paired resamples, fixed seed) (default: ${DEFAULT-VALUE})")
    String interval;

    /** The run's summary.json, or, for a run killed before writing it, a summary computed from its results.db. */
    static RunSummary summaryOf(Path d) {
        Path f = d.resolve("summary.json");
        if (Files.isRegularFile(f)) return RunSummary.read(f);
        if (!Files.isRegularFile(d.resolve("results.db"))) {
            throw new IllegalArgumentException(d + " holds neither summary.json nor results.db; run `gam eval ... --out " + d + "` first");
        }
        List<ResultRecord> records = ResultStore.read(d);
        List<String> methods = records.stream().map(ResultRecord::method).distinct().toList();
        boolean circular = records.stream().anyMatch(r -> r.question().rotation() > 0);
        int questions = (int) records.stream().map(r -> r.question().group()).distinct().count();
        Config c = Config.defaults();
        return RunSummary.compute(d.toString(), methods, circular, questions, List.of(), records, PriceTable.from(c),
                GamSettings.stopping(c).thetaU(), null);
    }

    @Override public Integer call() throws Exception {
        IntervalMethod method = IntervalMethod.of(interval);
        Map<String, RunSummary> runs = new LinkedHashMap<>();
        List<ReportRun> pages = new ArrayList<>();
        // every run's methods as series "run / method", each with its graded items (question or circular group → right)
        Map<String, Map<String, Boolean>> items = new LinkedHashMap<>();
        List<String> withoutRecords = new ArrayList<>();
        for (Path d : dirs) {
            String name = d.getFileName() == null ? d.toString() : d.getFileName().toString();
            if (runs.containsKey(name)) name = d.toString();
            RunSummary s = summaryOf(d);
            // the answers behind the summary, for the pairs, the comparison page's sample list and trace viewer
            List<ResultRecord> records = Files.isRegularFile(d.resolve("results.db"))
                    ? ResultStore.read(d).stream().filter(r -> s.methods().contains(r.method())).toList() : List.of();
            Map<String, Map<String, Boolean>> mine = RunSummary.itemsByMethod(s.methods(), records);
            if (records.isEmpty()) withoutRecords.add(name);
            else for (var e : mine.entrySet()) items.put(name + " / " + e.getKey(), e.getValue());
            // a summary.json from before intervals, or another interval method: recompute them from the records (when there are some)
            RunSummary shown = records.isEmpty() || method == IntervalMethod.WILSON && s.statistics() != null ? s : s.withIntervals(method, mine);
            runs.put(name, shown);
            pages.add(new ReportRun(name, shown, records));
        }
        // across runs the same question id is the same question: every series against every other on the ones both answered
        Pairwise.Report pairs = Pairwise.compare(items, method);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        HtmlReport.writeComparison(out, pages, pairs);
        System.out.print(SummaryTable.render(runs, true, pairs));
        if (!withoutRecords.isEmpty()) {
            System.out.println("not in the pairs (no results.db, only summary.json): " + String.join(", ", withoutRecords));
        }
        System.out.println("wrote " + out);
        return 0;
    }
}
