package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.grade.VlmEvalKitVqa;
import dev.gamagent.eval.grade.VlmEvalKitYesNo;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A benchmark's own score beside the accuracy: for MME, VLMEvalKit's {@code MME_rating} (per category
 * accuracy × 100 plus acc+ × 100, where acc+ is the share of images whose two questions are both right;
 * perception and reasoning are the sums of their categories, at most 2000 and 800). The rows' categories
 * and images are read from the benchmark file ({@code category}, {@code image_path}).
 */
public final class BenchmarkScore {
    private BenchmarkScore() { }

    /** Whether {@code entry} has a score of its own. */
    public static boolean appliesTo(DatasetEntry entry) { return entry != null && entry.name().equals("MME"); }

    /**
     * VLMEvalKit's figure for a benchmark graded by a score per question ({@link VlmEvalKitVqa}: VQA accuracy, ANLS ...):
     * the mean of the scores × 100 per method, over the graded records of rotation 0; null when no record carries a score.
     */
    public static ObjectNode meanScore(String name, List<ResultRecord> records) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        java.util.Set<String> rules = new java.util.TreeSet<>();
        for (ResultRecord r : records) {
            Double s = VlmEvalKitVqa.scoreOf(r.grade().rule());
            if (s == null || r.isError() || r.ungraded() || r.question().rotation() != 0) continue;
            rules.add(r.grade().rule().substring(0, r.grade().rule().indexOf(':')));
            double[] acc = sums.computeIfAbsent(r.method(), k -> new double[2]);
            acc[0] += s;
            acc[1]++;
        }
        if (sums.isEmpty()) return null;
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("name", name);
        out.put("rule", String.join(",", rules));
        ObjectNode methods = out.putObject("methods");
        sums.forEach((m, acc) -> {
            ObjectNode o = methods.putObject(m);
            o.put("graded_rows", (long) acc[1]);
            o.put("score", acc[0] / acc[1] * 100);
        });
        return out;
    }

    /** MME's score per method from the run's records; null when the file lacks the columns it needs. */
    public static ObjectNode mme(Path tsv, List<ResultRecord> records) throws IOException {
        List<Map<String, String>> rows = PandasTable.columns(tsv, Set.of("index", "category", "image_path")::contains);
        Map<String, Map<String, String>> byIndex = new LinkedHashMap<>();
        for (Map<String, String> r : rows) if (r.get("index") != null) byIndex.put(r.get("index").strip(), r);
        if (byIndex.isEmpty() || byIndex.values().iterator().next().get("image_path") == null) return null;
        Map<String, List<VlmEvalKitYesNo.Scored>> byMethod = new LinkedHashMap<>();
        for (ResultRecord r : records) {
            if (r.isError() || r.question().rotation() != 0) continue;
            Map<String, String> row = byIndex.get(r.question().id());
            if (row == null) continue;
            byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>())
                    .add(new VlmEvalKitYesNo.Scored(row.get("category"), row.get("image_path"), r.correct()));
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("name", "MME score");
        out.put("rule", "VLMEvalKit's MME_rating: per category accuracy × 100 + acc+ × 100 (both questions of an image right); "
                + "perception and reasoning are the sums of their categories (at most 2000 and 800)");
        out.put("rows_in_file", byIndex.size());
        ObjectNode methods = out.putObject("methods");
        for (var e : byMethod.entrySet()) {
            ObjectNode m = methods.putObject(e.getKey());
            m.put("graded_rows", e.getValue().size());
            m.put("complete", e.getValue().size() == byIndex.size());
            ObjectNode s = m.putObject("scores");
            VlmEvalKitYesNo.mmeRating(e.getValue()).forEach(s::put);
        }
        return out;
    }
}
