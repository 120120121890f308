package dev.gamagent.eval;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * accuracy per category and per l2-category for each method, and which uncertainty signal each method's agents
 * ran on ({@link SignalMix}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunSummary(String data, List<String> methods, boolean circular, int questions, List<SkippedRow> skipped,
                         Map<String, MethodMetrics> metrics, Map<String, Map<String, Cell>> byCategory,
                         Map<String, Map<String, Cell>> byL2Category, String command, Map<String, Map<String, Long>> signals) {

    /** Accuracy of one method in one category: complete groups and the share right. */
    public record Cell(int n, Double accuracy) { }

    public static RunSummary compute(String data, List<String> requestedMethods, boolean circular, int questions,
                                     List<SkippedRow> skipped, List<ResultRecord> records, PriceTable prices,
                                     double thetaU, String command) {
        LinkedHashSet<String> methods = new LinkedHashSet<>(requestedMethods);
        for (ResultRecord r : records) methods.add(r.method());
        Map<String, MethodMetrics> metrics = new LinkedHashMap<>();
        Map<String, Map<String, Cell>> cats = new LinkedHashMap<>(), l2 = new LinkedHashMap<>();
        Map<String, Map<String, Long>> signals = new LinkedHashMap<>();
        for (String m : methods) {
            List<ResultRecord> mine = records.stream().filter(r -> r.method().equals(m)).toList();
            metrics.put(m, MethodMetrics.of(m, mine, prices, thetaU, circular));
            cats.put(m, cells(mine, true));
            l2.put(m, cells(mine, false));
            signals.put(m, SignalMix.of(mine));
        }
        return new RunSummary(data, List.copyOf(methods), circular, questions, skipped, metrics, cats, l2, command, signals);
    }

    private static Map<String, Cell> cells(List<ResultRecord> rs, boolean category) {
        Map<String, List<ResultRecord>> by = new TreeMap<>();
        for (ResultRecord r : rs) by.computeIfAbsent(category ? r.category() : r.l2Category(), k -> new ArrayList<>()).add(r);
        Map<String, Cell> out = new LinkedHashMap<>();
        for (var e : by.entrySet()) {
            MethodMetrics.GroupAccuracy ga = MethodMetrics.groupAccuracy(e.getValue());
            out.put(e.getKey() == null ? "-" : e.getKey(), new Cell(ga.groups(), ga.accuracy()));
        }
        return out;
    }

    public void write(Path file) {
        try {
            Files.writeString(file, Json.writePretty(this));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static RunSummary read(Path file) {
        try {
            return Json.MAPPER.readValue(file.toFile(), RunSummary.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read run summary " + file + ": " + e.getMessage(), e);
        }
    }
}
