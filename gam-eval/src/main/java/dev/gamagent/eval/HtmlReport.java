package dev.gamagent.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code report.html} and {@code gam report}'s comparison page: one self-contained file that opens with no
 * network. Tables are plain HTML; the charts are drawn in the page by ECharts (bundled inline, SVG renderer);
 * the sample list opens each answer's debate in the trace viewer ({@code web/viewer.js}, shared with the
 * {@code gam serve} page). The run's data travels in a JSON script element; text is only ever set as text.
 */
public final class HtmlReport {
    private HtmlReport() { }

    /**
     * One run to show: its name (empty for a single run), summary, the records behind it (may be empty), and small
     * images of its questions by question id (may be empty) for the trace viewer to draw claim regions on.
     */
    public record Run(String name, RunSummary summary, List<ResultRecord> records, Map<String, String> images) {
        public Run(String name, RunSummary summary, List<ResultRecord> records) { this(name, summary, records, Map.of()); }
    }

    /** Questions up to which {@link #thumbnails} embeds images (about 10–20 kB each). */
    static final int MAX_THUMBNAILS = 600;

    public static void write(Path file, RunSummary s) { write(file, s, List.of(), Map.of()); }

    public static void write(Path file, RunSummary s, List<ResultRecord> records, Map<String, String> images) {
        try {
            Files.writeString(file, render(new Run("", s, records, images)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static String render(RunSummary s) { return render(new Run("", s, List.of(), Map.of())); }

    /**
     * Each question's first image scaled to at most 420 px wide, as a JPEG data URL by question id; none when
     * there are more than {@value #MAX_THUMBNAILS} questions (the page would grow too large).
     */
    public static Map<String, String> thumbnails(List<EvalQuestion> questions) {
        Map<String, String> out = new LinkedHashMap<>();
        if (questions.size() > MAX_THUMBNAILS) return out;
        for (EvalQuestion q : questions) {
            try {
                var pics = q.question().images();
                if (pics.isEmpty()) continue;
                var p = pics.get(0);
                var small = p.width() > 420 ? p.scaled(420.0 / p.width(), Long.MAX_VALUE) : p;
                java.awt.image.BufferedImage rgb = new java.awt.image.BufferedImage(small.width(), small.height(),
                        java.awt.image.BufferedImage.TYPE_INT_RGB);
                rgb.createGraphics().drawImage(small.image(), 0, 0, java.awt.Color.WHITE, null);
                var bytes = new java.io.ByteArrayOutputStream();
                javax.imageio.ImageIO.write(rgb, "jpg", bytes);
                out.put(q.id(), "data:image/jpeg;base64," + java.util.Base64.getEncoder().encodeToString(bytes.toByteArray()));
            } catch (IOException | RuntimeException e) {
                // a question whose image cannot be read again is shown without it
            }
        }
        return out;
    }

    public static String render(Run run) {
        RunSummary s = run.summary();
        StringBuilder h = new StringBuilder();
        head(h, "GAM-Agent evaluation: " + s.data());
        h.append("<header><h1>Evaluation of ").append(esc(s.data())).append("</h1>\n<p>")
                .append(s.questions()).append(" questions").append(s.circular() ? " (circular evaluation: a question counts only if every option rotation is right)" : "")
                .append("; methods: ").append(esc(String.join(", ", s.methods()))).append(".");
        if (s.command() != null) h.append(" Reproduce with <code>").append(esc(s.command())).append("</code>.");
        h.append(" Multiple-choice grading: ").append(esc(GradingMode.describeLabels(s.grading()))).append('.');
        h.append("</p></header>\n");
        h.append("<nav class=toc><a href=\"#methods\">Methods</a> <a href=\"#plots\">Plots</a> <a href=\"#answers\">Answers and debates</a> "
                + "<a href=\"#categories\">Categories</a></nav>\n");
        h.append("<h2 id=methods>Methods</h2>\n");
        metricTable(h, s.metrics(), null);
        backendTable(h, s.metrics());
        timingNote(h);
        signals(h, s.signals());
        flipTable(h, s.metrics());
        plots(h);
        samples(h, false);
        h.append("<h2 id=categories>Accuracy per category</h2>\n");
        cellTable(h, "category", s.byCategory());
        h.append("<h2>Accuracy per l2-category</h2>\n");
        cellTable(h, "l2-category", s.byL2Category());
        if (!s.skipped().isEmpty()) {
            h.append("<h2>Skipped rows</h2>\n<ul>\n");
            for (SkippedRow r : s.skipped()) h.append("<li>row ").append(esc(r.index())).append(": ").append(esc(r.reason())).append("</li>\n");
            h.append("</ul>\n");
        }
        h.append("<p class=note>Metric definitions: docs/metrics.md. Errors (backend failures) are excluded from every metric and retried on resume.</p>\n");
        scripts(h, List.of(run));
        return h.append("</body></html>\n").toString();
    }

    /** {@code gam report}: several runs side by side, each method a series "run / method". */
    public static String renderComparison(Map<String, RunSummary> runs) {
        List<Run> list = new ArrayList<>();
        runs.forEach((name, s) -> list.add(new Run(name, s, List.of())));
        return renderComparison(list);
    }

    public static String renderComparison(List<Run> runs) {
        StringBuilder h = new StringBuilder();
        head(h, "GAM-Agent run comparison");
        h.append("<header><h1>Run comparison</h1>\n<p>");
        for (Run r : runs) {
            h.append("<b>").append(esc(r.name())).append("</b>: ").append(esc(r.summary().data())).append(", ")
                    .append(r.summary().questions()).append(" questions");
            if (r.summary().command() != null) h.append(" (<code>").append(esc(r.summary().command())).append("</code>)");
            h.append(". ");
        }
        h.append("</p></header>\n");
        Map<String, MethodMetrics> all = new LinkedHashMap<>();
        for (Run run : runs) {
            for (var m : run.summary().metrics().entrySet()) all.put(run.name() + " / " + m.getKey(), m.getValue());
        }
        h.append("<h2 id=methods>Methods</h2>\n");
        metricTable(h, all, "run / method");
        backendTable(h, all);
        timingNote(h);
        flipTable(h, all);
        plots(h);
        samples(h, true);
        h.append("<h2 id=categories>Accuracy per category</h2>\n");
        Map<String, Map<String, RunSummary.Cell>> cats = new LinkedHashMap<>();
        for (Run run : runs) {
            for (var m : run.summary().byCategory().entrySet()) cats.put(run.name() + " / " + m.getKey(), m.getValue());
        }
        cellTable(h, "category", cats);
        scripts(h, runs);
        return h.append("</body></html>\n").toString();
    }

    /** Which uncertainty signal each method's agents ran on (semantic = hedge words only: no log-probs, no sampling). */
    private static void signals(StringBuilder h, Map<String, Map<String, Long>> mix) {
        if (mix == null || mix.values().stream().allMatch(Map::isEmpty)) return;
        h.append("<p class=signals>Uncertainty signals (agent turns and probes):");
        for (var e : mix.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            h.append(" <b>").append(esc(e.getKey())).append("</b> ").append(esc(SignalMix.describe(e.getValue()))).append(";");
        }
        h.setLength(h.length() - 1);
        h.append(".</p>\n");
    }

    private static void timingNote(StringBuilder h) {
        h.append("<p class=note>s/q is each method's own wall time per question: in one run every method has its own "
                + "perception cache for the built-in model, so none is timed on image analysis another method already did. "
                + "Timings depend on the machine's load; compare methods within one run.</p>\n");
    }

    /** The figures the page's script fills; one heading per question the plot answers. */
    private static void plots(StringBuilder h) {
        h.append("<h2 id=plots>Plots</h2>\n<p class=note>Interactive: hover for values, click legend entries to hide series. "
                + "Drawn in the page by ECharts (bundled; no network needed).</p>\n");
        h.append("<figure class=wide><label class=axis-choice>cost axis <select id=cost-axis>"
                + "<option value=tokens>tokens / question</option><option value=dollars>$ / question</option>"
                + "<option value=seconds>seconds / question</option><option value=calls>calls / question</option></select></label>"
                + "<div class=chart id=chart-cost></div></figure>\n");
        h.append("<figure class=wide><figcaption>Reliability diagrams (10 equal-width confidence bins; bar = accuracy in the bin, "
                + "label = answers in it; dashed = perfect calibration)</figcaption><div id=chart-reliability class=multiples></div></figure>\n");
        for (String id : List.of("chart-categories", "chart-flips", "chart-rounds", "chart-terminations", "chart-dream", "chart-usys",
                "chart-tokens", "chart-weights")) {
            h.append("<figure class=wide><div class=chart id=").append(id).append("></div></figure>\n");
        }
    }

    private static void samples(StringBuilder h, boolean comparison) {
        h.append("<h2 id=answers>Answers and debates</h2>\n<section id=samples class=samples>\n<div id=sample-filters class=filters></div>\n")
                .append("<div class=sample-split><div class=sample-scroll><table id=sample-list><thead><tr><th>question</th><th>")
                .append(comparison ? "run / method" : "method")
                .append("</th><th>category</th><th>outcome</th><th>flip</th><th>stop · rounds</th><th>conf.</th></tr></thead>")
                .append("<tbody></tbody></table></div>\n<div id=sample-view class=sample-view><p class=note>Click an answer to see its "
                        + "debate: every round's answers, claims and critiques, DREAM's probes.</p></div></div>\n</section>\n");
    }

    /** ECharts, the viewer, the page script and the data, inline so the file works from disk with no network. */
    private static void scripts(StringBuilder h, List<Run> runs) {
        h.append(SORT_SCRIPT);
        h.append("<script id=gam-data type=\"application/json\">").append(safeJson(data(runs))).append("</script>\n");
        for (String js : List.of("echarts.js", "viewer.js", "report.js")) {
            h.append("<script>/* ").append(js).append(" */\n").append(resource(js)).append("\n</script>\n");
        }
    }

    /** The page's data: per run, its summary and one compact entry per answer (with its trace). */
    static ObjectNode data(List<Run> runs) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("kind", runs.size() > 1 ? "comparison" : "run");
        ArrayNode list = root.putArray("runs");
        for (Run run : runs) {
            ObjectNode o = list.addObject();
            o.put("name", run.name());
            o.set("summary", Json.MAPPER.valueToTree(run.summary()));
            if (!run.images().isEmpty()) o.set("images", Json.MAPPER.valueToTree(run.images()));
            ArrayNode recs = o.putArray("records");
            Map<String, List<ResultRecord>> byMethod = new LinkedHashMap<>();
            for (ResultRecord r : run.records()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                List<ResultRecord> rs = e.getValue();
                boolean debating = rs.stream().anyMatch(r -> !FlipAccounting.decisions(r).isEmpty());
                if (FullLengthRuns.recordedFull(rs)) {
                    // as in the summary: the method's name holds the re-decided answers, the forced debates are labelled
                    for (ResultRecord r : FullLengthRuns.redecided(rs)) recs.add(compact(r, run.name(), e.getKey(), debating));
                    for (ResultRecord r : rs) recs.add(compact(r, run.name(), e.getKey() + FullLengthRuns.FORCED_SUFFIX, debating));
                } else {
                    for (ResultRecord r : rs) recs.add(compact(r, run.name(), e.getKey(), debating));
                }
            }
        }
        return root;
    }

    private static ObjectNode compact(ResultRecord r, String run, String method, boolean debating) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", r.questionId());
        if (r.rotation() > 0) o.put("rotation", r.rotation());
        o.put("run", run);
        o.put("method", method);
        o.put("category", r.category());
        o.put("outcome", r.outcome());
        String flip = r.isError() ? null : FlipAccounting.flipOf(r);
        if (flip == null && debating && !r.isError()) flip = r.correct() ? "r→r" : "w→w"; // no debate round (DREAM's consensus): unchanged
        if (flip != null) o.put("flip", flip);
        String branch = MethodMetrics.branchOf(r);
        if (branch != null) o.put("branch", branch);
        o.put("termination", r.termination());
        o.put("rounds", r.rounds());
        o.put("confidence", r.confidence());
        o.put("uncertainty", r.uncertainty());
        o.put("groundTruth", r.groundTruth());
        o.put("calls", r.calls());
        o.put("millis", r.millis());
        if (r.error() != null) o.put("error", r.error());
        if (r.trace() != null) o.set("trace", r.trace());
        return o;
    }

    /** JSON inside a script element: '<', '>' and '&' only occur inside strings, where \\u escapes mean the same. */
    static String safeJson(ObjectNode data) {
        return Json.write(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }

    static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream("/web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("resource /web/" + name + " is missing from the build; rebuild with `mvn -B package` "
                        + "(web/echarts.js is copied from the ECharts webjar at generate-resources)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource /web/" + name, e);
        }
    }

    private static void metricTable(StringBuilder h, Map<String, MethodMetrics> metrics, String firstHeader) {
        boolean vanilla = metrics.values().stream().anyMatch(m -> m.vanillaAccuracy() != null);
        h.append("<table id=metrics>\n<tr><th>").append(firstHeader == null ? "method" : esc(firstHeader)).append("</th><th>questions</th><th>accuracy</th>");
        if (vanilla) h.append("<th>accuracy (rotation 0)</th>");
        h.append("<th>unmatched</th><th>errors</th><th>prompt tok/q</th><th>completion tok/q</th><th>cost/q ($)</th>"
                + "<th>calls/q</th><th>s/q</th><th>debate rate</th><th>mean rounds</th><th>ECE</th><th>AUROC(U)</th>"
                + "<th>bal. acc @θ_U</th><th>Spearman(U₀, rounds)</th></tr>\n");
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            boolean forced = e.getKey().endsWith(FullLengthRuns.FORCED_SUFFIX);
            h.append(forced ? "<tr class=forced title=\"gam.record_full=true: every debate forced to K_max; not the method's result\"><td>" : "<tr><td>")
                    .append(esc(e.getKey())).append("</td><td>").append(m.groups()).append("</td><td>").append(f3(m.accuracy())).append("</td>");
            if (vanilla) h.append("<td>").append(f3(m.vanillaAccuracy())).append("</td>");
            h.append("<td>").append(m.unmatched()).append("</td><td>").append(m.errors()).append("</td><td>")
                    .append(f1(m.promptTokensPerQuestion())).append("</td><td>").append(f1(m.completionTokensPerQuestion()))
                    .append("</td><td title=\"").append(esc(String.valueOf(m.costBasis()))).append("\">")
                    .append(String.format(Locale.ROOT, "%.6f", m.costPerQuestion())).append("</td><td>").append(f2(m.callsPerQuestion()))
                    .append("</td><td>").append(f2(m.secondsPerQuestion())).append("</td><td>").append(f3(m.debateTriggerRate()))
                    .append("</td><td>").append(f2(m.meanRounds())).append("</td><td>").append(f3(m.ece())).append("</td><td>")
                    .append(f3(m.auroc())).append("</td><td>").append(f3(m.balancedAccuracy())).append("</td><td>")
                    .append(f3(m.spearmanInitialUncertaintyVsRounds())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (metrics.keySet().stream().anyMatch(k -> k.endsWith(FullLengthRuns.FORCED_SUFFIX))) {
            h.append("<p class=note>This run was recorded with <code>gam.record_full=true</code>: its debates were forced to K_max. "
                    + "The method's row gives the default stopping rule's decisions at the recorded settings (what <code>gam sweep</code> "
                    + "computes; wall time pro-rated by calls); the row marked <i>forced full length</i> gives the forced debates' own figures.</p>\n");
        }
    }

    /** Debate methods only: how the answer after round 0 compares with the final one (docs/metrics.md, flips). */
    private static void flipTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.flips() == null)) return;
        h.append("<h2>What the debate changed</h2>\n<table id=flips>\n<tr><th>method</th><th>questions</th><th>wrong→right</th>"
                + "<th>right→wrong</th><th>right→right</th><th>wrong→wrong</th><th>answer changed</th>"
                + "<th>agent turns</th><th>agent changed</th><th>agent w→r</th><th>agent r→w</th></tr>\n");
        for (var e : metrics.entrySet()) {
            FlipAccounting.Flips f = e.getValue().flips();
            if (f == null) continue;
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(f.questions()).append("</td><td>").append(f.wrongToRight())
                    .append("</td><td>").append(f.rightToWrong()).append("</td><td>").append(f.rightToRight()).append("</td><td>")
                    .append(f.wrongToWrong()).append("</td><td>").append(f.changed()).append("</td><td>").append(f.agents().transitions())
                    .append("</td><td>").append(f.agents().changed()).append("</td><td>").append(f.agents().wrongToRight())
                    .append("</td><td>").append(f.agents().rightToWrong()).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=note>Decision after round 0 vs final answer, per question; agent columns count one agent's "
                + "answer in consecutive rounds.</p>\n");
    }

    /** Only for panels that mixed backends: what each backend cost per question, per method. */
    private static void backendTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.backends() == null)) return;
        h.append("<h2>Tokens and cost per backend</h2>\n<table>\n<tr><th>method</th><th>backend</th><th>model</th><th>calls/q</th>"
                + "<th>prompt tok/q</th><th>completion tok/q</th><th>cost/q ($)</th></tr>\n");
        for (var e : metrics.entrySet()) {
            if (e.getValue().backends() == null) continue;
            for (var b : e.getValue().backends().entrySet()) {
                MethodMetrics.BackendUse u = b.getValue();
                h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(esc(b.getKey())).append("</td><td>")
                        .append(esc(u.model() == null ? u.backend() : u.model())).append("</td><td>").append(f2(u.callsPerQuestion()))
                        .append("</td><td>").append(f1(u.promptTokensPerQuestion())).append("</td><td>").append(f1(u.completionTokensPerQuestion()))
                        .append("</td><td title=\"").append(esc(String.valueOf(u.costBasis()))).append("\">")
                        .append(String.format(Locale.ROOT, "%.6f", u.costPerQuestion())).append("</td></tr>\n");
            }
        }
        h.append("</table>\n");
    }

    /**
     * One row per category (its full name), the number of questions, then one accuracy column per method;
     * a click on a header sorts by that column (again: the other way). Cells carry their sort key in data-v.
     */
    private static void cellTable(StringBuilder h, String title, Map<String, Map<String, RunSummary.Cell>> byMethod) {
        Set<String> cats = new LinkedHashSet<>();
        for (var m : byMethod.values()) cats.addAll(m.keySet());
        h.append("<table class=sortable>\n<thead><tr><th>").append(esc(title)).append("</th><th>questions</th>");
        for (String m : byMethod.keySet()) h.append("<th>").append(esc(m)).append("</th>");
        h.append("</tr></thead>\n<tbody>\n");
        for (String c : cats.stream().sorted().toList()) {
            int n = 0;
            for (var m : byMethod.values()) if (m.get(c) != null) n = Math.max(n, m.get(c).n());
            h.append("<tr><td data-v=\"").append(esc(c)).append("\">").append(esc(c)).append("</td><td data-v=\"").append(n).append("\">")
                    .append(n).append("</td>");
            for (var m : byMethod.values()) {
                RunSummary.Cell cell = m.get(c);
                Double acc = cell == null ? null : cell.accuracy();
                h.append("<td data-v=\"").append(acc == null ? "" : String.format(Locale.ROOT, "%.6f", acc)).append('"')
                        .append(cell == null ? "" : " title=\"n=" + cell.n() + "\"").append('>')
                        .append(cell == null ? "" : f3(acc)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    /** Sorts a table.sortable by the clicked column: a column of numbers numerically, else as text; empty cells last. */
    private static final String SORT_SCRIPT = """
            <script>
            document.querySelectorAll('table.sortable th').forEach(function (th) {
              th.style.cursor = 'pointer';
              th.title = 'sort by this column';
              th.addEventListener('click', function () {
                var body = th.closest('table').tBodies[0], col = th.cellIndex, asc = th.dataset.dir !== 'asc';
                th.closest('tr').querySelectorAll('th').forEach(function (o) { delete o.dataset.dir; });
                th.dataset.dir = asc ? 'asc' : 'desc';
                var rows = Array.prototype.slice.call(body.rows);
                var numeric = rows.every(function (r) { var v = r.cells[col].dataset.v; return v === '' || !isNaN(Number(v)); });
                rows.sort(function (a, b) {
                  var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
                  if (x === '' || y === '') return (x === '') - (y === '');
                  var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
                  return asc ? d : -d;
                });
                rows.forEach(function (r) { body.appendChild(r); });
              });
            });
            </script>
            """;

    private static void head(StringBuilder h, String title) {
        h.append("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(esc(title)).append("</title>\n<style>\n").append(resource("report.css")).append('\n')
                .append(resource("viewer.css")).append("</style></head><body>\n");
    }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f3(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.3f", v); }

    private static String f2(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    private static String f1(double v) { return String.format(Locale.ROOT, "%.1f", v); }
}
