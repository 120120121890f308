package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.replay.FullLengthRuns;
import dev.gamagent.explain.TraceExplainer;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import dev.gamagent.util.NaturalOrder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report's answer list and its sidecar: the answers of every run, ordered by question (natural order: q2 before
 * q10), then rotation, then the order of the methods. {@code index} is what the page carries: {@code columns} names each row's fields, string fields that repeat
 * are numbers into {@code dict}, {@code partRows} answers share a sidecar part, {@code questions} holds each run's
 * question texts. {@code parts} are the sidecar files: {@code gamDebates(n, {traces: {row: trace}, images: {"run|id": url}})}, each
 * trace carrying its {@code explanation} ({@link TraceExplainer}) beside what the run recorded.
 */
record ReportAnswers(ObjectNode index, Map<String, String> parts) {
    /** Answers per sidecar part: opening one answer loads the debates of its neighbours in the list (the same question's other methods). */
    static final int PART_ROWS = 100;

    static final List<String> COLUMNS = List.of("id", "run", "method", "rotation", "category", "outcome", "flip", "termination",
            "rounds", "confidence", "uncertainty", "groundTruth", "branch", "rollbacks", "rollback", "calls", "millis", "error", "trace", "predicted", "tokens");
    private static final Set<String> DICT = Set.of("method", "category", "outcome", "flip", "termination", "branch", "rollback", "predicted");

    /** The rollback column's values: what DREAM's rollback did to an answer (absent where no rollback step ran). */
    static final String NO_ROLLBACK = "none", ROLLBACK_KEPT = "rolled back, same answer", ROLLBACK_CHANGED = "rolled back, answer changed";

