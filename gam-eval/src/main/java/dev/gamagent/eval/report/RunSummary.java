package dev.gamagent.eval.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.replay.FullLengthRuns;
import dev.gamagent.eval.stats.Interval;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code summary.json} holds: the run's inputs, the skipped rows, every method's metrics, and
 * accuracy per category and per l2-category for each method. {@code grading} names the grading mode(s)
 * the records were graded with (the "mode" of each record's "mode:step" rule; null for runs made before
 * grading modes were recorded); {@code signals}, which uncertainty signal each method's agents ran on
 * ({@link SignalMix}); {@code statistics}, how the intervals were computed and every pair of methods compared on the
 * items both graded (McNemar's exact test, the difference's interval, Holm's correction; {@link Pairwise}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunSummary(String data, List<String> methods, boolean circular, int questions, List<SkippedRow> skipped,
                         Map<String, MethodMetrics> metrics, Map<String, Map<String, Cell>> byCategory,
                         Map<String, Map<String, Cell>> byL2Category, String command, String grading,
                         Map<String, Map<String, Long>> signals, Pairwise.Report statistics) {

    /** Accuracy of one method in one category: complete groups, the share right and its 95 % interval. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Cell(int n, Double accuracy, Interval ci) { }

    public static RunSummary compute(String data, List<String> requestedMethods, boolean circular, int questions,
                                     List<SkippedRow> skipped, List<ResultRecord> records, PriceTable prices,
                                     double thetaU, String command) {
        records = inQuestionOrder(records);
        LinkedHashSet<String> methods = new LinkedHashSet<>(requestedMethods);
        for (ResultRecord r : records) methods.add(r.method());
        Map<String, MethodMetrics> metrics = new LinkedHashMap<>();
        Map<String, Map<String, Cell>> cats = new LinkedHashMap<>(), l2 = new LinkedHashMap<>();
        Map<String, Map<String, Long>> signals = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> items = new LinkedHashMap<>();
        for (String m : methods) {
            List<ResultRecord> mine = records.stream().filter(r -> r.method().equals(m)).toList();
            List<ResultRecord> forced = null;
            if (FullLengthRuns.recordedFull(mine)) {
                // a record_full run's own figures are forced full-length debates: report the default rule's decisions
                forced = mine;
                mine = FullLengthRuns.redecided(mine);
            }
            metrics.put(m, MethodMetrics.of(m, mine, prices, thetaU, circular));
            if (forced != null) {
                String label = m + FullLengthRuns.FORCED_SUFFIX;
                metrics.put(label, MethodMetrics.of(label, forced, prices, thetaU, circular));
            }
            items.put(m, MethodMetrics.gradedItems(mine));
            cats.put(m, cells(mine, true));
            l2.put(m, cells(mine, false));
            signals.put(m, SignalMix.of(mine.stream().map(r -> r.trace().json()).toList()));
        }
        return new RunSummary(data, List.copyOf(methods), circular, questions, skipped, metrics, cats, l2, command, gradingOf(records), signals,
                Pairwise.compare(items, IntervalMethod.WILSON));
    }

    /**
     * The graded items (group → right) of each method, as {@link #compute} counts them: a {@code gam.record_full} run's
     * method by its re-decided answers ({@link FullLengthRuns}); the forced full-length rows are not compared.
     */
    public static Map<String, Map<String, Boolean>> itemsByMethod(List<String> methods, List<ResultRecord> records) {
        Map<String, Map<String, Boolean>> items = new LinkedHashMap<>();
        for (String m : methods) {
            List<ResultRecord> mine = records.stream().filter(r -> r.method().equals(m)).toList();
            if (FullLengthRuns.recordedFull(mine)) mine = FullLengthRuns.redecided(mine);
            items.put(m, MethodMetrics.gradedItems(mine));
        }
        return items;
    }

    /** This summary with the intervals of {@code method} (accuracy per method and the pairwise block) from the graded items. */
    public RunSummary withIntervals(IntervalMethod method, Map<String, Map<String, Boolean>> items) {
        Map<String, MethodMetrics> m = new LinkedHashMap<>();
        for (var e : metrics.entrySet()) {
            Map<String, Boolean> mine = items.get(e.getKey());
            m.put(e.getKey(), mine == null ? e.getValue() : e.getValue().withAccuracyCi(MethodMetrics.GroupAccuracy.of(mine, method).ci()));
        }
        return new RunSummary(data, methods, circular, questions, skipped, m, byCategory, byL2Category, command, grading, signals,
                Pairwise.compare(items, method));
    }

    /** The distinct grading modes in the records' rules ("vlmevalkit-2026:option" → vlmevalkit-2026), comma-separated; null for none. */
    static String gradingOf(List<ResultRecord> records) {
        java.util.TreeSet<String> modes = new java.util.TreeSet<>();
        for (ResultRecord r : records) {
            String rule = r.grade().rule();
            if (rule != null && rule.indexOf(':') > 0) modes.add(rule.substring(0, rule.indexOf(':')));
        }
        return modes.isEmpty() ? null : String.join(", ", modes);
    }

    /** The same summary for predictions without a run behind them (a graded file): no confidences, tokens or times. */
    public RunSummary withoutRunData() {
        Map<String, MethodMetrics> m = new LinkedHashMap<>();
        for (var e : metrics.entrySet()) m.put(e.getKey(), e.getValue().withoutRunData());
        return new RunSummary(data, methods, circular, questions, skipped, m, byCategory, byL2Category, command, grading, signals, statistics);
    }

    private static Map<String, Cell> cells(List<ResultRecord> rs, boolean category) {
        Map<String, List<ResultRecord>> by = new TreeMap<>();
        for (ResultRecord r : rs) {
            String key = category ? r.question().category() : r.question().l2Category();
            by.computeIfAbsent(key == null ? "-" : key, k -> new ArrayList<>()).add(r); // a TreeMap takes no null key
        }
        Map<String, Cell> out = new LinkedHashMap<>();
        for (var e : by.entrySet()) {
            MethodMetrics.GroupAccuracy ga = MethodMetrics.groupAccuracy(e.getValue());
            out.put(e.getKey(), new Cell(ga.groups(), ga.accuracy(), ga.ci()));
        }
        return out;
    }

    public void write(Path file) { write(file, Map.of()); }

    /**
     * Writes summary.json once, with {@code added} fields after the summary's own (the data file's provenance, a
     * benchmark's own score, a reproduction's paper figures); {@link #read} reads the summary's own back.
     */
    public void write(Path file, Map<String, com.fasterxml.jackson.databind.JsonNode> added) {
        com.fasterxml.jackson.databind.node.ObjectNode tree = Json.MAPPER.valueToTree(this);
        added.forEach(tree::set);
        try {
            AtomicFiles.writeString(file, Json.writePretty(tree));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The summary file of a run's directory. */
    public static final String FILE = "summary.json";

    /**
     * The summary of a {@code gam eval} directory: its summary.json, or, for a run killed before writing it, a summary
     * computed from its results.db with the default settings.
     */
    public static RunSummary ofRun(Path dir) {
        Path f = dir.resolve(FILE);
        if (Files.isRegularFile(f)) return read(f);
        if (!Files.isRegularFile(dir.resolve("results.db"))) {
            throw new IllegalArgumentException(dir + " holds neither " + FILE + " nor results.db; run `gam eval ... --out " + dir + "` first");
        }
        List<ResultRecord> records = dev.gamagent.eval.store.ResultStore.read(dir);
        List<String> methods = records.stream().map(ResultRecord::method).distinct().toList();
        boolean circular = records.stream().anyMatch(r -> r.question().rotation() > 0);
        int questions = (int) records.stream().map(r -> r.question().group()).distinct().count();
        dev.gamagent.config.Config c = dev.gamagent.config.Config.defaults();
        return compute(dir.toString(), methods, circular, questions, List.of(), records, PriceTable.from(c),
                dev.gamagent.gam.GamSettings.stopping(c).thetaU(), null);
    }

    /**
     * A run directory's summary.json as a JSON tree (the parts the typed summary does not carry: provenance, question
     * hashes, the data file's name), or null when the run wrote none (killed before its end).
     */
    public static com.fasterxml.jackson.databind.JsonNode treeOfRun(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.isRegularFile(f)) return null;
        try {
            return Json.MAPPER.readTree(f.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read run summary " + f + ": " + e.getMessage(), e);
        }
    }

    public static RunSummary read(Path file) {
        try {
            return Json.MAPPER.readValue(file.toFile(), RunSummary.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read run summary " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The records in one order whatever order they were answered and stored in (question, rotation, method): every sum,
     * mean and resample of the summary is then the same for the same answers. Stored in the order answers arrived, a
     * run resumed after a kill summed its U_sys per round in another order than an uninterrupted run (the last bit of
     * a mean differed).
     */
    static List<ResultRecord> inQuestionOrder(List<ResultRecord> records) {
        List<ResultRecord> out = new java.util.ArrayList<>(records);
        out.sort(java.util.Comparator.comparing((ResultRecord r) -> r.question().id()).thenComparingInt(r -> r.question().rotation())
                .thenComparing(ResultRecord::method));
        return out;
    }
}
