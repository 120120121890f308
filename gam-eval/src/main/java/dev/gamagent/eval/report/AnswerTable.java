package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.replay.FullLengthRuns;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import dev.gamagent.util.NaturalOrder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The question × method table researchers export: one row per graded item (a question, or a circular group), one cell
 * per series with its prediction, whether it was right, its tokens and its debate rounds. Across runs a row is one
 * question by content ({@link RunPairing}'s keys), so the same question under different ids is one row and the same id
 * with different content two. Written beside the page as CSV ({@link #csv}: RFC 4180, UTF-8 with a byte-order mark so
 * that a spreadsheet reads it as UTF-8) and JSON Lines ({@link #jsonl}); the page draws the same table from its answer rows.
 *
 * @param series the columns: "method" for one run, "run / method" for several
 * @param rows   in question order
 */
public record AnswerTable(List<String> series, List<Row> rows) {

    /** One series' answer to one item; {@code correct} null when it was not graded (an error, no public answer). */
    public record Cell(String prediction, Boolean correct, long tokens, int rounds) { }

    /**
     * @param key       the item's key (its content hash across runs, its id in one run)
     * @param benchmark the benchmark it belongs to (null for one run)
     * @param ids       run name → the item's id in that run
     * @param answer    the expected answer
     * @param cells     series → its answer (absent: that series did not answer it)
     */
    public record Row(String key, String benchmark, Map<String, String> ids, String answer, Map<String, Cell> cells) {
        /** The ids the item has in the runs, distinct, joined by " / ". */
        public String id() { return String.join(" / ", new java.util.LinkedHashSet<>(ids.values())); }
    }

    /** The table of {@code runs}; {@code pairing} (null for one run) gives each item's key across runs. */
    public static AnswerTable of(List<ReportRun> runs, RunPairing pairing) {
        boolean many = runs.size() > 1;
        List<String> series = new ArrayList<>();
        Map<String, Row> rows = new LinkedHashMap<>();
        for (ReportRun run : runs) {
            Map<String, List<ResultRecord>> byMethod = new LinkedHashMap<>();
            for (ResultRecord r : run.records()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                String name = many ? run.name() + " / " + e.getKey() : e.getKey();
                series.add(name);
                List<ResultRecord> mine = FullLengthRuns.recordedFull(e.getValue()) ? FullLengthRuns.redecided(e.getValue()) : e.getValue();
                Map<String, Boolean> graded = MethodMetrics.gradedItems(mine);
                Map<String, List<ResultRecord>> byGroup = new LinkedHashMap<>();
                for (ResultRecord r : mine) byGroup.computeIfAbsent(groupOf(r), k -> new ArrayList<>()).add(r);
                Map<String, String> keys = pairing == null ? Map.of() : pairing.keys().getOrDefault(name, Map.of());
                for (var g : byGroup.entrySet()) {
                    String key = keys.getOrDefault(g.getKey(), "run " + run.name() + ": " + g.getKey());
                    ResultRecord first = g.getValue().stream().filter(r -> r.question().rotation() == 0).findFirst().orElse(g.getValue().get(0));
                    String benchmark = pairing == null ? null : pairing.benchmarks().get(run.name());
                    Row row = rows.computeIfAbsent(key, k -> new Row(k, benchmark, new LinkedHashMap<>(), first.question().groundTruth(), new LinkedHashMap<>()));
                    row.ids().putIfAbsent(run.name(), g.getKey());
                    long tokens = 0;
                    for (ResultRecord r : g.getValue()) tokens += r.cost().promptTokens() + r.cost().completionTokens();
                    row.cells().put(name, new Cell(first.isError() ? null : first.grade().predicted(), graded.get(g.getKey()), tokens, first.trace().rounds()));
                }
            }
        }
        List<Row> ordered = new ArrayList<>(rows.values());
        ordered.sort((a, b) -> NaturalOrder.COMPARATOR.compare(a.ids().values().iterator().next(), b.ids().values().iterator().next()));
        return new AnswerTable(List.copyOf(series), List.copyOf(ordered));
    }

    private static String groupOf(ResultRecord r) { return r.question().group() == null ? r.question().id() : r.question().group(); }

    /** The CSV's column names: benchmark, question, answer, then four per series. */
    public List<String> header() {
        List<String> h = new ArrayList<>(List.of("benchmark", "question", "answer"));
        for (String s : series) for (String c : List.of("prediction", "correct", "tokens", "rounds")) h.add(s + ": " + c);
        return h;
    }

    /** A byte-order mark first: without it a spreadsheet reads UTF-8 as the system's code page (✓ and non-Latin text garbled). */
    public static final String BOM = "\uFEFF";

    /**
     * RFC 4180: CRLF line ends, every field quoted when it holds a comma, a quote, CR or LF (quotes doubled); correct
     * as 1 or 0 (empty: not graded); a series that did not answer the question leaves its four fields empty.
     */
    public String csv() {
        StringBuilder b = new StringBuilder(BOM);
        line(b, header());
        for (Row r : rows) {
            List<String> f = new ArrayList<>(List.of(nz(r.benchmark()), r.id(), nz(r.answer())));
            for (String s : series) {
                Cell c = r.cells().get(s);
                if (c == null) { f.addAll(List.of("", "", "", "")); continue; }
                f.add(nz(c.prediction()));
                f.add(c.correct() == null ? "" : c.correct() ? "1" : "0");
                f.add(Long.toString(c.tokens()));
                f.add(Integer.toString(c.rounds()));
            }
            line(b, f);
        }
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) b.append(',');
            String v = fields.get(i);
            if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                b.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                b.append(v);
            }
        }
        b.append("\r\n");
    }

    private static String nz(String s) { return s == null ? "" : s; }

    /** One JSON object per question: benchmark, question (ids), ids by run, answer, and per series its cell. */
    public String jsonl() {
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            if (r.benchmark() != null) o.put("benchmark", r.benchmark());
            o.put("question", r.id());
            o.set("ids", Json.MAPPER.valueToTree(r.ids()));
            o.put("answer", r.answer());
            ObjectNode cells = o.putObject("methods");
            for (String s : series) {
                Cell c = r.cells().get(s);
                if (c != null) cells.set(s, Json.MAPPER.valueToTree(c));
            }
            b.append(Json.write(o)).append('\n');
        }
        return b.toString();
    }
}
