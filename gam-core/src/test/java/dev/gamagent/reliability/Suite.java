package dev.gamagent.reliability;

import dev.gamagent.testing.ReliabilityReport;

import java.time.LocalDate;

/**
 * The reliability suite's two modes and its report. {@code ./test} ({@code mvn -B -T 1C verify}) runs the short mode;
 * {@code ./test reliability} sets {@code gam.reliability=full} (more kill points, 10^6 fuzz inputs) and
 * {@code gam.reliability.write=docs/reliability.md}, into which each part writes its table between
 * {@code <!-- name -->} and {@code <!-- /name -->}.
 */
final class Suite {
    private Suite() { }

    static boolean full() { return "full".equals(System.getProperty("gam.reliability")); }

    /** {@code shortValue} in the short mode, {@code fullValue} in the full one. */
    static int size(int shortValue, int fullValue) { return full() ? fullValue : shortValue; }

    /** Replaces the section {@code name} of the report with {@code markdown} when the report is being written. */
    static void report(String name, String markdown) {
        ReliabilityReport.replace(name, "\n" + markdown.strip() + "\n\n_Written by `./test reliability` on " + LocalDate.now() + "._\n");
    }
}
