package dev.gamagent.bench.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process of the suite (a simulator or a {@code gam} command) with its output kept in a log file
 * and in memory, and its CPU time, threads and resident memory read from {@code /proc} while it runs.
 */
final class ChildProcess implements AutoCloseable {
    /** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ). */
    private static final double TICKS_PER_SECOND = 100.0;

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    /** When each line arrived (System.nanoTime). */
    private final List<Long> times = new ArrayList<>();
    private final String name;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
                for (String line; (line = r.readLine()) != null; ) {
                    w.println(line);
                    synchronized (lines) {
                        lines.add(line);
                        times.add(System.nanoTime());
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "perf-log-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static ChildProcess start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        return new ChildProcess(name, pb.start(), log);
    }

    long pid() { return process.pid(); }

    boolean isAlive() { return process.isAlive(); }

    /** The first output line matching {@code p}, waiting up to {@code timeout}; fails with the output so far. */
    Matcher await(Pattern p, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        synchronized (lines) {
            while (true) {
                for (; seen < lines.size(); seen++) {
                    Matcher m = p.matcher(lines.get(seen));
                    if (m.find()) return m;
                }
                long left = end - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && seen == lines.size())) {
                    throw new IllegalStateException(name + ": no line matching '" + p + "' within " + timeout.toSeconds() + " s"
                            + (process.isAlive() ? "" : " (it exited)") + "; its output: " + String.join(" | ", tail(20)));
                }
                try {
                    lines.wait(Math.min(200, Math.max(1, left / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }

    /** The first {@code n} output lines matching {@code p}, waiting up to {@code timeout} for them. */
    List<Matcher> awaitAll(Pattern p, int n, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Matcher> found = new ArrayList<>();
            synchronized (lines) {
                for (String l : lines) {
                    Matcher m = p.matcher(l);
                    if (m.find()) found.add(m);
                }
                if (found.size() >= n) return found.subList(0, n);
                long left = end - System.nanoTime();
                if (left <= 0 || !process.isAlive()) {
                    throw new IllegalStateException(name + ": " + found.size() + " of " + n + " lines matching '" + p + "' within "
                            + timeout.toSeconds() + " s; its output: " + String.join(" | ", tail(20)));
                }
                try {
                    lines.wait(Math.min(200, Math.max(1, left / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }

    /** When the first line matching {@code p} arrived (System.nanoTime), or -1. */
    long timeOf(Pattern p) {
        synchronized (lines) {
            for (int i = 0; i < lines.size(); i++) if (p.matcher(lines.get(i)).find()) return times.get(i);
        }
        return -1;
    }

    boolean printed(String text) {
        synchronized (lines) {
            return lines.stream().anyMatch(l -> l.contains(text));
        }
    }

    List<String> tail(int n) {
        synchronized (lines) {
            return List.copyOf(lines.subList(Math.max(0, lines.size() - n), lines.size()));
        }
    }

    /** User + system CPU seconds so far (0 once it has exited). */
    double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid() + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND; // fields 14 and 15 of stat
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** CPU seconds of the JIT compiler threads (C1, C2), a warm-up cost a long run pays once. */
    double compilerCpuSeconds() {
        double sum = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (!comm.contains("CompilerThre")) continue;
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum += (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
                } catch (IOException | RuntimeException gone) {
                    // the thread ended
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return sum;
    }

    /** A value of /proc/PID/status such as Threads or VmRSS (kB), or -1. */
    long status(String key) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
                if (l.startsWith(key + ":")) return Long.parseLong(l.substring(key.length() + 1).strip().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Waits for the process to end; true when it ended in time. */
    boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    int exitCode() { return process.exitValue(); }

    @Override public void close() {
        if (process.isAlive()) {
            process.destroy();
            if (!waitFor(Duration.ofSeconds(5))) process.destroyForcibly();
        }
        waitFor(Duration.ofSeconds(5));
    }
}
