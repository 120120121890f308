package dev.gamagent.bench.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The suite's findings: one row per measured figure, each with its target and PASS, FAIL or INFO (no target). */
final class PerfReport {
    enum Verdict { PASS, FAIL, INFO }

    record Row(String section, String what, String measured, String target, Verdict verdict) { }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /** A ratio or value checked against {@code target}: {@code atMost} true means measured ≤ limit passes. */
    void check(String section, String what, double measured, String format, double limit, boolean atMost, String unit) {
        boolean ok = atMost ? measured <= limit : measured >= limit;
        String m = String.format(Locale.ROOT, format, measured) + unit;
        String t = (atMost ? "≤ " : "≥ ") + String.format(Locale.ROOT, format, limit) + unit;
        rows.add(new Row(section, what, m, t, Double.isFinite(measured) && ok ? Verdict.PASS : Verdict.FAIL));
        System.out.println(rows.get(rows.size() - 1).verdict() + "  " + section + ": " + what + " = " + m + " (target " + t + ")");
    }

    void info(String section, String what, String measured) {
        rows.add(new Row(section, what, measured, "", Verdict.INFO));
        System.out.println("INFO  " + section + ": " + what + " = " + measured);
    }

    void fail(String section, String what, String why) {
        rows.add(new Row(section, what, why, "", Verdict.FAIL));
        System.out.println("FAIL  " + section + ": " + what + " — " + why);
    }

    void note(String s) { notes.add(s); }

    boolean allPassed() { return rows.stream().noneMatch(r -> r.verdict() == Verdict.FAIL); }

    /** A plain table for the terminal and a Markdown table for the docs. */
    void print(PrintStream out, String header) {
        int w1 = 14, w2 = 10, w3 = 10;
        for (Row r : rows) {
            w1 = Math.max(w1, (r.section() + ": " + r.what()).length());
            w2 = Math.max(w2, r.measured().length());
            w3 = Math.max(w3, r.target().length());
        }
        out.println();
        out.println(header);
        String fmt = "%-" + w1 + "s  %-" + w2 + "s  %-" + w3 + "s  %s%n";
        out.printf(fmt, "figure", "measured", "target", "");
        for (Row r : rows) out.printf(fmt, r.section() + ": " + r.what(), r.measured(), r.target(), r.verdict());
        for (String n : notes) out.println("note: " + n);
    }

    String markdown(String header) {
        StringBuilder sb = new StringBuilder(header).append("\n\n| figure | measured | target | |\n|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.section()).append(": ").append(r.what()).append(" | ").append(r.measured()).append(" | ")
                    .append(r.target()).append(" | ").append(r.verdict()).append(" |\n");
        }
        for (String n : notes) sb.append("\n- ").append(n);
        return sb.append('\n').toString();
    }
}
