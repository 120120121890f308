package dev.gamagent.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code report.html}: one self-contained page (plots embedded as PNG data URIs, no external files) with
 * the method-by-metric table, per-category tables and the plots. The per-category tables (one row per
 * category, full names, one column per method) sort by any column on a click: the page's only script.
 */
public final class HtmlReport {
    private HtmlReport() { }

    public static void write(Path file, RunSummary s) {
        try {
            Files.writeString(file, render(s));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static String render(RunSummary s) {
        StringBuilder h = new StringBuilder();
        head(h, "GAM-Agent evaluation: " + s.data());
        h.append("<h1>Evaluation of ").append(esc(s.data())).append("</h1>\n<p>")
                .append(s.questions()).append(" questions").append(s.circular() ? " (circular evaluation: a question counts only if every option rotation is right)" : "")
                .append("; methods: ").append(esc(String.join(", ", s.methods()))).append(".");
        if (s.command() != null) h.append(" Reproduce with <code>").append(esc(s.command())).append("</code>.");
        h.append(" Multiple-choice grading: ").append(esc(GradingMode.describeLabels(s.grading()))).append('.');
        h.append("</p>\n");
        h.append("<h2>Methods</h2>\n");
        metricTable(h, s.metrics(), null);
        h.append("<h2>Accuracy per category</h2>\n");
        cellTable(h, "category", s.byCategory());
        h.append("<h2>Accuracy per l2-category</h2>\n");
        cellTable(h, "l2-category", s.byL2Category());
        h.append("<h2>Plots</h2>\n");
        for (String img : plots(s.metrics())) h.append(img);
        if (!s.skipped().isEmpty()) {
            h.append("<h2>Skipped rows</h2>\n<ul>\n");
            for (SkippedRow r : s.skipped()) h.append("<li>row ").append(esc(r.index())).append(": ").append(esc(r.reason())).append("</li>\n");
            h.append("</ul>\n");
        }
        h.append("<p class=note>Metric definitions: docs/metrics.md. Errors (backend failures) are excluded from every metric and retried on resume.</p>\n");
        h.append(SORT_SCRIPT);
        return h.append("</body></html>\n").toString();
    }

    /** {@code gam report}: several runs side by side. */
    public static String renderComparison(Map<String, RunSummary> runs) {
        StringBuilder h = new StringBuilder();
        head(h, "GAM-Agent run comparison");
        h.append("<h1>Run comparison</h1>\n");
        Map<String, MethodMetrics> all = new LinkedHashMap<>();
        for (var run : runs.entrySet()) {
            for (var m : run.getValue().metrics().entrySet()) all.put(run.getKey() + " / " + m.getKey(), m.getValue());
        }
        metricTable(h, all, "run / method");
        h.append("<h2>Accuracy per category</h2>\n");
        Map<String, Map<String, RunSummary.Cell>> cats = new LinkedHashMap<>();
        for (var run : runs.entrySet()) {
            for (var m : run.getValue().byCategory().entrySet()) cats.put(run.getKey() + " / " + m.getKey(), m.getValue());
        }
        cellTable(h, "category", cats);
        h.append("<h2>Plots</h2>\n");
        for (String img : plots(all)) h.append(img);
        h.append(SORT_SCRIPT);
        return h.append("</body></html>\n").toString();
    }

    private static List<String> plots(Map<String, MethodMetrics> metrics) {
        List<String> imgs = new ArrayList<>();
        add(imgs, "accuracy vs tokens", Charts.accuracyVsTokens(metrics));
        add(imgs, "reliability diagram", Charts.reliability(metrics));
        Map<String, List<Double>> usys = new LinkedHashMap<>(), cum = new LinkedHashMap<>();
        Map<String, Map<String, Double>> terms = new LinkedHashMap<>(), branches = new LinkedHashMap<>();
        for (var entry : metrics.entrySet()) {
            String name = entry.getKey();
            MethodMetrics m = entry.getValue();
            if (m.uSysPerRound() != null && m.uSysPerRound().size() > 1) usys.put(name, m.uSysPerRound());
            if (m.cumulativeTokensPerRound() != null && m.cumulativeTokensPerRound().size() > 1) cum.put(name, m.cumulativeTokensPerRound());
            long total = m.terminations().values().stream().mapToLong(Long::longValue).sum();
            Map<String, Double> t = new TreeMap<>();
            for (var e : m.terminations().entrySet()) t.put(e.getKey(), total == 0 ? 0 : (double) e.getValue() / total);
            terms.put(name, t);
            if (m.branchShares() != null && !m.branchShares().isEmpty()) branches.put(name, m.branchShares());
        }
        add(imgs, "U_sys per round", Charts.perRound("Mean system uncertainty U_sys per round", "mean U_sys", usys));
        add(imgs, "cumulative tokens per round", Charts.perRound("Cumulative tokens per question by debate round", "tokens", cum));
        for (var entry : metrics.entrySet()) {
            MethodMetrics m = entry.getValue();
            // GAM's learned influence weights; baselines' fixed equal weights would only add flat lines
            if (entry.getKey().contains("gam") && m.weightsPerRound() != null && !m.weightsPerRound().isEmpty()) {
                add(imgs, "expert weights per round: " + entry.getKey(),
                        Charts.perRound("Mean expert influence weight per round (" + entry.getKey() + ")", "weight w_i", m.weightsPerRound()));
            }
        }
        add(imgs, "termination reasons", Charts.shares("Termination reasons", terms));
        add(imgs, "DREAM branch shares", Charts.shares("DREAM branch shares", branches));
        return imgs;
    }

    private static void add(List<String> imgs, String alt, String dataUri) {
        if (dataUri == null) return;
        imgs.add("<figure><img alt=\"" + esc(alt) + "\" src=\"" + dataUri + "\" width=\"" + Charts.WIDTH + "\" height=\""
                + Charts.HEIGHT + "\"><figcaption>" + esc(alt) + "</figcaption></figure>\n");
    }

    private static void metricTable(StringBuilder h, Map<String, MethodMetrics> metrics, String firstHeader) {
        boolean vanilla = metrics.values().stream().anyMatch(m -> m.vanillaAccuracy() != null);
        h.append("<table>\n<tr><th>").append(firstHeader == null ? "method" : esc(firstHeader)).append("</th><th>questions</th><th>accuracy</th>");
        if (vanilla) h.append("<th>accuracy (rotation 0)</th>");
        h.append("<th>unmatched</th><th>errors</th><th>prompt tok/q</th><th>completion tok/q</th><th>cost/q ($)</th>"
                + "<th>calls/q</th><th>s/q</th><th>debate rate</th><th>mean rounds</th><th>ECE</th><th>AUROC(U)</th>"
                + "<th>bal. acc @θ_U</th><th>Spearman(U₀, rounds)</th></tr>\n");
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(m.groups()).append("</td><td>").append(f3(m.accuracy())).append("</td>");
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
        h.append("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>").append(esc(title)).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0;display:block;overflow-x:auto}")
                .append("td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}")
                .append("th{background:#eee}figure{display:inline-block;margin:0.5em}.note{color:#555}")
                .append("</style></head><body>\n");
    }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f3(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.3f", v); }

    private static String f2(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    private static String f1(double v) { return String.format(Locale.ROOT, "%.1f", v); }
}
