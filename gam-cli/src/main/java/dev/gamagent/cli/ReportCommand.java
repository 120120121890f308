package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.Provenance;
import dev.gamagent.eval.report.QuestionHashes;
import dev.gamagent.eval.report.RunPairing;
import dev.gamagent.eval.report.ReportRun;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
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
 * series "run / method", and every pair of series of one benchmark compared on the questions both asked with the same
 * content ({@link RunPairing}); runs of different benchmarks are shown side by side, never compared, with a warning.
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

    @Override public Integer call() throws Exception {
        IntervalMethod method = IntervalMethod.of(interval);
        Map<String, RunSummary> runs = new LinkedHashMap<>();
        List<ReportRun> pages = new ArrayList<>();
        // every run's methods as series "run / method", each with its graded items (question or circular group → right)
        List<RunPairing.Run> compared = new ArrayList<>();
        List<String> withoutRecords = new ArrayList<>();
        for (Path d : dirs) {
            String name = d.getFileName() == null ? d.toString() : d.getFileName().toString();
            if (runs.containsKey(name)) name = d.toString();
            RunSummary s = RunSummary.ofRun(d);
            // the answers behind the summary, for the pairs, the comparison page's sample list and trace viewer
            List<ResultRecord> records = Files.isRegularFile(d.resolve("results.db"))
                    ? ResultStore.read(d).stream().filter(r -> s.methods().contains(r.method())).toList() : List.of();
            Map<String, Map<String, Boolean>> mine = RunSummary.itemsByMethod(s.methods(), records);
            JsonNode tree = RunSummary.treeOfRun(d);
            if (records.isEmpty()) withoutRecords.add(name);
            else compared.add(new RunPairing.Run(name, RunPairing.benchmarkOf(tree, s.data()), QuestionHashes.read(tree), mine));
            // a summary.json from before intervals, or another interval method: recompute them from the records (when there are some)
            RunSummary shown = records.isEmpty() || method == IntervalMethod.WILSON && s.statistics() != null ? s : s.withIntervals(method, mine);
            runs.put(name, shown);
            // where each run's figures come from (model, backend, configuration, commit, date, data file): the page's header
            pages.add(new ReportRun(name, shown, records, Map.of(), null, tree == null ? null : Provenance.ofSummary(tree)));
        }
        // the same question is the same content, not the same id; runs of different benchmarks are not compared
        RunPairing pairing = RunPairing.of(compared, method);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        HtmlReport.writeComparison(out, pages, pairing);
        System.out.print(SummaryTable.render(runs, true, pairing.pairs()));
        for (String w : pairing.warnings()) System.out.println("warning: " + w);
        if (!withoutRecords.isEmpty()) {
            System.out.println("not in the pairs (no results.db, only summary.json): " + String.join(", ", withoutRecords));
        }
        System.out.println("wrote " + out);
        return 0;
    }
}
