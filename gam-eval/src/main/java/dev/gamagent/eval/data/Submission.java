package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.format.XlsxWriter;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The official submission file of a test split without public answers, in the layout VLMEvalKit's inference writes
 * its prediction file ({@code vlmeval/inference.py} at e8e78f05, lines 244-285: the benchmark's rows in the file's
 * order with every column but {@code image}, plus {@code prediction}, the model's reply as text), one per method,
 * named {@code <method>_<dataset>.xlsx} as VLMEvalKit names {@code <model>_<dataset>.xlsx}.
 */
public final class Submission {
    private Submission() { }

    /** What was written: the file per method and how many of the file's rows it answers. */
    public record Written(String method, Path file, int rows, int answered) { }

    /**
     * Writes one submission file per method that has ungraded records (answers to rows without a public answer) into
     * {@code out/submission/}; rows the run did not reach (a {@code --limit}, a failed pair) are left with an empty
     * prediction and counted. Nothing is written when no record is ungraded.
     */
    public static List<Written> write(Path benchmark, String dataset, List<ResultRecord> records, Path out) throws IOException {
        Map<String, Map<String, String>> byMethod = new LinkedHashMap<>();
        for (ResultRecord r : records) {
            if (!r.ungraded() || r.question().id().contains("#r")) continue; // a rotation gam made itself is not a row of the file
            byMethod.computeIfAbsent(r.method(), k -> new HashMap<>()).put(r.question().id(), prediction(r));
        }
        if (byMethod.isEmpty()) return List.of();
        List<Map<String, String>> rows = PandasTable.columns(benchmark, column -> !column.equals("image"));
        List<String> header = new ArrayList<>(rows.isEmpty() ? List.of() : rows.get(0).keySet());
        header.remove("prediction");
        header.add("prediction");
        Path dir = out.resolve("submission");
        Files.createDirectories(dir);
        List<Written> written = new ArrayList<>();
        for (var m : byMethod.entrySet()) {
            List<List<String>> cells = new ArrayList<>(rows.size());
            int answered = 0;
            for (Map<String, String> row : rows) {
                List<String> line = new ArrayList<>(header.size());
                for (String c : header.subList(0, header.size() - 1)) line.add(row.get(c));
                String idx = row.get("index") == null ? null : row.get("index").strip();
                String p = idx == null ? null : m.getValue().get(idx);
                if (p != null) answered++;
                line.add(p);
                cells.add(line);
            }
            Path file = dir.resolve(m.getKey() + "_" + dataset + ".xlsx");
            XlsxWriter.write(file, header, cells);
            written.add(new Written(m.getKey(), file, rows.size(), answered));
        }
        return written;
    }

    /** The reply as VLMEvalKit's prediction column holds it: the model's answer text, else the option it chose. */
    static String prediction(ResultRecord r) {
        if (r.grade().answer() != null && !r.grade().answer().isBlank()) return r.grade().answer();
        return r.grade().option() != null ? r.grade().option() : r.grade().predicted();
    }

    /** {@code summary.json}'s {@code no_public_answers}: what was kept ungraded, the files, and where to submit them. */
    public static ObjectNode summary(String dataset, String submitTo, List<Written> written, long ungraded) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("dataset", dataset);
        o.put("note", "no public answers: the answers are kept as 'ungraded' (not counted right or wrong); the official figures "
                + "come from the submission file" + (submitTo != null ? " graded at " + submitTo : ""));
        o.put("ungraded_records", ungraded);
        if (submitTo != null) o.put("submit_to", submitTo);
        var files = o.putArray("submission_files");
        for (Written w : written) {
            ObjectNode f = files.addObject();
            f.put("method", w.method());
            f.put("file", w.file().toString());
            f.put("rows", w.rows());
            f.put("answered", w.answered());
        }
        return o;
    }
}
