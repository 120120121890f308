package dev.gamagent.bench.perf;

import dev.gamagent.testing.http.EndlessServer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.BenchmarkWriter;
import dev.gamagent.bench.Family;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps of issue 25 (real benchmark sizes in bounded memory, a first round that does not wait, fast ends):
 * peak resident memory ({@code /usr/bin/time}, memory-mapped pages included) and live heap against file size in a
 * {@code -Xmx512m} JVM, with results compared to an unbounded run; junk refused at once; an endless upstream reply
 * cut off; the first round of a fresh process; how busy the server is kept from the first request to the last answer;
 * the fixed costs before the first request and after the last answer; the generator in bounded memory.
 * {@code --big} adds the 4 GB file, 10,000 questions and 20,000 generated items.
 */
final class ScaleSteps {
    private static final Pattern RSS = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
    private static final Pattern WROTE = Pattern.compile("wrote summary\\.json in ([0-9.]+) s and report\\.html \\(([0-9.]+) MB\\) in ([0-9.]+) s");
    private static final long MB = 1L << 20;

    private final Launcher launcher;
    private final Path work;
    private final PerfReport report;
    private final boolean big;

    ScaleSteps(Launcher launcher, Path work, PerfReport report, boolean big) {
        this.launcher = launcher;
        this.work = work;
        this.report = report;
        this.big = big;
    }

    /** A child's exit, wall time, peak resident memory and output. */
    private record Run(int exit, double seconds, double rssMib, List<String> output, ChildProcess process) { }

    /** Runs {@code command} under {@code /usr/bin/time -v} to its end (or {@code timeout}). */
    private Run timed(String tag, List<String> command, Duration timeout) throws IOException {
        Path times = work.resolve(tag + ".time");
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-v", "-o", times.toString()));
        cmd.addAll(command);
        long t0 = System.nanoTime();
        try (ChildProcess p = ChildProcess.start(tag, cmd, work.resolve(tag + ".log"))) {
            if (!p.waitFor(timeout)) throw new IllegalStateException(tag + " did not finish within " + timeout.toMinutes() + " min");
            double seconds = (System.nanoTime() - t0) / 1e9;
            Thread.sleep(100); // the log reader catches up
            Matcher m = RSS.matcher(Files.readString(times));
            double rss = m.find() ? Long.parseLong(m.group(1)) / 1024.0 : Double.NaN;
            return new Run(p.exitCode(), seconds, rss, p.tail(10_000), p);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private List<String> eval(Path data, String out, SimulatorFleet sim, List<String> jvm, String... extra) throws IOException {
        Path dir = work.resolve(out);
        PerfSuite.deleteTree(dir);
        List<String> args = new ArrayList<>(List.of("eval", "--data", data.toString(), "--methods", "single", "--out", dir.toString(),
                "--backend", "openai", "--model", "gam-sim", "--timeout", "600"));
        for (String u : sim.urls()) args.addAll(List.of("--base-url", u));
        args.addAll(Arrays.asList(extra));
        return launcher.gam(jvm, args.toArray(String[]::new));
    }

    // ---- memory against file size ------------------------------------------------------------------

    void memory() throws Exception {
        List<Long> sizes = new ArrayList<>(List.of(100 * MB, 500 * MB, 1024 * MB));
        if (big) sizes.add(4096 * MB);
        Map<Long, Double> rss = new HashMap<>();
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 128, 100, work, "memory")) {
            for (long size : sizes) {
                String name = "memory-" + size / MB + "mb";
                Path data = work.resolve(name + ".tsv");
                int rows = inline(data, size);
                Path gc = work.resolve(name + "-gc.log");
                Run r = timed(name, eval(data, name, sim, List.of("-Xmx512m", "-Xlog:gc:file=" + gc), "--concurrency", "64"), Duration.ofMinutes(30));
                if (r.exit() != 0) {
                    report.fail("memory", name + ": gam eval single under -Xmx512m", "exited " + r.exit() + ": " + tail(r));
                    continue;
                }
                rss.put(size, r.rssMib());
                report.info("memory", String.format(Locale.ROOT, "%d MB TSV (%d questions, own inline 1-MP JPEG each), -Xmx512m: peak RSS, "
                        + "live heap (after full or mixed collections), wall time", size / MB, rows), String.format(Locale.ROOT, "%.0f MiB, %.0f MiB, %.0f s",
                        r.rssMib(), PerfSuite.gcPeakAfter(gc), r.seconds()));
                if (size == 1024 * MB) {
                    report.check("memory", "1 GB TSV, single against the simulator in -Xmx512m: peak RSS (MiB)", r.rssMib(), "%.0f", 1024, true, "");
                }
                if (size == 1024 * MB) { // 4 GB without -Xmx would take as long again
                    String gb = size / 1024 / MB + " GB";
                    Run unbounded = timed(name + "-unbounded", eval(data, name + "-unbounded", sim, List.of(), "--concurrency", "64"),
                            Duration.ofMinutes(30));
                    report.info("memory", gb + " in the default heap (no -Xmx): peak RSS", String.format(Locale.ROOT, "%.0f MiB", unbounded.rssMib()));
                    int differ = differences(work.resolve(name), work.resolve(name + "-unbounded"));
                    report.check("memory", gb + ": results that differ from the run without -Xmx (of " + rows + ")", differ, "%.0f", 0, true, "");
                }
            }
        }
        Double small = rss.get(100 * MB);
        if (small != null && rss.containsKey(1024 * MB)) {
            report.info("memory", "peak RSS at 1 GB / at 100 MB", String.format(Locale.ROOT, "%.2f", rss.get(1024 * MB) / small));
        }
        if (small != null && rss.containsKey(4096 * MB)) {
            report.check("memory", "peak RSS at 4 GB / at 100 MB", rss.get(4096 * MB) / small, "%.2f", 1.20, true, "");
        }
    }

