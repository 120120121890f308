package dev.gamagent.cli;

import dev.gamagent.eval.MethodMetrics;
import dev.gamagent.eval.RunSummary;
import dev.gamagent.eval.SignalMix;

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

    private static String pct(Double v) { return v == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v); }

    private static String trim(String s, int n) { return s.length() <= n ? s : s.substring(0, n); }
}