    /** The answers of {@code runs}, their debates in sidecar parts that live in folder {@code sidecar}. */
    static ReportAnswers of(List<ReportRun> runs, String sidecar) {
        record Row(int run, String method, ResultRecord r, String flip, boolean debating) { }
        List<Row> rows = new ArrayList<>();
        for (int ri = 0; ri < runs.size(); ri++) {
            ReportRun run = runs.get(ri);
            Map<String, List<ResultRecord>> byMethod = new LinkedHashMap<>();
            for (ResultRecord r : run.records()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                List<ResultRecord> rs = e.getValue();
                boolean debating = rs.stream().anyMatch(r -> !FlipAccounting.decisions(r).isEmpty());
                if (FullLengthRuns.recordedFull(rs)) {
                    // as in the summary: the method's name holds the re-decided answers, the forced debates are labelled
                    for (ResultRecord r : FullLengthRuns.redecided(rs)) rows.add(new Row(ri, e.getKey(), r, flip(r, debating), debating));
                    for (ResultRecord r : rs) rows.add(new Row(ri, e.getKey() + FullLengthRuns.FORCED_SUFFIX, r, flip(r, debating), debating));
                } else {
                    for (ResultRecord r : rs) rows.add(new Row(ri, e.getKey(), r, flip(r, debating), debating));
                }
            }
        }
        // by question, then rotation, then run and method in the order they came (the summary's method order); the
        // question ids are ranked once, so the sort compares numbers
        Map<String, Integer> methodRank = new LinkedHashMap<>();
        for (Row row : rows) methodRank.putIfAbsent(row.run() + "|" + row.method(), methodRank.size());
        List<String> groups = rows.stream().map(x -> groupOf(x.r())).distinct().sorted(NaturalOrder.COMPARATOR).toList();
        Map<String, Integer> groupRank = new java.util.HashMap<>();
        for (String g : groups) groupRank.put(g, groupRank.size());
        rows.sort(java.util.Comparator.comparingInt((Row x) -> groupRank.get(groupOf(x.r()))).thenComparingInt(x -> x.r().question().rotation())
                .thenComparingInt(x -> methodRank.get(x.run() + "|" + x.method())));
        ObjectNode index = Json.MAPPER.createObjectNode();
        ArrayNode cols = index.putArray("columns");
        COLUMNS.forEach(cols::add);
        index.put("sidecar", sidecar);
        index.put("partRows", PART_ROWS);
        ObjectNode dict = index.putObject("dict");
        Map<String, Map<String, Integer>> codes = new LinkedHashMap<>();
        for (String d : COLUMNS) if (DICT.contains(d)) { dict.putArray(d); codes.put(d, new LinkedHashMap<>()); }
        ArrayNode out = index.putArray("rows");
        ObjectNode questions = index.putObject("questions");
        Map<String, String> parts = new LinkedHashMap<>();
        ObjectNode part = null;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            ResultRecord r = row.r();
            if (i % PART_ROWS == 0) {
                if (part != null) parts.put(partName(i / PART_ROWS - 1), partScript(i / PART_ROWS - 1, part));
                part = Json.MAPPER.createObjectNode();
                part.putObject("traces");
                part.putObject("images");
            }
            ArrayNode a = out.addArray();
            a.add(r.question().id());
            a.add(row.run());
            code(a, dict, codes, "method", row.method());
            a.add(r.question().rotation());
            code(a, dict, codes, "category", r.question().category());
            code(a, dict, codes, "outcome", r.grade().outcome());
            code(a, dict, codes, "flip", row.flip());
            code(a, dict, codes, "termination", r.trace().termination());
            a.add(r.trace().rounds());
            a.add(Math.round(r.grade().confidence() * 1000) / 1000.0);
            a.add(Math.round(r.grade().uncertainty() * 1000) / 1000.0);
            if (r.question().groundTruth() == null) a.addNull(); else a.add(r.question().groundTruth());
            code(a, dict, codes, "branch", MethodMetrics.branchOf(r));
            Integer rolled = rollbacks(r);
            if (rolled == null) a.addNull(); else a.add(rolled);
            code(a, dict, codes, "rollback", rollback(r, rolled));
            a.add(r.cost().calls());
            a.add(r.cost().millis());
            if (r.grade().error() == null) a.addNull(); else a.add(r.grade().error());
            a.add(r.trace().json() != null ? 1 : 0);
            code(a, dict, codes, "predicted", r.isError() ? null : r.grade().predicted());
            a.add(r.cost().promptTokens() + r.cost().completionTokens());
            if (r.trace().json() != null) {
                // the trace as recorded, with its decision explained beside it (TraceExplainer; the viewer draws it)
                ((ObjectNode) part.get("traces")).set(Integer.toString(i), TraceExplainer.withExplanation(r.trace().json()));
                String text = r.trace().json().path("question").path("text").asText(null);
                ObjectNode q = questions.has(Integer.toString(row.run())) ? (ObjectNode) questions.get(Integer.toString(row.run()))
                        : questions.putObject(Integer.toString(row.run()));
                if (text != null && !q.has(r.question().id())) q.put(r.question().id(), text.length() > 300 ? text.substring(0, 300) : text);
            }
            String image = runs.get(row.run()).images().get(r.question().id());
            if (image != null) ((ObjectNode) part.get("images")).put(row.run() + "|" + r.question().id(), image);
        }
        if (part != null) parts.put(partName((rows.size() - 1) / PART_ROWS), partScript((rows.size() - 1) / PART_ROWS, part));
        index.put("parts", parts.size());
        return new ReportAnswers(index, parts);
    }

    private static void code(ArrayNode row, ObjectNode dict, Map<String, Map<String, Integer>> codes, String column, String value) {
        if (value == null) { row.addNull(); return; }
        Integer c = codes.get(column).get(value);
        if (c == null) {
            c = codes.get(column).size();
            codes.get(column).put(value, c);
            ((ArrayNode) dict.get(column)).add(value);
        }
        row.add(c);
    }

    static String partName(int n) { return String.format(Locale.ROOT, "part-%04d.js", n); }

    /** A sidecar part: a script (so a page opened from disk can load it, which it could not with fetch) handing its data to the page. */
    private static String partScript(int n, ObjectNode part) {
        return "gamDebates(" + n + ", " + Html.safeJson(part).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + ");\n";
    }

    /**
     * How many agents DREAM's rollback restored to an earlier, more certain answer (its trace's {@code extra.rollbacks}); null
     * when the answer had no rollback step (another method, DREAM's probe_only mode, a consensus that skipped the debate).
     */
    static Integer rollbacks(ResultRecord r) {
        JsonNode extra = r.trace().json() == null ? null : r.trace().json().path("extra");
        if (extra == null || !extra.has("rollback_uncertainty")) return null;
        JsonNode list = extra.path("rollbacks");
        return list.isArray() ? list.size() : 0;
    }

    /** The rollback filter's value: none, or whether the restored answers changed the inner method's final answer. */
    static String rollback(ResultRecord r, Integer rolled) {
        if (rolled == null) return null;
        if (rolled == 0) return NO_ROLLBACK;
        JsonNode inner = r.trace().json().path("extra").path("inner_final");
        JsonNode fin = r.trace().json().path("final");
        String before = inner.path("option").isTextual() ? inner.path("option").asText() : inner.path("answer").asText(null);
        String after = fin.path("option").isTextual() ? fin.path("option").asText() : fin.path("answer").asText(null);
        return java.util.Objects.equals(before, after) ? ROLLBACK_KEPT : ROLLBACK_CHANGED;
    }

    /** The flip the list shows: the recorded one, or for a debate method's question without rounds (DREAM's consensus) unchanged. */
    private static String flip(ResultRecord r, boolean debating) {
        if (r.isError()) return null;
        String flip = FlipAccounting.flipOf(r);
        if (flip == null && debating) flip = r.correct() ? "r→r" : "w→w";
        return flip;
    }

    private static String groupOf(ResultRecord r) { return r.question().group() == null ? r.question().id() : r.question().group(); }
}