    /** The benchmark file of about {@code size} bytes (written once, kept for the next run); its rows. */
    private int inline(Path data, long size) throws IOException {
        Path rowsFile = data.resolveSibling(data.getFileName() + ".rows");
        if (Files.exists(data) && Files.exists(rowsFile) && Files.size(data) >= size) return Integer.parseInt(Files.readString(rowsFile).strip());
        int rows = PerfDataset.writeInline(data, size, 24, 101);
        Files.writeString(rowsFile, Integer.toString(rows));
        return rows;
    }

    /** How many questions' results differ between two runs (answer, option, grade, confidence, tokens, calls). */
    private static int differences(Path a, Path b) throws IOException {
        Map<String, String> x = results(a), y = results(b);
        int differ = Math.abs(x.size() - y.size());
        for (var e : x.entrySet()) if (!e.getValue().equals(y.get(e.getKey()))) differ++;
        return differ;
    }

    private static Map<String, String> results(Path dir) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String l : Files.readAllLines(dir.resolve("results.jsonl"))) {
            if (l.isBlank()) continue;
            JsonNode r = Json.MAPPER.readTree(l);
            out.put(r.path("questionId").asText() + "\t" + r.path("method").asText(), String.join("|", r.path("outcome").asText(),
                    r.path("predicted").asText(), r.path("answer").asText(), r.path("option").asText(), r.path("confidence").asText(),
                    r.path("uncertainty").asText(), r.path("promptTokens").asText(), r.path("completionTokens").asText(), r.path("calls").asText()));
        }
        return out;
    }

    private static String tail(Run r) {
        List<String> o = r.output();
        return String.join(" | ", o.subList(Math.max(0, o.size() - 5), o.size()));
    }

    // ---- junk refused at once ----------------------------------------------------------------------

    void junk() throws Exception {
        Path random = work.resolve("junk-random.tsv"), lines = work.resolve("junk-lines.tsv");
        if (!Files.exists(random) || Files.size(random) != 1024 * MB) PerfDataset.writeRandom(random, 1024 * MB, 7);
        if (!Files.exists(lines) || Files.size(lines) != 1024 * MB) PerfDataset.writeJunkLines(lines, 1024 * MB, 8);
        // a process that does nothing but start, in the same conditions: what the loader's part is measured against
        Run version = timed("junk-version", launcher.gam("--version"), Duration.ofMinutes(2));
        report.info("junk", "`gam --version` in the same conditions (JVM start-up): seconds", String.format(Locale.ROOT, "%.1f", version.seconds()));
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 8, 100, work, "junk")) {
            for (Path data : List.of(random, lines)) {
                String what = data == random ? "1 GB of random bytes" : "1 GB of tab-separated junk lines";
                String tag = data.getFileName().toString().replace(".tsv", "");
                Run r = timed(tag, eval(data, tag, sim, List.of()), Duration.ofMinutes(5));
                List<String> errors = r.output().stream().filter(l -> l.startsWith("error:")).toList();
                boolean named = errors.size() == 1 && errors.get(0).contains(data.toString()) && r.exit() != 0;
                report.info("junk", what + ": what gam eval says", errors.isEmpty() ? "(no error line) " + tail(r) : errors.get(0));
                report.check("junk", what + ": one error line naming the file (1 = yes)", named ? 1 : 0, "%.0f", 1, false, "");
                report.check("junk", what + ": seconds from process start to exit", r.seconds(), "%.1f", 5, true, "");
                report.check("junk", what + ": peak RSS (MiB)", r.rssMib(), "%.0f", 512, true, "");
            }
        }
    }

    // ---- an endless upstream reply ----------------------------------------------------------------

    void replyCap() throws Exception {
        try (EndlessServer upstream = new EndlessServer(0)) {
            String url = upstream.url();
            Run r = timed("replycap", launcher.gam(List.of("-Xmx1g"), "ask", "--image", "examples/red-triangle.png", "--question", "Colour?",
                    "--option", "A=red", "--option", "B=blue", "--method", "single", "--backend", "openai", "--model", "m", "--base-url", url,
                    "--retries", "0"), Duration.ofMinutes(3));
            String err = r.output().stream().filter(l -> l.contains("error")).findFirst().orElse(tail(r));
            report.info("reply cap", "an endless upstream reply to gam ask: what it says", err);
            boolean named = r.exit() != 0 && err.contains("127.0.0.1:" + upstream.port()) && err.contains("backend.max_reply_mb");
            report.check("reply cap", "ends at the cap with an error naming the server (1 = yes)", named ? 1 : 0, "%.0f", 1, false, "");
            report.info("reply cap", "seconds to exit; peak RSS in a -Xmx1g JVM; bytes the server got out", String.format(Locale.ROOT,
                    "%.1f s; %.0f MiB; %.1f MB", r.seconds(), r.rssMib(), upstream.sent.get() / 1e6));
        }
    }

    // ---- the first round of a fresh process ---------------------------------------------------------

    void firstRound() throws Exception {
        // what ./gam runs (its ahead-of-time cache, Java 25+) and, alternately in the same minutes, a fresh process without it
        boolean cached = launcher.javaVersion() >= 25 && launcher.aotCache() != null;
        if (!cached) report.info("first round", "the launcher's ahead-of-time cache", "absent (Java < 25 or not made): measured without it only");
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 1000, work, "firstround")) {
            Map<Boolean, List<Double>> ratios = new HashMap<>();
            Map<Boolean, List<String>> each = new HashMap<>();
            for (int i = 0; i < 3; i++) {
                for (boolean aot : cached ? List.of(true, false) : List.of(false)) {
                    String tag = "firstround-" + (aot ? "aot-" : "") + i;
                    Path trace = work.resolve(tag + ".json");
                    Files.deleteIfExists(trace);
                    Launcher l = aot ? launcher : launcher.withoutAot();
                    Timeline tl = new Timeline(sim);
                    long t0 = System.nanoTime();
                    Run r;
                    try {
                        r = timed(tag, l.gam("ask", "--image", "examples/red-triangle.png", "--question",
                                "What colour is the triangle?", "--option", "A=red", "--option", "B=green", "--option", "C=blue", "--method", "gam",
                                "--backend", "openai", "--model", "gam-sim", "--base-url", sim.urls().get(0), "--set", "gam.theta_u=0", "--set",
                                "gam.theta_c=0", "--set", "gam.ablation.fixed_rounds=true", "--set", "gam.max_rounds=2", "--trace", trace.toString()),
                                Duration.ofMinutes(3));
                    } finally {
                        tl.stop();
                    }
                    if (r.exit() != 0) throw new IllegalStateException("gam ask exited " + r.exit() + ": " + tail(r));
                    JsonNode t = Json.MAPPER.readTree(trace.toFile());
                    int calls = t.path("calls").asInt();
                    int layers = 5; // experts, then critics and revisions twice
                    double ratio = t.path("millis").asDouble() / (layers * sim.latencySeconds * 1000);
                    ratios.computeIfAbsent(aot, k -> new ArrayList<>()).add(ratio);
                    each.computeIfAbsent(aot, k -> new ArrayList<>()).add(String.format(Locale.ROOT, "%.3f (%d calls; %.1f s from process start "
                            + "to the first request, JVM start-up included; %d requests within 0.3 s of the first)", ratio, calls, tl.firstRequestAt(t0),
                            tl.receivedWithin(0.3)));
                }
            }
            boolean judged = cached;
            report.check("first round", "fresh gam ask" + (judged ? " (as ./gam runs it: with the launcher's ahead-of-time cache)" : "")
                    + ", gam forced to 2 rounds: question time (trace) / 5 call layers × 1 s, median of 3", PerfSuite.median(ratios.get(judged)), "%.3f",
                    1.10, true, "");
            report.info("first round", "each run", String.join("; ", each.get(judged)));
            if (cached) {
                report.info("first round", "same-run baseline: fresh gam ask without the ahead-of-time cache (GAM_AOT=off), median of 3, each",
                        String.format(Locale.ROOT, "%.3f: %s", PerfSuite.median(ratios.get(false)), String.join("; ", each.get(false))));
            }
        }
    }

    // ---- how busy the server is kept, first request to last answer ---------------------------------

    void busy() throws Exception {
        List<Integer> sizes = new ArrayList<>(List.of(1200));
        if (big) sizes.add(10_000);
        for (int n : sizes) {
            Path data = work.resolve("photos-busy.tsv"); // 10,000 rows naming 24 one-megapixel JPEGs
            if (!Files.exists(data)) PerfDataset.write(data, 10_000, 24, 101);
            // a quarter more questions than slots keeps a queue at the server, as a user filling a server would (and the throughput
            // step does); exactly as many as slots shows what each question's own turnaround costs the slots as well
            for (int concurrency : List.of(80, 64)) {
                try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 1000, work, "busy-" + n + "-" + concurrency)) {
                    Timeline tl = new Timeline(sim);
                    long t0 = System.nanoTime();
                    Run r;
                    try {
                        r = timed("busy-" + n + "-" + concurrency, eval(data, "busy-" + n + "-" + concurrency, sim, List.of(), "--limit",
                                Integer.toString(n), "--concurrency", Integer.toString(concurrency)), Duration.ofMinutes(30));
                    } finally {
                        tl.stop();
                    }
                    if (r.exit() != 0) throw new IllegalStateException("eval exited " + r.exit() + ": " + tail(r));
                    double busy = tl.busyFromFirstRequestToLastAnswer(64);
                    String what = "gam eval single, " + n + " questions, 64 slots × 1 s, --concurrency " + concurrency
                            + ": server busy from the first request to the last answer";
                    if (concurrency == 80) report.check("busy", what, busy, "%.3f", n >= 10_000 ? 0.97 : 0.93, false, "");
                    else report.info("busy", what, String.format(Locale.ROOT, "%.3f", busy));
                    report.info("busy", n + " questions, --concurrency " + concurrency + ": process start → first request; last answer → exit; "
                            + "report.html", String.format(Locale.ROOT, "%.1f s; %.1f s; %s", tl.firstRequestAt(t0),
                            tl.exitAfterLastAnswer(t0, r.seconds()), wrote(r)));
                }
            }
        }
    }

    // ---- the fixed costs of a small run ------------------------------------------------------------

    void fixedCost() throws Exception {
        Path data = work.resolve("fixed-300.tsv");
        if (!Files.exists(data)) {
            BenchmarkWriter.generate(BenchmarkGenerator.withMix(303, null), 300, Arrays.asList(Family.values()), data, 2, it -> { });
        }
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 500, work, "fixed")) {
            Timeline tl = new Timeline(sim);
            long t0 = System.nanoTime();
            Run r;
            try {
                r = timed("fixed-300", eval(data, "fixed-300", sim, List.of(), "--concurrency", "64"), Duration.ofMinutes(10));
            } finally {
                tl.stop();
            }
            if (r.exit() != 0) throw new IllegalStateException("eval exited " + r.exit() + ": " + tail(r));
            double end = tl.exitAfterLastAnswer(t0, r.seconds());
            long answered = tl.lastAnswerAt(), summary = r.process().timeOf(WROTE), done = r.process().timeOf(Pattern.compile("^wrote .*results\\.jsonl"));
            report.info("fixed costs", "300 questions, after the last answer: until the summary and report are written; until the table is "
                    + "printed (the store closed); until the process exits", String.format(Locale.ROOT, "%.2f s; +%.2f s; +%.2f s",
                    (summary - answered) / 1e9, (done - summary) / 1e9, (t0 + (long) (r.seconds() * 1e9) - done) / 1e9));
            report.info("fixed costs", "300 questions (single, 64 slots × 0.5 s): wall time; process start → first request", String.format(Locale.ROOT,
                    "%.1f s; %.1f s", r.seconds(), tl.firstRequestAt(t0)));
            report.check("fixed costs", "300 questions: last answer → process exit (summary, report, store written) (s)", end, "%.2f", 1.0, true, "");
            report.info("fixed costs", "300 questions: summary and report as gam eval reports them (report.html is helper P's)", wrote(r));
        }
    }

    private static String wrote(Run r) {
        for (String l : r.output()) {
            Matcher m = WROTE.matcher(l);
            if (m.find()) return "summary.json written in " + m.group(1) + " s, report.html (" + m.group(2) + " MB) in " + m.group(3) + " s";
        }
        return "(no 'wrote summary.json' line)";
    }

    // ---- the generator in bounded memory -----------------------------------------------------------

    void generate() throws Exception {
        int n = big ? 20_000 : 2_000;
        Path out = work.resolve("generate-" + n + ".tsv");
        Path gc = work.resolve("generate-" + n + "-gc.log");
        Run r = timed("generate-" + n, launcher.gam(List.of("-Xmx512m", "-Xlog:gc:file=" + gc), "bench", "generate", "--n", Integer.toString(n),
                "--out", out.toString()), Duration.ofMinutes(big ? 180 : 30));
        report.check("generate", "gam bench generate --n " + n + " in -Xmx512m completes (1 = yes)", r.exit() == 0 ? 1 : 0, "%.0f", 1, false, "");
        report.info("generate", "--n " + n + ": peak RSS, live heap after full GC, items per second, file size", String.format(Locale.ROOT,
                "%.0f MiB, %.0f MiB, %.1f/s, %.0f MB", r.rssMib(), PerfSuite.gcPeakAfter(gc), n / r.seconds(),
                Files.exists(out) ? Files.size(out) / 1e6 : 0.0));
    }

    /** The simulator's counters read every 20 ms while a child runs: when requests started and answers ended. */
    private static final class Timeline {
        private record Sample(long at, long received, long completed, double busySlotSeconds) { }

        private final List<Sample> samples = new ArrayList<>();
        private final Thread poller;
        private volatile boolean running = true;

        Timeline(SimulatorFleet sim) {
            poller = new Thread(() -> {
                while (running) {
                    SimulatorFleet.Stats s = sim.stats();
                    synchronized (samples) {
                        samples.add(new Sample(System.nanoTime(), s.received(), s.completed(), s.busySlotSeconds()));
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "perf-timeline");
            poller.setDaemon(true);
            poller.start();
        }

        void stop() throws InterruptedException {
            running = false;
            poller.join();
        }

        private Sample base() { return samples.get(0); }

        private Sample firstReceived() {
            for (Sample s : samples) if (s.received() > base().received()) return s;
            throw new IllegalStateException("the simulator received no request");
        }

        private Sample lastAnswer() {
            Sample last = samples.get(samples.size() - 1);
            for (Sample s : samples) if (s.completed() == last.completed()) return s;
            return last;
        }

        double firstRequestAt(long t0) { return (firstReceived().at() - t0) / 1e9; }

        long lastAnswerAt() { return lastAnswer().at(); }

        /** Seconds from the sample that saw the last answer to the child's exit (t0 + seconds). */
        double exitAfterLastAnswer(long t0, double seconds) { return (t0 + (long) (seconds * 1e9) - lastAnswer().at()) / 1e9; }

        /** Requests received within {@code seconds} of the first (round 0's experts all go at once). */
        int receivedWithin(double seconds) {
            Sample first = firstReceived();
            long n = first.received();
            for (Sample x : samples) if (x.at() >= first.at() && x.at() - first.at() <= seconds * 1e9) n = Math.max(n, x.received());
            return (int) (n - base().received());
        }

        double busyFromFirstRequestToLastAnswer(int slots) {
            Sample a = firstReceived(), b = lastAnswer();
            return (b.busySlotSeconds() - a.busySlotSeconds()) / (slots * ((b.at() - a.at()) / 1e9));
        }
    }
}
