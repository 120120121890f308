package dev.gamagent.eval.report;

import dev.gamagent.eval.replay.FullLengthRuns;
import dev.gamagent.eval.stats.Pairwise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static dev.gamagent.eval.report.Html.esc;

/**
 * The report's HTML tables: the methods' metrics with the notes on figures not shown, per-backend costs, the pairwise
 * differences, the debates' flips, and accuracy per category (sortable in the page by {@link #SORT_SCRIPT}).
 */
final class ReportTables {
    private ReportTables() { }

    static void metricTable(StringBuilder h, Map<String, MethodMetrics> metrics, String firstHeader, String interval) {
        boolean vanilla = metrics.values().stream().anyMatch(m -> m.vanillaAccuracy() != null);
        // cached and computed prompt tokens only when a server reported them: otherwise nothing is known of them
        boolean cached = metrics.values().stream().anyMatch(m -> m.cachedPromptTokensPerQuestion() != null);
        // headers break inside long words (soft hyphens) so that eighteen columns fit a 1280 px window
        h.append("<div class=table-box><table id=metrics>\n<thead><tr><th>").append(firstHeader == null ? "method" : esc(firstHeader))
                .append("</th><th>ques&shy;tions</th><th>accu&shy;racy (%)</th><th title=\"").append(esc(interval == null ? "" : interval))
                .append("\">95&nbsp;% inter&shy;val</th>");
        if (vanilla) h.append("<th>accu&shy;racy, rota&shy;tion 0</th>");
        h.append("<th>un&shy;matched</th><th>errors</th><th>prompt tok/q</th>");
        if (cached) {
            h.append("<th title=\"prompt tokens the server reported read from its prefix cache\">cached tok/q</th>"
                    + "<th title=\"prompt tokens sent minus cached: what the server computed\">com&shy;puted tok/q</th>");
        }
        h.append("<th>com&shy;pletion tok/q</th><th>cost/q ($)</th>"
                + "<th>calls/q</th><th>s/q</th><th>debate rate</th><th>mean rounds</th><th>ECE</th><th>AUROC (U)</th>"
                + "<th>bal. acc @θ_U</th><th>Spear&shy;man (U₀, rounds)</th></tr></thead>\n<tbody>\n");
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            boolean forced = e.getKey().endsWith(FullLengthRuns.FORCED_SUFFIX);
            h.append(forced ? "<tr class=forced title=\"gam.record_full=true: every debate forced to K_max; not the method's result\"><td>" : "<tr><td>")
                    .append(esc(e.getKey())).append("</td><td>").append(m.groups()).append("</td><td>").append(pct(m.accuracy())).append("</td><td>")
                    .append(m.accuracyCi() == null ? "–" : String.format(Locale.ROOT, "%.1f–%.1f", 100 * m.accuracyCi().lo(), 100 * m.accuracyCi().hi()))
                    .append("</td>");
            if (vanilla) h.append("<td>").append(pct(m.vanillaAccuracy())).append("</td>");
            String noU = m.uncertaintyNote() == null ? "" : " title=\"" + esc(m.uncertaintyNote()) + "\" class=hidden-metric";
            h.append("<td>").append(m.unmatched()).append("</td><td>").append(m.errors()).append("</td><td>")
                    .append(f1(m.promptTokensPerQuestion()));
            if (cached) {
                h.append("</td><td>").append(f1(m.cachedPromptTokensPerQuestion())).append("</td><td>")
                        .append(f1(m.computedPromptTokensPerQuestion()));
            }
            h.append("</td><td>").append(f1(m.completionTokensPerQuestion()))
                    .append("</td><td title=\"").append(esc(String.valueOf(m.costBasis()))).append("\">")
                    .append(m.costPerQuestion() == null ? "–" : String.format(Locale.ROOT, "%.6f", m.costPerQuestion())).append("</td><td>")
                    .append(f2(m.callsPerQuestion())).append("</td><td>").append(f2(m.secondsPerQuestion())).append("</td><td>").append(f3(m.debateTriggerRate()))
                    .append("</td><td>").append(f2(m.meanRounds())).append("</td><td>").append(f3(m.ece())).append("</td><td")
                    .append(m.auroc() == null ? noU : "").append('>').append(f3(m.auroc())).append("</td><td").append(m.balancedAccuracy() == null ? noU : "")
                    .append('>').append(f3(m.balancedAccuracy())).append("</td><td>").append(f3(m.spearmanInitialUncertaintyVsRounds())).append("</td></tr>\n");
        }
        h.append("</tbody></table></div>\n");
        if (interval != null) {
            h.append("<p class=note>Accuracy in %, with its 95&nbsp;% interval (").append(esc(interval))
                    .append(") over the graded questions (a circular group counts once).</p>\n");
        }
        if (metrics.keySet().stream().anyMatch(k -> k.endsWith(FullLengthRuns.FORCED_SUFFIX))) {
            h.append("<p class=note>This run was recorded with <code>gam.record_full=true</code>: its debates were forced to K_max. "
                    + "The method's row gives the default stopping rule's decisions at the recorded settings (what <code>gam sweep</code> "
                    + "computes; wall time pro-rated by calls); the row marked <i>forced full length</i> gives the forced debates' own figures.</p>\n");
        }
    }

    /** Why a figure of the table is not shown: no price for the built-in model, uncertainty metrics that are 0.5 by construction. */
    static void notes(StringBuilder h, Map<String, MethodMetrics> metrics) {
        List<String> unpriced = new ArrayList<>();
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (var e : metrics.entrySet()) {
            if (e.getValue().costPerQuestion() == null && PriceTable.UNPRICED.equals(e.getValue().costBasis())) unpriced.add(e.getKey());
            if (e.getValue().uncertaintyNote() != null) byReason.computeIfAbsent(e.getValue().uncertaintyNote(), k -> new ArrayList<>()).add(e.getKey());
        }
        List<String> unsure = new ArrayList<>();
        byReason.forEach((reason, methods) -> unsure.add("<b>" + esc(String.join(", ", methods)) + "</b>: " + esc(reason)));
        if (!unpriced.isEmpty()) {
            h.append("<p class=note id=no-dollars>No cost in dollars for ").append(esc(String.join(", ", unpriced)))
                    .append(": the built-in model runs on this machine's CPU, and a GPU's hourly rate would make more calls look cheaper. "
                            + "Set <code>eval.gpu_hour_rate</code> to price its time.</p>\n");
        }
        if (!unsure.isEmpty()) {
            h.append("<p class=note id=uncertainty-notes>AUROC(U) and bal. acc @θ_U are left out (–) where U cannot tell right from wrong answers: ")
                    .append(String.join("; ", unsure)).append(".</p>\n");
        }
    }

    /**
     * Every pair of methods on the questions both answered: the difference with its interval, the discordant counts,
     * McNemar's exact p and Holm's; a pair whose Holm p is not below α is greyed and marked "not significant". The
     * chart {@code chart-pairs} draws the same intervals around 0.
     */
    static void pairTable(StringBuilder h, Pairwise.Report report, boolean comparison, List<String> warnings) {
        if (comparison && (report == null || report.pairs().isEmpty())) {
            h.append("<h2 id=pairs>Are the differences real?</h2>\n<p class=note id=no-pairs>No pair of series was compared: ")
                    .append(warnings.isEmpty() ? "no two series answered a question in common." : "see the warnings at the top of the page.")
                    .append("</p>\n");
            return;
        }
        if (report == null || report.pairs().isEmpty()) return;
        boolean families = report.pairs().stream().map(Pairwise.Pair::family).filter(java.util.Objects::nonNull).distinct().count() > 1;
        long m = Pairwise.familySize(report, report.pairs().get(0));
        h.append("<h2 id=pairs>Are the differences real?</h2>\n<p class=note>Each pair of ").append(comparison ? "series" : "methods")
                .append(" on the questions both answered").append(comparison ? " (across runs: only series of one benchmark, paired on the "
                        + "questions both asked with the same text, options, answer and image, whatever their ids)" : "").append(": ")
                .append(esc(report.test())).append("; Δ = accuracy of the first − the second, with its 95&nbsp;% interval (")
                .append(esc(report.differenceInterval())).append("). Greyed rows are not significant (Holm p ≥ ")
                .append(report.alpha()).append("): the data do not tell those two apart. Each interval is for its pair alone; the verdict "
                        + "is corrected for comparing ").append(families ? "each benchmark's pairs" : m + (m == 1 ? " pair" : " pairs"))
                .append(" at once, so an interval that misses 0 can still be \"not significant\". Click a count of questions right only "
                        + "for one side to list them in the answers by question.</p>\n");
        h.append("<div class=table-box><table id=pairs-table>\n<thead><tr><th>pair</th><th>questions</th><th>Δ accuracy</th><th>95&nbsp;% interval</th>"
                + "<th>right only for the first</th><th>right only for the second</th><th>p (McNemar)</th><th>p (Holm)</th><th>verdict</th></tr></thead>\n<tbody>\n");
        for (Pairwise.Pair p : report.pairs()) {
            String verdict = p.n() == 0 ? "no shared question" : p.significant() ? "significant" : "not significant";
            h.append("<tr class=\"").append(p.significant() ? "sig" : "ns").append("\"><td>").append(esc(p.method())).append(" vs ")
                    .append(esc(p.versus())).append(families ? " <span class=muted>(" + esc(p.family()) + ")</span>" : "").append("</td><td>").append(p.n()).append("</td><td>")
                    .append(p.difference() == null ? "–" : String.format(Locale.ROOT, "%+.1f", 100 * p.difference())).append("</td><td>")
                    .append(p.differenceCi() == null ? "–" : String.format(Locale.ROOT, "%+.1f to %+.1f", 100 * p.differenceCi().lo(), 100 * p.differenceCi().hi()))
                    .append("</td><td>").append(onlyLink(p.method(), p.versus(), p.onlyMethod())).append("</td><td>")
                    .append(onlyLink(p.versus(), p.method(), p.onlyVersus())).append("</td><td>").append(pValue(p.p()))
                    .append("</td><td>").append(pValue(p.pHolm())).append("</td><td><span class=\"verdict ").append(p.significant() ? "sig" : "ns")
                    .append("\">").append(verdict).append("</span></td></tr>\n");
        }
        h.append("</tbody></table></div>\n<figure class=wide><div class=chart id=chart-pairs></div></figure>\n");
    }

    /** A count of questions right for {@code right} and wrong for {@code wrong}: a link that lists them in the answer table. */
    private static String onlyLink(String right, String wrong, int count) {
        return "<a class=only href=\"#answer-table\" data-right=\"" + esc(right) + "\" data-wrong=\"" + esc(wrong) + "\" title=\"list the "
                + count + " questions right for " + esc(right) + " and wrong for " + esc(wrong) + "\">" + count + "</a>";
    }

    /**
     * The question × method table ({@link AnswerTable}): filled by the page's script (all questions, or those a count of
     * the pairs table selects), with links to the same table as CSV and JSON Lines beside the page.
     */
    static void answerTable(StringBuilder h, AnswerTable table, String csvName) {
        if (table.rows().isEmpty()) return;
        String jsonl = csvName.substring(0, csvName.length() - ".csv".length()) + ".jsonl";
        h.append("<h2 id=answer-table>Answers by question</h2>\n<p class=note>One row per question (a circular group counts once), one "
                        + "column per ").append(table.series().size() > 1 ? "series" : "method").append(": its prediction, ✓ right or ✗ wrong "
                        + "(– not graded), tokens and debate rounds. Download: <a id=answers-csv download href=\"").append(esc(csvName))
                .append("\">CSV</a> (UTF-8, opens in a spreadsheet) · <a id=answers-jsonl download href=\"").append(esc(jsonl))
                .append("\">JSON Lines</a> (files beside this page).</p>\n<div id=answer-filter class=filters></div>\n"
                        + "<div class=table-box><table id=answers-by-question><thead></thead><tbody></tbody></table></div>\n"
                        + "<div id=answer-table-pages class=pager></div>\n");
    }

    /** What each figure of the page means, written once (docs/metrics.md has the formulas and their sources). */
    static void definitions(StringBuilder h) {
        h.append("<h2 id=definitions>Definitions</h2>\n<dl class=definitions>\n");
        String[][] d = {
                {"accuracy, 95 % interval", "right ÷ graded questions (a circular group counts once and is right only when every rotation is); "
                        + "Wilson's score interval, or a percentile bootstrap of 2,000 resamples when the page says so."},
                {"unmatched", "answers naming no single option (a refusal, or a reply nothing reads); counted wrong."},
                {"ECE", "expected calibration error: over 10 equal-width confidence bins, the answers-weighted mean of |accuracy − mean confidence| in each bin; 0 is perfectly calibrated."},
                {"AUROC (U)", "the chance that a wrong answer has higher uncertainty U than a right one (ties count ½): 0.5 is no better than chance, 1 is a perfect separation."},
                {"bal. acc @θ_U", "balanced accuracy of flagging an answer as wrong when its U exceeds θ_U: the mean of the rates of wrong answers flagged and right answers not flagged."},
                {"Spearman (U₀, rounds)", "rank correlation between a question's initial system uncertainty and the debate rounds it took."},
                {"McNemar, Holm", "McNemar's exact test on the questions two series both answered: only the discordant questions (right for one, wrong for the "
                        + "other) count, p = 2·P(X ≤ min(b, c)), X ~ Bin(b + c, ½). Holm's step-down correction adjusts the p-values of all the pairs "
                        + "of one benchmark together; a pair is significant when Holm's p < 0.05."},
                {"Newcombe interval", "the 95 % interval of a difference of paired accuracies (Newcombe 1998, method 10): the two Wilson intervals "
                        + "combined with a correction for their correlation."},
                {"same question", "across runs: the same text, hint, options, expected answer and image (bytes as read, or pixels), whatever the "
                        + "id; runs of different benchmarks are never compared."},
        };
        for (String[] e : d) h.append("<dt>").append(esc(e[0])).append("</dt><dd>").append(esc(e[1])).append("</dd>\n");
        h.append("</dl>\n<p class=note>Formulas and sources: docs/metrics.md. Errors (backend failures) are excluded from every metric and retried on resume.</p>\n");
    }

    private static String pValue(double p) { return p < 0.0001 ? "&lt;0.0001" : String.format(Locale.ROOT, p < 0.01 ? "%.4f" : "%.3f", p); }

    private static String pct(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.1f", 100 * v); }

    /** Debate methods only: how the answer after round 0 compares with the final one (docs/metrics.md, flips). */
    static void flipTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.flips() == null)) return;
        if (metrics.values().stream().allMatch(m -> m.flips() == null || m.flips().questions() == 0)) {
            h.append("<h2>What the debate changed</h2>\n<p class=\"note omitted\" id=flips-omitted>Not shown: no question was debated in this run "
                    + "(every answer was decided in round 0), so no debate changed anything.</p>\n");
            return;
        }
        h.append("<h2>What the debate changed</h2>\n<div class=table-box><table id=flips>\n<tr><th>method</th><th>debated</th>"
                + "<th>decided in round 0</th><th>wrong→right</th>"
                + "<th>right→wrong</th><th>right→right</th><th>wrong→wrong</th><th>answer changed</th>"
                + "<th>agent turns</th><th>agent changed</th><th>agent w→r</th><th>agent r→w</th></tr>\n");
        for (var e : metrics.entrySet()) {
            FlipAccounting.Flips f = e.getValue().flips();
            if (f == null) continue;
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(f.questions()).append("</td><td>").append(f.undebated())
                    .append("</td><td>").append(f.wrongToRight())
                    .append("</td><td>").append(f.rightToWrong()).append("</td><td>").append(f.rightToRight()).append("</td><td>")
                    .append(f.wrongToWrong()).append("</td><td>").append(f.changed()).append("</td><td>").append(f.agents().transitions())
                    .append("</td><td>").append(f.agents().changed()).append("</td><td>").append(f.agents().wrongToRight())
                    .append("</td><td>").append(f.agents().rightToWrong()).append("</td></tr>\n");
        }
        h.append("</table></div>\n<p class=note>Decision after round 0 vs final answer, per debated question (a question decided in "
                + "round 0 had nothing a debate could change and is counted apart); agent columns count one agent's answer in consecutive rounds.</p>\n");
    }

    /** Only for panels that mixed backends: what each backend cost per question, per method. */
    static void backendTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.backends() == null)) return;
        h.append("<h2>Tokens and cost per backend</h2>\n<div class=table-box><table>\n<tr><th>method</th><th>backend</th><th>model</th><th>calls/q</th>"
                + "<th>prompt tok/q</th><th>completion tok/q</th><th>cost/q ($)</th></tr>\n");
        for (var e : metrics.entrySet()) {
            if (e.getValue().backends() == null) continue;
            for (var b : e.getValue().backends().entrySet()) {
                MethodMetrics.BackendUse u = b.getValue();
                h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(esc(b.getKey())).append("</td><td>")
                        .append(esc(u.model() == null ? u.backend() : u.model())).append("</td><td>").append(f2(u.callsPerQuestion()))
                        .append("</td><td>").append(f1(u.promptTokensPerQuestion())).append("</td><td>").append(f1(u.completionTokensPerQuestion()))
                        .append("</td><td title=\"").append(esc(String.valueOf(u.costBasis()))).append("\">")
                        .append(u.costPerQuestion() == null ? "–" : String.format(Locale.ROOT, "%.6f", u.costPerQuestion())).append("</td></tr>\n");
            }
        }
        h.append("</table></div>\n");
    }

    /**
     * One row per category (its full name), the number of questions, then one accuracy column per method;
     * a click on a header sorts by that column (again: the other way). Cells carry their sort key in data-v.
     */
    static void cellTable(StringBuilder h, String title, Map<String, Map<String, RunSummary.Cell>> byMethod) {
        Set<String> cats = new LinkedHashSet<>();
        for (var m : byMethod.values()) cats.addAll(m.keySet());
        h.append("<div class=table-box><table class=sortable>\n<thead><tr><th>").append(esc(title)).append("</th><th>questions</th>");
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
                        .append(cell == null ? "" : " title=\"n=" + cell.n() + (cell.ci() == null ? "" : String.format(Locale.ROOT,
                                ", 95%% interval %.1f–%.1f %%", 100 * cell.ci().lo(), 100 * cell.ci().hi())) + "\"").append('>')
                        .append(cell == null ? "" : f3(acc)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table></div>\n");
    }

    /**
     * Sorts a table.sortable by the clicked column: a column of numbers numerically, else as text; empty cells last. The
     * headers are in the Tab order and sort on Enter or Space too; the sorted one says which way in aria-sort.
     */
    static final String SORT_SCRIPT = """
            <script>
            document.querySelectorAll('table.sortable th').forEach(function (th) {
              th.tabIndex = 0;
              th.title = 'sort by this column (click, or Enter)';
              function sort() {
                var body = th.closest('table').tBodies[0], col = th.cellIndex, asc = th.getAttribute('aria-sort') !== 'ascending';
                th.closest('tr').querySelectorAll('th').forEach(function (o) { o.removeAttribute('aria-sort'); });
                th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
                var rows = Array.prototype.slice.call(body.rows);
                var numeric = rows.every(function (r) { var v = r.cells[col].dataset.v; return v === '' || !isNaN(Number(v)); });
                rows.sort(function (a, b) {
                  var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
                  if (x === '' || y === '') return (x === '') - (y === '');
                  var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
                  return asc ? d : -d;
                });
                rows.forEach(function (r) { body.appendChild(r); });
              }
              th.addEventListener('click', sort);
              th.addEventListener('keydown', function (e) {
                if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); }
              });
            });
            </script>
            """;

    private static String f3(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.3f", v); }

    private static String f2(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    private static String f1(double v) { return String.format(Locale.ROOT, "%.1f", v); }

    /** One decimal, or – when not known. */
    private static String f1(Double v) { return v == null ? "–" : f1(v.doubleValue()); }
}
