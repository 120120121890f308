package dev.gamagent.cli;

import dev.gamagent.api.Question;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.RenderStyle;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.engine.Prompts;
import dev.gamagent.image.Picture;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code gam bench measure}: the built-in local model asked directly (the {@code single} prompt) on N
 * generated questions at each image scale; accuracy per family, per difficulty tier and overall, and
 * the perception time per image measured in the same run.
 */
@Command(name = "measure", mixinStandardHelpOptions = true,
        description = "Measure the built-in local model on N generated questions at several image scales: accuracy per family × scale, "
                + "per difficulty tier, and perception time per image (mean, p95).")
final class BenchMeasureCommand implements Callable<Integer> {
    @Option(names = "--n", defaultValue = "500", description = "number of questions (default: ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--seed", defaultValue = "7", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--scales", split = ",", defaultValue = "0.5,1,2", description = "image scale factors (default: ${DEFAULT-VALUE})")
    List<Double> scales;

    @Option(names = "--hard-fraction", description = "share of hard items, 0..1 (default: the generator's mix)")
    Double hardFraction;

    @Option(names = "--render", defaultValue = "varied", description = "varied or classic rendering, as for bench generate; "
            + "varied also reports accuracy per style choice (default: ${DEFAULT-VALUE})")
    String render;

    @Option(names = "--out", description = "also write the figures as JSON to this file")
    Path out;

    /** Correct and total answers of one group. */
    private static final class Tally {
        int right, total;

        void add(boolean ok) { total++; if (ok) right++; }

        double accuracy() { return total == 0 ? Double.NaN : (double) right / total; }

        Map<String, Object> json() { return Map.of("correct", right, "total", total, "accuracy", accuracy()); }
    }

    /** Everything measured at one scale. */
    private record ScaleResult(double scale, Map<String, Tally> families, Map<String, Tally> tiers, Map<String, Tally> styles,
                               Tally overall, double[] perceptionMs) { }

    @Override public Integer call() throws Exception {
        if (n < 1) throw new IllegalArgumentException("--n must be >= 1, got " + n);
        for (double s : scales) if (!(s > 0)) throw new IllegalArgumentException("--scales must be positive numbers, got " + s);
        System.setProperty("java.awt.headless", "true");
        Config config = Config.defaults();
        String date = Instant.now().toString();
        System.err.printf("measure: generating %d questions (seed %d, %s rendering)%n", n, seed, render);
        RenderStyle.Render rendering = RenderStyle.Render.parse(render);
        List<BenchItem> items = BenchmarkGenerator.withMix(seed, hardFraction, rendering).generate(n, Arrays.asList(Family.values()));
        Prompts prompts = new Prompts(config);
        List<ScaleResult> results = new ArrayList<>();
        try (LocalBackend backend = LocalBackend.create(config)) {
            for (double scale : scales) {
                Map<String, Tally> fams = new LinkedHashMap<>();
                for (Family f : Family.values()) fams.put(f.category(), new Tally());
                Map<String, Tally> tiers = new LinkedHashMap<>();
                for (String t : List.of("easy", "medium", "hard")) tiers.put(t, new Tally());
                Map<String, Tally> styles = new java.util.TreeMap<>();
                Tally all = new Tally();
                double[] ms = new double[items.size()];
                for (int i = 0; i < items.size(); i++) {
                    BenchItem it = items.get(i);
                    Question q = it.toQuestion();
                    Picture pic = q.images().get(0).scaled(scale, backend.capabilities().maxImagePixels());
                    // Perception timed on its own (a cache miss: every image and scale is new); the chat call then reuses it.
                    long t0 = System.nanoTime();
                    backend.perception().perceive(pic);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                    String prompt = prompts.render("single_mc", Map.of("question", q.render()));
                    ChatResult r = backend.chat(ChatRequest.of(List.of(ChatMessage.user(prompt, List.of(pic)))));
                    boolean ok = it.answer().equals(AnswerExtractor.option(r.text(), it.options()));
                    fams.get(it.category()).add(ok);
                    tiers.computeIfAbsent(it.difficulty(), k -> new Tally()).add(ok);
                    if (rendering == RenderStyle.Render.VARIED) for (String tag : it.render().tags()) styles.computeIfAbsent(tag, k -> new Tally()).add(ok);
                    all.add(ok);
                    if ((i + 1) % 25 == 0 || i + 1 == items.size()) {
                        System.err.printf(Locale.ROOT, "scale %s: %d/%d, accuracy so far %.3f%n", plain(scale), i + 1, items.size(), all.accuracy());
                    }
                }
                results.add(new ScaleResult(scale, fams, tiers, styles, all, ms));
            }
        }
        System.out.print(table(results));
        if (out != null) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("command", "gam bench measure --n " + n + " --seed " + seed + " --scales " + joined(scales)
                    + (hardFraction == null ? "" : " --hard-fraction " + hardFraction) + " --render " + rendering.label());
            json.put("date", date);
            json.put("processors", Runtime.getRuntime().availableProcessors());
            json.put("java", System.getProperty("java.version"));
            json.put("model", LocalBackend.NAME);
            json.put("questions", n);
            List<Map<String, Object>> per = new ArrayList<>();
            for (ScaleResult r : results) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("scale", r.scale());
                m.put("overall", r.overall().json());
                Map<String, Object> f = new LinkedHashMap<>();
                r.families().forEach((k, v) -> f.put(k, v.json()));
                m.put("families", f);
                Map<String, Object> t = new LinkedHashMap<>();
                r.tiers().forEach((k, v) -> t.put(k, v.json()));
                m.put("tiers", t);
                Map<String, Object> st = new LinkedHashMap<>();
                r.styles().forEach((k, v) -> st.put(k, v.json()));
                if (!st.isEmpty()) m.put("styles", st);
                m.put("perception_ms", Map.of("mean", mean(r.perceptionMs()), "p95", p95(r.perceptionMs())));
                per.add(m);
            }
            json.put("scales", per);
            if (out.getParent() != null) Files.createDirectories(out.getParent());
            Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), json);
            System.err.println("wrote " + out);
        }
        return 0;
    }

    private static String joined(List<Double> scales) {
        return String.join(",", scales.stream().map(BenchMeasureCommand::plain).toList());
    }

    /** A scale as typed: 0.5, 1, 2 (no trailing zeros). */
    static String plain(double scale) {
        return java.math.BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }

    /** Rows: families, tiers, overall, perception times; one column per scale. */
    private static String table(List<ScaleResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-28s", "accuracy"));
        for (ScaleResult r : results) sb.append(String.format(Locale.ROOT, "%16s", "scale " + plain(r.scale())));
        sb.append('\n');
        List<String> rows = new ArrayList<>(results.get(0).families().keySet());
        for (String fam : rows) row(sb, fam, results, r -> r.families().get(fam));
        for (String tier : results.get(0).tiers().keySet()) row(sb, "tier " + tier, results, r -> r.tiers().get(tier));
        for (String tag : results.get(0).styles().keySet()) row(sb, tag, results, r -> r.styles().get(tag));
        row(sb, "overall", results, ScaleResult::overall);
        sb.append(String.format(Locale.ROOT, "%-28s", "perception ms mean"));
        for (ScaleResult r : results) sb.append(String.format(Locale.ROOT, "%16.0f", mean(r.perceptionMs())));
        sb.append('\n').append(String.format(Locale.ROOT, "%-28s", "perception ms p95"));
        for (ScaleResult r : results) sb.append(String.format(Locale.ROOT, "%16.0f", p95(r.perceptionMs())));
        return sb.append('\n').toString();
    }

    private static void row(StringBuilder sb, String name, List<ScaleResult> results, java.util.function.Function<ScaleResult, Tally> get) {
        sb.append(String.format(Locale.ROOT, "%-28s", name));
        for (ScaleResult r : results) {
            Tally t = get.apply(r);
            sb.append(String.format(Locale.ROOT, "%16s", t == null || t.total == 0 ? "-"
                    : String.format(Locale.ROOT, "%.3f (%d/%d)", t.accuracy(), t.right, t.total)));
        }
        sb.append('\n');
    }

    static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) s += x;
        return xs.length == 0 ? Double.NaN : s / xs.length;
    }

    /** Nearest-rank 95th percentile. */
    static double p95(double[] xs) {
        if (xs.length == 0) return Double.NaN;
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[Math.max(0, (int) Math.ceil(0.95 * s.length) - 1)];
    }
}
