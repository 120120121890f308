package dev.gamagent.cli;

import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.report.MethodMetrics;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.uncertainty.SignalMix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The plain-text tables printed after a run: one row per method (accuracy and the half-width of its 95 %
 * interval, rounds, calls, tokens, time, ECE). Up to {@value #INLINE_CATEGORIES} categories are extra columns of
 * that table; more go to a second table, one row per category and one column per method, so names are never cut.
 * The l2-categories, when the data has them, get such a table too. Then every pair of methods compared on the
 * questions both answered (McNemar's exact test, Holm-corrected, the difference's interval). The last line names the
 * grading mode.
 */
final class SummaryTable {
    static final int INLINE_CATEGORIES = 6;

    private SummaryTable() { }

    static String render(RunSummary s) {
        return render(Map.of("", s), false);
    }

    /** Several runs (gam report): rows are "run / method" when {@code prefixRuns}; pairs from each run's own summary. */
    static String render(Map<String, RunSummary> runs, boolean prefixRuns) {
        Pairwise.Report pairs = runs.size() == 1 ? runs.values().iterator().next().statistics() : null;
        return render(runs, prefixRuns, pairs);
    }

    /** As {@link #render(Map, boolean)}, with the pairwise block {@code pairs} (null: none), e.g. across runs. */
    static String render(Map<String, RunSummary> runs, boolean prefixRuns, Pairwise.Report pairs) {
        // one column per run × method, in order
        Map<String, MethodMetrics> rows = new LinkedHashMap<>();
        Map<String, Map<String, RunSummary.Cell>> cats = new LinkedHashMap<>(), l2 = new LinkedHashMap<>();
        for (var run : runs.entrySet()) {
            RunSummary s = run.getValue();
            for (MethodMetrics m : s.metrics().values()) {
                String name = (prefixRuns ? run.getKey() + " / " : "") + m.method();
                rows.put(name, m);
                cats.put(name, s.byCategory() == null ? Map.of() : s.byCategory().getOrDefault(m.method(), Map.of()));
                l2.put(name, s.byL2Category() == null ? Map.of() : s.byL2Category().getOrDefault(m.method(), Map.of()));
            }
        }
        List<String> catList = names(cats);
        if (catList.equals(List.of("-"))) catList = List.of(); // no categories in the data
        boolean inline = catList.size() <= INLINE_CATEGORIES;
        int w = 12;
        for (String name : rows.keySet()) w = Math.max(w, name.length());
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-" + w + "s %6s %7s %5s", "method", "n", "acc", "±95%"));
        if (inline) for (String c : catList) sb.append(' ').append(pad(label(c), Math.max(6, label(c).length())));
        sb.append(String.format(Locale.ROOT, " %7s %7s %9s %8s %8s %5s %5s%n", "rounds", "calls/q", "tokens/q", "s/q", "ECE", "w→r", "r→w"));
        for (var e : rows.entrySet()) {
            MethodMetrics m = e.getValue();
            sb.append(String.format(Locale.ROOT, "%-" + w + "s %6d %7s %5s", e.getKey(), m.groups(), pct(m.accuracy()),
                    m.accuracyCi() == null ? "-" : String.format(Locale.ROOT, "%.1f", 100 * m.accuracyCi().halfWidth())));
            if (inline) {
                for (String c : catList) {
                    RunSummary.Cell cell = cats.get(e.getKey()).get(c);
                    sb.append(' ').append(pad(cell == null ? "" : pct(cell.accuracy()), Math.max(6, label(c).length())));
                }
            }
            // a graded prediction file has no run behind it: no rounds, calls, tokens or time to show
            boolean run = !"none".equals(m.costBasis());
            sb.append(String.format(Locale.ROOT, " %7s %7s %9s %8s %8s %5s %5s%n",
                    run ? String.format(Locale.ROOT, "%.2f", m.meanRounds()) : "-",
                    run ? String.format(Locale.ROOT, "%.2f", m.callsPerQuestion()) : "-",
                    run ? String.format(Locale.ROOT, "%.0f", m.promptTokensPerQuestion() + m.completionTokensPerQuestion()) : "-",
                    run ? String.format(Locale.ROOT, "%.2f", m.secondsPerQuestion()) : "-",
                    m.ece() == null ? "-" : String.format(Locale.ROOT, "%.3f", m.ece()),
                    m.flips() == null ? "-" : m.flips().wrongToRight(), m.flips() == null ? "-" : m.flips().rightToWrong()));
        }
        promptTokens(sb, rows, w);
        if (!inline) byCategory(sb, "category", catList, cats);
        List<String> l2List = names(l2);
        if (!(l2List.isEmpty() || l2List.equals(List.of("-")))) byCategory(sb, "l2-category", l2List, l2);
        String interval = runs.values().stream().map(RunSummary::statistics).filter(java.util.Objects::nonNull)
                .map(Pairwise.Report::interval).findFirst().orElse(null);
        if (interval != null) {
            sb.append("±95%: half the width of accuracy's 95% interval (").append(interval)
                    .append("), in points; the interval itself is in summary.json\n");
        }
        pairwise(sb, pairs);
        backends(sb, rows);
        Set<String> gradings = new LinkedHashSet<>();
        for (RunSummary s : runs.values()) gradings.add(GradingMode.describeLabels(s.grading()));
        sb.append("grading: ").append(String.join("; ", gradings)).append('\n');
        return sb + signalLines(runs, prefixRuns);
    }

    /** One line per method naming the uncertainty signals its agents ran on, so a run without log-probs is visible. */
    static String signalLines(Map<String, RunSummary> runs, boolean prefixRuns) {
        StringBuilder sb = new StringBuilder();
        for (var run : runs.entrySet()) {
            Map<String, Map<String, Long>> mix = run.getValue().signals();
            if (mix == null) continue;
            for (var m : mix.entrySet()) {
                if (m.getValue().isEmpty()) continue;
                sb.append("signals ").append(prefixRuns ? run.getKey() + " / " : "").append(m.getKey()).append(": ")
                        .append(SignalMix.describe(m.getValue())).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * Every pair compared on the questions both answered: the difference in accuracy with its interval, the discordant
     * counts (right only for one, only for the other), McNemar's exact p and Holm's; "n.s." where Holm's p ≥ α.
     */
    static void pairwise(StringBuilder sb, Pairwise.Report report) {
        if (report == null || report.pairs().isEmpty()) return;
        int w = 4;
        for (Pairwise.Pair p : report.pairs()) w = Math.max(w, (p.method() + " vs " + p.versus()).length());
        sb.append("\npairs on the questions both answered (").append(report.test()).append("; Δ interval: ")
                .append(report.differenceInterval()).append("):\n");
        String f = "%-" + w + "s %5s %8s %17s %9s %8s %8s  %s%n";
        sb.append(String.format(Locale.ROOT, f, "pair", "n", "Δ acc", "95% interval", "only each", "p", "Holm p", ""));
        for (Pairwise.Pair p : report.pairs()) {
            String ci = p.differenceCi() == null ? "-" : String.format(Locale.ROOT, "[%+.1f, %+.1f]", 100 * p.differenceCi().lo(), 100 * p.differenceCi().hi());
            sb.append(String.format(Locale.ROOT, f, p.method() + " vs " + p.versus(), p.n(),
                    p.difference() == null ? "-" : String.format(Locale.ROOT, "%+.1f", 100 * p.difference()), ci,
                    p.onlyMethod() + " vs " + p.onlyVersus(), pValue(p.p()), pValue(p.pHolm()),
                    p.n() == 0 ? "no shared question" : p.significant() ? "significant" : "n.s."));
        }
        sb.append(String.format(Locale.ROOT, "Δ acc in points; only each: questions right only for the first, only for the second; "
                + "significant: Holm p < %s (each interval is for its pair alone; Holm's p allows for comparing %s at once)%n",
                trim(report.alpha()), report.pairs().stream().map(Pairwise.Pair::family).distinct().count() > 1
                        ? "each benchmark's pairs" : Integer.toString(report.pairs().size())));
    }

    private static String pValue(double p) {
        return p < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, p < 0.01 ? "%.4f" : "%.3f", p);
    }

    private static String trim(double v) { return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString(); }

    /** A second table: one row per category (full name), one column per method, and the number of questions. */
    private static void byCategory(StringBuilder sb, String title, List<String> names, Map<String, Map<String, RunSummary.Cell>> byMethod) {
        int w = title.length();
        for (String c : names) w = Math.max(w, label(c).length());
        sb.append('\n').append(String.format(Locale.ROOT, "%-" + w + "s %6s", title, "n"));
        List<Integer> widths = new ArrayList<>();
        for (String m : byMethod.keySet()) {
            widths.add(Math.max(7, m.length()));
            sb.append(' ').append(pad(m, widths.get(widths.size() - 1)));
        }
        sb.append('\n');
        for (String c : names) {
            int n = 0;
            for (var cells : byMethod.values()) if (cells.get(c) != null) n = Math.max(n, cells.get(c).n());
            sb.append(String.format(Locale.ROOT, "%-" + w + "s %6d", label(c), n));
            int i = 0;
            for (var cells : byMethod.values()) {
                RunSummary.Cell cell = cells.get(c);
                sb.append(' ').append(pad(cell == null ? "" : pct(cell.accuracy()), widths.get(i++)));
            }
            sb.append('\n');
        }
    }

    /**
     * When a server reported the prompt tokens it read from its prefix cache: per method, the prompt tokens per question
     * sent, cached and computed (sent − cached). Methods whose servers reported none show "-".
     */
    private static void promptTokens(StringBuilder sb, Map<String, MethodMetrics> rows, int w) {
        if (rows.values().stream().noneMatch(m -> m.cachedPromptTokensPerQuestion() != null)) return;
        String f = "%-" + w + "s %9s %9s %9s%n";
        sb.append('\n').append(String.format(Locale.ROOT, f, "prompt tok/q", "sent", "cached", "computed"));
        for (var e : rows.entrySet()) {
            MethodMetrics m = e.getValue();
            sb.append(String.format(Locale.ROOT, f, e.getKey(), String.format(Locale.ROOT, "%.0f", m.promptTokensPerQuestion()),
                    m.cachedPromptTokensPerQuestion() == null ? "-" : String.format(Locale.ROOT, "%.0f", m.cachedPromptTokensPerQuestion()),
                    m.computedPromptTokensPerQuestion() == null ? "-" : String.format(Locale.ROOT, "%.0f", m.computedPromptTokensPerQuestion())));
        }
        sb.append("cached: prompt tokens the server reported read from its prefix cache; computed: sent − cached\n");
    }

    /** When a method's agents ran on several backends: calls, tokens and cost per question of each backend. */
    private static void backends(StringBuilder sb, Map<String, MethodMetrics> methods) {
        List<String[]> rows = new ArrayList<>();
        for (var m : methods.entrySet()) {
            if (m.getValue().backends() == null) continue;
            for (var e : m.getValue().backends().entrySet()) {
                MethodMetrics.BackendUse b = e.getValue();
                rows.add(new String[]{m.getKey(), e.getKey(), b.model() == null ? b.backend() : b.model(),
                        String.format(Locale.ROOT, "%.2f", b.callsPerQuestion()),
                        String.format(Locale.ROOT, "%.0f", b.promptTokensPerQuestion() + b.completionTokensPerQuestion()),
                        String.format(Locale.ROOT, "%.6f", b.costPerQuestion())});
            }
        }
        if (rows.isEmpty()) return;
        int[] w = {6, 7, 5};
        for (String[] r : rows) for (int i = 0; i < 3; i++) w[i] = Math.max(w[i], r[i].length());
        String f = "%-" + w[0] + "s %-" + w[1] + "s %-" + w[2] + "s %7s %9s %10s%n";
        sb.append("\nper backend (per question):\n").append(String.format(Locale.ROOT, f, "method", "backend", "model", "calls", "tokens", "cost ($)"));
        for (String[] r : rows) sb.append(String.format(Locale.ROOT, f, (Object[]) r));
    }

    private static List<String> names(Map<String, Map<String, RunSummary.Cell>> byMethod) {
        Set<String> all = new LinkedHashSet<>();
        for (var m : byMethod.values()) all.addAll(m.keySet());
        return all.stream().sorted().toList();
    }

    /** A category name as printed: control characters (ScienceQA has a trailing tab) made visible. */
    private static String label(String c) { return c.replace("\t", "\\t").replace("\n", "\\n"); }

    private static String pad(String s, int w) { return String.format(Locale.ROOT, "%" + w + "s", s); }

    private static String pct(Double v) { return v == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v); }
}
