package dev.gamagent.eval.report;

import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which answers of several runs may be compared: only those to the same question, and only within one benchmark.
 * Runs of different benchmarks (the benchmark's catalogue name, else the data file's name) are shown side by side and
 * never paired; within a benchmark two runs' items are paired by their content hash ({@link QuestionHashes}), whatever
 * their ids, so a question asked with other text, options, answer or image is never paired, and the same id with other
 * content is counted in a warning. A run without hashes (a summary.json written before they were recorded, or by
 * {@code gam grade}) pairs only its own methods. Holm's correction spans one benchmark's pairs.
 *
 * @param pairs    every pair compared, with its benchmark as the family
 * @param warnings what was not paired and why, one line each
 * @param keys     per series (as given), item id → the key it is compared under (the same key for the same question
 *                 across runs)
 * @param benchmarks run name → its benchmark
 */
public record RunPairing(Pairwise.Report pairs, List<String> warnings, Map<String, Map<String, String>> keys, Map<String, String> benchmarks) {

    /**
     * One run as compared.
     *
     * @param name      the run's name on the page
     * @param benchmark which benchmark it ran ({@link #benchmarkOf})
     * @param hashes    item id (group) → content hash, or null when the run recorded none
     * @param items     method → item id → right
     */
    public record Run(String name, String benchmark, Map<String, String> hashes, Map<String, Map<String, Boolean>> items) { }

    /** A run's benchmark: the catalogue's name of its data file (summary.json's {@code data_file.name}), else the file's name. */
    public static String benchmarkOf(com.fasterxml.jackson.databind.JsonNode summary, String data) {
        String name = summary == null ? null : summary.path("data_file").path("name").asText(null);
        return name != null ? name : data;
    }

    /** Series are named "run / method". */
    public static RunPairing of(List<Run> runs, IntervalMethod method) {
        List<String> warnings = new ArrayList<>();
        Map<String, Map<String, Map<String, Boolean>>> families = new LinkedHashMap<>();
        Map<String, Map<String, String>> keys = new LinkedHashMap<>();
        Map<String, List<Run>> byBenchmark = new LinkedHashMap<>();
        for (Run r : runs) byBenchmark.computeIfAbsent(r.benchmark(), b -> new ArrayList<>()).add(r);
        if (byBenchmark.size() > 1) {
            List<String> which = new ArrayList<>();
            byBenchmark.forEach((b, rs) -> which.add(b + " (" + String.join(", ", rs.stream().map(Run::name).toList()) + ")"));
            warnings.add("different benchmarks: " + String.join("; ", which) + ". Their runs are shown side by side and not compared: "
                    + "no pair spans two benchmarks, and Holm's correction and the Pareto front are per benchmark.");
        }
        for (var b : byBenchmark.entrySet()) {
            List<Run> rs = b.getValue();
            if (rs.size() > 1) {
                for (Run r : rs) {
                    if (r.hashes() == null) {
                        warnings.add(r.name() + ": its summary.json has no question hashes (written before gam recorded them, or by gam grade), "
                                + "so it is not compared with the other runs of " + b.getKey() + "; rerun its gam eval command in its directory "
                                + "(it answers nothing again) to add them.");
                    }
                }
                for (int j = 1; j < rs.size(); j++) {
                    for (int i = 0; i < j; i++) {
                        Run x = rs.get(i), y = rs.get(j);
                        if (x.hashes() == null || y.hashes() == null) continue;
                        int differ = 0;
                        for (var e : x.hashes().entrySet()) {
                            String other = y.hashes().get(e.getKey());
                            if (other != null && !other.equals(e.getValue())) differ++;
                        }
                        if (differ > 0) {
                            warnings.add(x.name() + " and " + y.name() + ": " + differ + (differ == 1 ? " question has" : " questions have")
                                    + " the same id but not the same content (text, options, answer or image); not paired.");
                        }
                    }
                }
            }
            Map<String, Map<String, Boolean>> family = new LinkedHashMap<>();
            for (Run r : rs) {
                // a run that cannot be compared with the others of its benchmark is a family of its own (its methods are still compared)
                boolean alone = rs.size() > 1 && r.hashes() == null;
                Map<String, Map<String, Boolean>> into = alone ? new LinkedHashMap<>() : family;
                if (alone) families.put(b.getKey() + ", run " + r.name() + " only", into);
                Map<String, String> key = keysOf(r, b.getKey());
                for (var m : r.items().entrySet()) {
                    String series = r.name() + " / " + m.getKey();
                    Map<String, Boolean> byKey = new LinkedHashMap<>();
                    Map<String, String> seriesKeys = new LinkedHashMap<>();
                    for (var item : m.getValue().entrySet()) {
                        String k = key.get(item.getKey());
                        if (k == null) continue;
                        byKey.put(k, item.getValue());
                        seriesKeys.put(item.getKey(), k);
                    }
                    into.put(series, byKey);
                    keys.put(series, seriesKeys);
                }
            }
            families.put(b.getKey(), family);
        }
        Map<String, String> benchmarks = new LinkedHashMap<>();
        for (Run r : runs) benchmarks.put(r.name(), r.benchmark());
        return new RunPairing(Pairwise.compareFamilies(families, method), List.copyOf(warnings), keys, benchmarks);
    }

    /**
     * Item id → the key the run's items are compared under: the content hash (with an occurrence number, so two
     * questions of one file with the same content stay two), or, for a run or item without a hash, a key of its own run.
     */
    private static Map<String, String> keysOf(Run r, String benchmark) {
        Map<String, String> out = new LinkedHashMap<>();
        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
        for (var m : r.items().values()) ids.addAll(m.keySet());
        if (r.hashes() == null) {
            for (String id : ids) out.put(id, "run " + r.name() + ": " + id);
            return out;
        }
        List<String> ordered = new ArrayList<>(r.hashes().keySet());
        ordered.sort(dev.gamagent.util.NaturalOrder.COMPARATOR);
        Map<String, Integer> seen = new LinkedHashMap<>();
        Map<String, String> byId = new LinkedHashMap<>();
        for (String id : ordered) {
            String h = r.hashes().get(id);
            int n = seen.merge(h, 1, Integer::sum);
            byId.put(id, benchmark + "|" + h + (n == 1 ? "" : "#" + n));
        }
        // an item without a hash (its image could not be read again) is compared within its run only
        for (String id : ids) out.put(id, byId.getOrDefault(id, "run " + r.name() + ": " + id));
        return out;
    }
}
