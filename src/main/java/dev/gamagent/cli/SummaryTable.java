package dev.gamagent.cli;

import dev.gamagent.eval.MethodMetrics;
import dev.gamagent.eval.RunSummary;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The plain-text table printed after a run: one row per method, accuracy overall and per category. */
final class SummaryTable {
    private SummaryTable() { }

    static String render(RunSummary s) {
        return render(Map.of("", s), false);
    }

    /** Several runs (gam report): rows are "run / method" when {@code prefixRuns}. */
    static String render(Map<String, RunSummary> runs, boolean prefixRuns) {
        Set<String> cats = new LinkedHashSet<>();
        for (RunSummary s : runs.values()) for (var m : s.byCategory().values()) cats.addAll(m.keySet());
        List<String> catList = cats.stream().sorted().toList();
        StringBuilder sb = new StringBuilder();
        int w = 12;
        for (var run : runs.entrySet()) for (String m : run.getValue().metrics().keySet()) w = Math.max(w, (prefixRuns ? run.getKey() + " / " : "").length() + m.length());
        sb.append(String.format(Locale.ROOT, "%-" + w + "s %6s %7s", "method", "n", "acc"));
        for (String c : catList) sb.append(String.format(Locale.ROOT, " %8s", trim(c, 8)));
        sb.append(String.format(Locale.ROOT, " %7s %7s %9s %8s %8s%n", "rounds", "calls/q", "tokens/q", "s/q", "ECE"));
        for (var run : runs.entrySet()) {
            RunSummary s = run.getValue();
            for (MethodMetrics m : s.metrics().values()) {
                String name = (prefixRuns ? run.getKey() + " / " : "") + m.method();
                sb.append(String.format(Locale.ROOT, "%-" + w + "s %6d %7s", name, m.groups(), pct(m.accuracy())));
                Map<String, RunSummary.Cell> byCat = s.byCategory().get(m.method());
                for (String c : catList) {
                    RunSummary.Cell cell = byCat == null ? null : byCat.get(c);
                    sb.append(String.format(Locale.ROOT, " %8s", cell == null ? "" : pct(cell.accuracy())));
                }
                sb.append(String.format(Locale.ROOT, " %7.2f %7.2f %9.0f %8.2f %8s%n", m.meanRounds(), m.callsPerQuestion(),
                        m.promptTokensPerQuestion() + m.completionTokensPerQuestion(), m.secondsPerQuestion(),
                        m.ece() == null ? "-" : String.format(Locale.ROOT, "%.3f", m.ece())));
            }
        }
        backends(sb, runs, prefixRuns);
        return sb.toString();
    }

    /** When a method's agents ran on several backends: calls, tokens and cost per question of each backend. */
    private static void backends(StringBuilder sb, Map<String, RunSummary> runs, boolean prefixRuns) {
        List<String[]> rows = new java.util.ArrayList<>();
        for (var run : runs.entrySet()) {
            for (MethodMetrics m : run.getValue().metrics().values()) {
                if (m.backends() == null) continue;
                for (var e : m.backends().entrySet()) {
                    MethodMetrics.BackendUse b = e.getValue();
                    rows.add(new String[]{(prefixRuns ? run.getKey() + " / " : "") + m.method(), e.getKey(),
                            b.model() == null ? b.backend() : b.model(), String.format(Locale.ROOT, "%.2f", b.callsPerQuestion()),
                            String.format(Locale.ROOT, "%.0f", b.promptTokensPerQuestion() + b.completionTokensPerQuestion()),
                            String.format(Locale.ROOT, "%.6f", b.costPerQuestion())});
                }
            }
        }
        if (rows.isEmpty()) return;
        int[] w = {6, 7, 5};
        for (String[] r : rows) for (int i = 0; i < 3; i++) w[i] = Math.max(w[i], r[i].length());
        String f = "%-" + w[0] + "s %-" + w[1] + "s %-" + w[2] + "s %7s %9s %10s%n";
        sb.append("\nper backend (per question):\n").append(String.format(Locale.ROOT, f, "method", "backend", "model", "calls", "tokens", "cost ($)"));
        for (String[] r : rows) sb.append(String.format(Locale.ROOT, f, (Object[]) r));
    }

    private static String pct(Double v) { return v == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v); }

    private static String trim(String s, int n) { return s.length() <= n ? s : s.substring(0, n); }
}
