package dev.gamagent.bench.perf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.BenchmarkWriter;
import dev.gamagent.bench.ControllerDecisionBenchmark;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.OpenAnswerDecisionBenchmark;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.local.LocalPerception;
import dev.gamagent.util.Json;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every performance target of issue 12 in one run ({@code bench/perf.sh}): each figure is a ratio measured
 * within this run against the model-server simulator ({@code gam bench serve-sim}) or the built-in model,
 * printed with its target and PASS/FAIL, and written to {@code target/perf/report.md}. Child processes
 * run the shaded jar as the {@code ./gam} launcher would; the simulators run in processes of their own so
 * the orchestrator's CPU and memory are its own.
 */
public final class PerfSuite {
    private static final Pattern CEILING = Pattern.compile("ceiling: (\\d+) requests/s");
    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private final Launcher launcher;
    private final Path work;
    private final PerfReport report = new PerfReport();
    private final List<String> only;
    private Path photos; // the 1-megapixel JPEG benchmark file
    private int photoRows;

    private final ScaleSteps scale;

    private PerfSuite(Launcher launcher, Path work, List<String> only, boolean big) {
        this.launcher = launcher;
        this.work = work;
        this.only = only;
        this.scale = new ScaleSteps(launcher, work, report, big);
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of("gam-cli/target/gam.jar"), work = Path.of("target/perf");
        List<String> only = List.of();
        boolean big = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jar" -> jar = Path.of(args[++i]);
                case "--out" -> work = Path.of(args[++i]);
                case "--only" -> only = Arrays.asList(args[++i].split(","));
                case "--big" -> big = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; use --jar FILE, --out DIR, --only a,b, --big");
            }
        }
        Files.createDirectories(work);
        PerfSuite suite = new PerfSuite(Launcher.find(jar), work, only, big);
        System.exit(suite.run() ? 0 : 1);
    }

    private boolean wanted(String step) { return only.isEmpty() || only.contains(step); }

    private boolean run() throws Exception {
        long t0 = System.nanoTime();
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        String loadBefore = loadAverage();
        System.out.println("gam performance suite, " + started + ", " + Runtime.getRuntime().availableProcessors() + " cores, load average "
                + loadBefore + ", children on Java " + launcher.javaVersion() + " (" + launcher.java() + ")");
        step("ceiling", this::ceiling);
        step("decision", this::decision);
        step("round", this::roundWallTime);
        step("throughput", this::throughputMatrix);
        step("inflight", this::fiveHundredInFlight);
        step("gamcpu", this::gamCpuPerCall);
        step("concurrency", this::concurrencyFlags);
        step("tokens", this::tokensPerQuestion);
        step("coldstart", this::coldStart);
        step("perception", this::perception);
        // issue 25: bounded memory at real benchmark sizes, a first round that does not wait, fast ends
        step("firstround", scale::firstRound);
        step("busy", scale::busy);
        step("fixedcost", scale::fixedCost);
        step("junk", scale::junk);
        step("replycap", scale::replyCap);
        step("memory", scale::memory);
        step("generate", scale::generate);
        double minutes = (System.nanoTime() - t0) / 60e9;
        String header = String.format(Locale.ROOT, "bench/perf.sh, %s, %d cores, load average %s before and %s after, %.1f min, children on Java %d",
                started, Runtime.getRuntime().availableProcessors(), loadBefore, loadAverage(), minutes, launcher.javaVersion());
        report.print(System.out, header);
        Files.writeString(work.resolve("report.md"), report.markdown(header), StandardCharsets.UTF_8);
        System.out.println("wrote " + work.resolve("report.md") + "; logs in " + work);
        return report.allPassed();
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private void step(String name, Step s) {
        if (!wanted(name)) return;
        System.out.println("== " + name + " (load average " + loadAverage() + ")");
        try {
            s.run();
        } catch (Exception | AssertionError e) {
            report.fail(name, "step failed", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    // ---- 0. the simulator's own ceiling ----------------------------------------------------------------

    private void ceiling() throws Exception {
        try (ChildProcess sim = ChildProcess.start("ceiling", launcher.gam("bench", "serve-sim", "--port", "0", "--ceiling-seconds", "4"),
                work.resolve("ceiling.log"))) {
            Matcher m = sim.await(CEILING, Duration.ofSeconds(90));
            report.check("simulator", "ceiling at zero latency (requests/s)", Double.parseDouble(m.group(1)), "%.0f", 2000, false, "");
        }
    }

    // ---- 1. decision overhead (JMH) --------------------------------------------------------------------

    private void decision() throws Exception {
        var opts = new OptionsBuilder()
                .include(ControllerDecisionBenchmark.class.getSimpleName() + "\\.gamDecision")
                .include(OpenAnswerDecisionBenchmark.class.getSimpleName())
                .param("agents", "6").verbosity(VerboseMode.SILENT).build();
        Collection<RunResult> results = new Runner(opts).run();
        for (RunResult r : results) {
            String label = r.getParams().getBenchmark();
            double micros = r.getPrimaryResult().getScore();
            if (label.endsWith("gamDecision")) {
                report.check("decision", "GAM decision, 6 agents, multiple choice, no embeddings (ms)", micros / 1000, "%.3f", 1.0, true, "");
            } else {
                report.info("decision", "GAM decision, 6 agents, open answers through BGE embeddings",
                        String.format(Locale.ROOT, "%.1f ms = %.3f of a 1-s model round", micros / 1000, micros / 1e6));
            }
        }
    }

    // ---- 2. round wall time / slowest call -------------------------------------------------------------

    private void roundWallTime() throws Exception {
        Path data = photos(6);
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 1000, work, "round");
             ChildProcess eval = evalProcess("round", data, "gam", sim, List.of(), "--limit", "6", "--concurrency", "2",
                     "--set", "gam.theta_u=0", "--set", "gam.theta_c=0", "--set", "gam.ablation.fixed_rounds=true", "--set", "gam.max_rounds=2")) {
            requireExit(eval, Duration.ofMinutes(3));
            List<double[]> ratios = new ArrayList<>(); // {ratio, layers}
            for (JsonNode r : records("round")) {
                int rounds = r.path("rounds").asInt(), calls = r.path("calls").asInt();
                int criticRounds = Math.max(0, (calls - 3 - 3 * rounds) / 3);
                int layers = 1 + rounds + criticRounds; // experts each round, critics before each revision
                ratios.add(new double[]{r.path("millis").asDouble() / (layers * sim.latencySeconds * 1000), layers, calls});
            }
            if (ratios.isEmpty()) throw new IllegalStateException("no gam results in " + work.resolve("round"));
            double cold = ratios.stream().mapToDouble(x -> x[0]).max().orElse(Double.NaN);
            List<Double> warm = ratios.stream().map(x -> x[0]).sorted().toList().subList(0, ratios.size() - 1);
            report.info("round", "gam 3 experts + 3 critics, 2 forced rounds: calls and sequential call layers per question",
                    String.format(Locale.ROOT, "%.0f calls, %.0f layers", ratios.get(0)[2], ratios.get(0)[1]));
            report.check("round", "question wall time / (layers × 1-s simulator latency), median of warm questions", median(warm), "%.3f",
                    1.10, true, "");
            report.info("round", "the same, slowest question (includes the JVM's first question)", String.format(Locale.ROOT, "%.3f", cold));
        }
    }

    // ---- 3. eval throughput / simulator capacity ------------------------------------------------------

    /** What one windowed measurement of an eval against a fleet saw. */
    private record Window(double seconds, long completed, double busySlotSeconds, double evalCpu, double jitCpu, double simCpu,
                          int minInFlight, long maxThreads, long maxRssKb) {
        double requestsPerSecond() { return completed / seconds; }

        double cpuPerCallMs() { return completed == 0 ? Double.NaN : 1000 * evalCpu / completed; }

        /** Without the JIT compiler's threads: what a call costs once the code is compiled (a long run's cost). */
        double steadyCpuPerCallMs() { return completed == 0 ? Double.NaN : 1000 * (evalCpu - jitCpu) / completed; }
    }

    private void throughputMatrix() throws Exception {
        for (int slots : List.of(8, 64, 256)) {
            for (int endpoints : List.of(1, 4)) {
                long latencyMs = Math.max(500, slots * 1000L / 64); // a server with more slots takes longer per request
                double capacity = endpoints * slots * 1000.0 / latencyMs;
                // the warm-up lets the JIT compile the request path (CPU figures come from the longer runs below)
                double warm = Math.max(8, 2 * latencyMs / 1000.0), window = Math.max(6, 3 * latencyMs / 1000.0);
                int rows = (int) Math.ceil(capacity * (warm + window + 3 * latencyMs / 1000.0)) + 3 * slots * endpoints;
                Path data = photos(rows);
                String tag = "tp-" + slots + "x" + endpoints;
                try (SimulatorFleet sim = new SimulatorFleet(launcher, endpoints, slots, latencyMs, work, tag);
                     // a quarter more questions than slots keeps a queue at each server, as a user filling a server would
                     ChildProcess eval = evalProcess(tag, data, "single", sim, List.of(), "--limit", Integer.toString(rows),
                             "--concurrency", Integer.toString((int) Math.ceil(1.25 * slots * endpoints)))) {
                    Window w = measure(sim, eval, slots * endpoints, warm, window);
                    String what = String.format(Locale.ROOT, "K=%d × %d endpoint%s, latency %.1f s: throughput / capacity", slots, endpoints,
                            endpoints == 1 ? "" : "s", latencyMs / 1000.0);
                    report.check("throughput", what, w.requestsPerSecond() / capacity, "%.3f", 0.90, false, "");
                    report.info("throughput", String.format(Locale.ROOT, "K=%d × %d: slots busy, CPU per call (incl. JIT warm-up), cores", slots,
                                    endpoints), String.format(Locale.ROOT, "%.3f busy, %.2f ms/call, %.2f cores, simulator %.2f ms/request",
                            w.busySlotSeconds() / (slots * endpoints * w.seconds()), w.cpuPerCallMs(), w.evalCpu() / w.seconds(),
                            1000 * w.simCpu() / Math.max(1, w.completed())));
                    if (slots == 64 && endpoints == 4) {
                        report.check("past one machine", "4 endpoints × 64 slots busy", w.busySlotSeconds() / (slots * endpoints * w.seconds()),
                                "%.3f", 0.90, false, "");
                    }
                }
            }
        }
    }

    /**
     * Waits until {@code fill} requests have reached the fleet (every slot had work), lets {@code warm}
     * seconds pass, then measures over {@code window} seconds.
     */
    private Window measure(SimulatorFleet sim, ChildProcess eval, int fill, double warm, double window) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (sim.stats().received() < fill) {
            if (!eval.isAlive()) throw new IllegalStateException("eval exited before filling the slots: " + String.join(" | ", eval.tail(15)));
            if (System.nanoTime() > deadline) throw new IllegalStateException("eval did not fill " + fill + " slots within 3 minutes");
            Thread.sleep(100);
        }
        Thread.sleep((long) (warm * 1000));
        SimulatorFleet.Stats a = sim.stats();
        double cpuA = eval.cpuSeconds(), jitA = eval.compilerCpuSeconds();
        int minInFlight = Integer.MAX_VALUE;
        long threads = 0, rss = 0;
        long end = System.nanoTime() + (long) (window * 1e9);
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            minInFlight = Math.min(minInFlight, sim.stats().inFlight());
            threads = Math.max(threads, eval.status("Threads"));
            rss = Math.max(rss, eval.status("VmRSS"));
        }
        SimulatorFleet.Stats b = sim.stats();
        double cpuB = eval.cpuSeconds(), jitB = eval.compilerCpuSeconds();
        if (!eval.isAlive()) throw new IllegalStateException("eval finished inside the measuring window (too few questions)");
        return new Window(b.atSeconds() - a.atSeconds(), b.completed() - a.completed(), b.busySlotSeconds() - a.busySlotSeconds(),
                cpuB - cpuA, jitB - jitA, b.cpuSeconds() - a.cpuSeconds(), minInFlight, threads, rss);
    }

    // ---- 4. 500 questions in flight with 1-megapixel images --------------------------------------------

    private void fiveHundredInFlight() throws Exception {
        int slots = 128, endpoints = 4;
        long latencyMs = 2000;
        double capacity = endpoints * slots * 1000.0 / latencyMs, warm = 15, window = 15;
        int rows = (int) Math.ceil(capacity * (warm + window + 6)) + 1000;
        Path data = photos(rows);
        Path gcLog = work.resolve("inflight-gc.log");
        try (SimulatorFleet sim = new SimulatorFleet(launcher, endpoints, slots, latencyMs, work, "inflight");
             ChildProcess eval = evalProcess("inflight", data, "single", sim, List.of("-Xmx1g", "-Xlog:gc:file=" + gcLog),
                     "--limit", Integer.toString(rows), "--concurrency", "500", "--max-concurrent", Integer.toString(slots))) {
            Window w = measure(sim, eval, 500, warm, window);
            report.info("500 in flight", "questions waiting on the simulators, fewest seen in the window", Integer.toString(w.minInFlight()));
            report.check("500 in flight", "orchestrator CPU (cores)", w.evalCpu() / w.seconds(), "%.2f", 1.0, true, "");
            double peakAfterGc = gcPeakAfter(gcLog);
            report.check("500 in flight", "live heap (after full GC), peak, running under -Xmx1g (MiB)", peakAfterGc, "%.0f", 1024, true, "");
            report.info("500 in flight", "threads, resident memory, CPU per call", String.format(Locale.ROOT, "%d threads, %.0f MiB RSS, %.2f ms/call",
                    w.maxThreads(), w.maxRssKb() / 1024.0, w.cpuPerCallMs()));
            report.check("500 in flight", "throughput / capacity", w.requestsPerSecond() / capacity, "%.3f", 0.90, false, "");
            report.check("cpu", "orchestrator CPU per model call, single, 500 in flight, 1-MP images (ms)", w.cpuPerCallMs(), "%.2f", 3.0,
                    true, "");
        }
    }

    /**
     * The live heap: the largest occupancy right after a full collection, from a -Xlog:gc file (MiB); after a
     * young collection the old generation still holds garbage, so those count only when no full one ran.
     */
    static double gcPeakAfter(Path log) throws IOException {
        // serial: after each full collection; G1 (gam eval's collector), which rarely collects fully: after the mixed
        // collections that follow each concurrent marking (an upper bound: a mixed collection leaves some garbage)
        double full = 0, mixed = 0, young = 0;
        for (String l : Files.readAllLines(log)) {
            Matcher m = GC_LINE.matcher(l);
            if (!m.find()) continue;
            double after = Double.parseDouble(m.group(2));
            if (l.contains("Pause Full")) full = Math.max(full, after);
            else if (l.contains("(Mixed)")) mixed = Math.max(mixed, after);
            else young = Math.max(young, after);
        }
        return full > 0 ? full : mixed > 0 ? mixed : young;
    }

    // ---- 5. CPU per call with gam (several calls, structured output, the game) -----------------------

    private void gamCpuPerCall() throws Exception {
        int slots = 64;
        long latencyMs = 1000;
        Path data = photos(600);
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, slots, latencyMs, work, "gamcpu");
             // the debate is started on every question (θ_U = θ_C = 0; its stopping rules as set): the step measures the path of
             // claims, critics and revisions, and the simulator's experts, whose option distributions mostly overlap, would
             // otherwise settle most questions in round 0 (3 calls, where a question's own costs, decoding its 1-MP image and
             // its report thumbnail, are then shared by 3 calls rather than 9 or more)
             ChildProcess eval = evalProcess("gamcpu", data, "gam", sim, List.of(), "--limit", "600", "--concurrency", "48",
                     "--set", "gam.theta_u=0", "--set", "gam.theta_c=0")) {
            Window w = measure(sim, eval, slots, 15, 10);
            report.check("cpu", "orchestrator CPU per model call, gam (3 experts, 3 critics, JSON schema; 1-MP images), JIT compiler "
                    + "threads excluded (ms)", w.steadyCpuPerCallMs(), "%.2f", 3.0, true, "");
            report.info("cpu", "gam run: the same with the JIT compiler still warming up, slots busy, cores", String.format(Locale.ROOT,
                    "%.2f ms/call, %.3f busy, %.2f cores", w.cpuPerCallMs(), w.busySlotSeconds() / (slots * w.seconds()), w.evalCpu() / w.seconds()));
        }
    }

    // ---- 6. --concurrency and --max-concurrent ---------------------------------------------------------

    private void concurrencyFlags() throws Exception {
        Path data = photos(600);
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 500, work, "flags")) {
            try (ChildProcess eval = evalProcess("flags-a", data, "single", sim, List.of(), "--limit", "600", "--concurrency", "64")) {
                measure(sim, eval, 64, 1, 2);
                int peak = sim.stats().peakBusy();
                report.check("flags", "--concurrency 64 alone: peak requests at the server / 64", peak / 64.0, "%.3f", 0.95, false, "");
            }
            try (ChildProcess eval = evalProcess("flags-b", data, "single", sim, List.of(), "--limit", "50", "--concurrency", "64",
                    "--max-concurrent", "8")) {
                boolean warned;
                try {
                    eval.await(Pattern.compile("warning: --max-concurrent 8"), Duration.ofSeconds(60));
                    warned = true;
                } catch (IllegalStateException e) {
                    warned = false;
                }
                report.check("flags", "--concurrency 64 --max-concurrent 8 prints a warning (1 = yes)", warned ? 1 : 0, "%.0f", 1, false, "");
            }
        }
    }

    // ---- 7. tokens and calls per question ------------------------------------------------------------

    private void tokensPerQuestion() throws Exception {
        Path data = work.resolve("tokens.tsv");
        if (!Files.exists(data)) {
            List<BenchItem> items = BenchmarkGenerator.withMix(505, null).generate(24, Arrays.asList(Family.values()), it -> { });
            new BenchmarkWriter().write(items, data);
        }
        String methods = "gam,debate,dream+debate,dream+gam";
        try (SimulatorFleet sim = new SimulatorFleet(launcher, 1, 64, 0, work, "tokens");
             ChildProcess eval = evalProcess("tokens-sim", data, methods, sim, List.of(), "--concurrency", "8")) {
            requireExit(eval, Duration.ofMinutes(4));
        }
        tokenRows("simulator", work.resolve("tokens-sim/summary.json"));
        Path out = work.resolve("tokens-local");
        deleteTree(out); // a fresh run, not a resume of the last one
        try (ChildProcess eval = ChildProcess.start("tokens-local", launcher.gam("eval", "--data", data.toString(), "--methods", methods,
                "--out", out.toString(), "--limit", "12", "--backend", "local"), work.resolve("tokens-local.log"))) {
            requireExit(eval, Duration.ofMinutes(6));
        }
        tokenRows("built-in model", out.resolve("summary.json"));
    }

    private void tokenRows(String model, Path summary) throws IOException {
        JsonNode m = Json.MAPPER.readTree(summary.toFile()).path("metrics");
        StringBuilder sb = new StringBuilder();
        for (String method : List.of("gam", "debate", "dream+debate", "dream+gam")) {
            JsonNode x = m.path(method);
            sb.append(String.format(Locale.ROOT, "%s %.0f+%.0f tokens %.1f calls; ", method, x.path("promptTokensPerQuestion").asDouble(),
                    x.path("completionTokensPerQuestion").asDouble(), x.path("callsPerQuestion").asDouble()));
        }
        report.info("tokens", model + ": prompt+completion tokens and calls per question", sb.toString().strip());
        double gam = total(m.path("gam")), debate = total(m.path("debate"));
        report.check("tokens", model + ": gam tokens / 3-round debate tokens (paper: fewer)", gam / debate, "%.2f", 1.0, true, "");
        double dreamPrompt = m.path("dream+debate").path("promptTokensPerQuestion").asDouble();
        double debatePrompt = m.path("debate").path("promptTokensPerQuestion").asDouble();
        report.info("tokens", model + ": dream+debate prompt tokens / debate prompt tokens (paper Table 4: 12.18/9.38 = 1.30)",
                String.format(Locale.ROOT, "%.2f", dreamPrompt / debatePrompt));
    }

    private static double total(JsonNode x) {
        return x.path("promptTokensPerQuestion").asDouble() + x.path("completionTokensPerQuestion").asDouble();
    }

    // ---- 8. cold start and perception ---------------------------------------------------------------

    private void coldStart() throws Exception {
        Path image = Path.of("examples/red-triangle.png");
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long t = System.nanoTime();
            try (ChildProcess ask = ChildProcess.start("ask", launcher.gam("ask", "--backend", "local", "--image", image.toString(),
                    "--question", "What colour is the triangle?", "--option", "A=red", "--option", "B=green", "--option", "C=blue"),
                    work.resolve("coldstart-" + i + ".log"))) {
                requireExit(ask, Duration.ofMinutes(2));
            }
            best = Math.min(best, (System.nanoTime() - t) / 1e9);
        }
        report.info("cold start", "`gam ask --backend local` from process start to answer (s, best of 2)", String.format(Locale.ROOT, "%.2f", best));
    }

    private void perception() throws Exception {
        List<BenchItem> items = BenchmarkGenerator.withMix(77, null).generate(16, Arrays.asList(Family.values()), it -> { });
        List<BenchItem> warmUp = BenchmarkGenerator.withMix(78, null).generate(6, Arrays.asList(Family.values()), it -> { });
        int threads = Runtime.getRuntime().availableProcessors();
        double spinBefore = spinSpeedup(threads);
        double sequential, parallel;
        try (LocalPerception one = LocalPerception.standard(Config.defaults())) {
            for (BenchItem it : warmUp) one.perceive(new Picture("warm", it.image()));
            long t = System.nanoTime();
            for (BenchItem it : items) one.perceive(new Picture("s" + it.index(), copy(it)));
            sequential = (System.nanoTime() - t) / 1e9;
        }
        try (LocalPerception two = LocalPerception.standard(Config.defaults())) {
            for (BenchItem it : warmUp) two.perceive(new Picture("warm", it.image()));
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                long t = System.nanoTime();
                List<Future<?>> fs = new ArrayList<>();
                for (BenchItem it : items) fs.add(pool.submit(() -> two.perceive(new Picture("p" + it.index(), copy(it)))));
                for (Future<?> f : fs) f.get();
                parallel = (System.nanoTime() - t) / 1e9;
            } finally {
                pool.shutdownNow();
            }
        }
        double spin = Math.min(spinBefore, spinSpeedup(threads));
        double speedup = sequential / parallel;
        report.info("perception", "built-in model, ms per image: one at a time / " + threads + " in parallel; plain Java spin speed-up "
                + "(the cores this machine gave us, the lower of before and after)", String.format(Locale.ROOT, "%.0f / %.0f; %.2f",
                1000 * sequential / items.size(), 1000 * parallel / items.size(), spin));
        if (spin >= 0.9 * threads) {
            report.check("perception", "speed-up with " + threads + " images at once", speedup, "%.2f", 0.75 * threads, false, "");
        } else {
            report.info("perception", "speed-up with " + threads + " images at once (not judged: other load left " + String.format(Locale.ROOT,
                    "%.2f", spin) + " of " + threads + " cores)", String.format(Locale.ROOT, "%.2f", speedup));
        }
    }

    /** Wall-time speed-up of {@code threads} threads of pure arithmetic over one: how many cores the machine gives right now. */
    private static double spinSpeedup(int threads) throws InterruptedException {
        long work = 400_000_000L;
        long t = System.nanoTime();
        sink = spin(work);
        double one = (System.nanoTime() - t) / 1e9;
        List<Thread> ts = new ArrayList<>();
        t = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Thread th = new Thread(() -> sink = spin(work));
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) th.join();
        return threads * one / ((System.nanoTime() - t) / 1e9);
    }

    private static volatile long sink; // keeps the JIT from removing the arithmetic

    private static long spin(long n) {
        long x = 1;
        for (long i = 0; i < n; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    /** A fresh copy of the item's pixels, so no cache keyed by content could serve a repeat. */
    private static java.awt.image.BufferedImage copy(BenchItem it) {
        var src = it.image();
        var out = new java.awt.image.BufferedImage(src.getWidth(), src.getHeight(), java.awt.image.BufferedImage.TYPE_INT_RGB);
        out.getGraphics().drawImage(src, 0, 0, null);
        return out;
    }

    // ---- plumbing ------------------------------------------------------------------------------------

    private ChildProcess evalProcess(String tag, Path data, String methods, SimulatorFleet sim, List<String> jvmOptions, String... extra)
            throws IOException {
        Path out = work.resolve(tag);
        deleteTree(out);
        List<String> args = new ArrayList<>(List.of("eval", "--data", data.toString(), "--methods", methods, "--out", out.toString(),
                "--backend", "openai", "--model", "gam-sim", "--timeout", "600"));
        for (String u : sim.urls()) args.addAll(List.of("--base-url", u));
        args.addAll(Arrays.asList(extra));
        return ChildProcess.start(tag, launcher.gam(jvmOptions, args.toArray(String[]::new)), work.resolve(tag + ".log"));
    }

    static void requireExit(ChildProcess p, Duration timeout) {
        if (!p.waitFor(timeout)) throw new IllegalStateException("did not finish within " + timeout.toMinutes() + " min");
        if (p.exitCode() != 0) throw new IllegalStateException("exited with " + p.exitCode() + ": " + String.join(" | ", p.tail(15)));
    }

    private List<JsonNode> records(String tag) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(work.resolve(tag).resolve("results.jsonl"))) if (!l.isBlank()) out.add(Json.MAPPER.readTree(l));
        return out;
    }

    /** The 1-megapixel JPEG benchmark file with at least {@code rows} rows (written once, grown when needed). */
    private Path photos(int rows) throws IOException {
        if (photos == null || photoRows < rows) {
            photoRows = Math.max(rows, 12_000);
            photos = work.resolve("photos-1mp.tsv");
            long mean = PerfDataset.write(photos, photoRows, 24, 101);
            report.note(String.format(Locale.ROOT, "benchmark images: %d×%d JPEG (quality 0.9, %.0f KB on average), 24 distinct, "
                    + "later rows refer to them by index as VLMEvalKit files do", PerfDataset.WIDTH, PerfDataset.HEIGHT, mean / 1024.0));
        }
        return photos;
    }

    static double median(List<Double> xs) {
        if (xs.isEmpty()) return Double.NaN;
        List<Double> s = xs.stream().sorted().toList();
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + "/" + f[1] + "/" + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(x);
        }
    }
}
