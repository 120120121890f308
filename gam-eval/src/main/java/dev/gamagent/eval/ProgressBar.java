package dev.gamagent.eval;

import dev.gamagent.eval.grade.Outcome;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress on stderr: a redrawn bar with throughput and ETA on a terminal, plain lines (at most one
 * every few seconds) otherwise, so logs of CI runs stay readable.
 */
public final class ProgressBar {
    private final PrintStream out;
    private final boolean terminal;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long done, correct, graded, errors;
    private long lastPrintNanos;

    public ProgressBar(PrintStream out, boolean terminal, long total) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
    }

    /** A bar on {@code System.err}; redrawn in place when the JVM has a console. */
    public static ProgressBar onStderr(long total) {
        return new ProgressBar(System.err, System.console() != null, total);
    }

    public synchronized void step(Outcome outcome) {
        done++;
        if (outcome == Outcome.ERROR) errors++;
        else if (outcome != Outcome.UNGRADED) {
            graded++;
            if (outcome == Outcome.CORRECT) correct++;
        }
        long now = System.nanoTime();
        if (terminal || done == total || now - lastPrintNanos > 5_000_000_000L) {
            lastPrintNanos = now;
            print(now);
        }
    }

    private void print(long now) {
        double secs = Math.max(1e-9, (now - startNanos) / 1e9);
        double rate = done / secs;
        long etaSecs = rate > 0 ? Math.round((total - done) / rate) : 0;
        // one step is one question × method pair, so the count and the rate say "pairs", not questions
        String line = String.format(Locale.ROOT, "%d/%d pairs %5.1f%% | %.2f pairs/s | ETA %s | acc %s%s",
                done, total, total == 0 ? 100.0 : 100.0 * done / total, rate, clock(etaSecs),
                graded == 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) correct / graded),
                errors > 0 ? " | errors " + errors : "");
        if (terminal) {
            int width = 24;
            int filled = total == 0 ? width : (int) (width * done / total);
            out.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + line + (done == total ? "\n" : ""));
        } else out.println(line);
        out.flush();
    }

    static String clock(long s) {
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
