package dev.gamagent.uncertainty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.eval.report.Calibration;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * How well Φ_sem (the hedge-language fallback) separates right from wrong answers on real models' replies
 * (docs/GAM.md, "Φ_sem on real replies"). Reads MathVista result files ({@code output_*.json}, the
 * multiple-choice pids) and VLMEvalKit JSONL result rows ({@code {prediction, options, answer, hit}}) from
 * the folders given, and prints per file and per split: how often Φ_sem fires, accuracy by uncertainty
 * bucket, and the AUROC of (1 − U) for correctness. Run with {@code bench/hedge.sh FOLDER...}.
 *
 * <p>Correctness is the benchmark's own verdict ({@code true_false}, {@code hit}). The files named in
 * {@link #DEVELOPMENT} were used while changing the lexicon; every other file is held out, so any new
 * result file dropped in a folder is reported as held-out.
 */
public final class HedgeMeasurement {
    /** Files the lexicon was developed on (half the MathVista models, VILA 8B); the rest are held out. */
    static final Set<String> DEVELOPMENT = Set.of("output_bard", "output_instruct_blip2_vicuna_13b",
            "output_llava_llama_2_13b", "output_minigpt4_llama2", "vila_8b_MMStar", "vila_8b_RealWorldQA",
            "vila_8b_ScienceQA_TEST", "vila_8b_ScienceQA_VAL");
    /** Uncertainty buckets; Φ_sem of a reply without any hedge is σ(−2.4) ≈ 0.083, in the first. */
    static final double[] EDGES = {0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0000001};

    private HedgeMeasurement() { }

    /** One real reply to a multiple-choice question, with the benchmark's verdict. */
    record Reply(String file, String text, Map<String, String> options, String answer, boolean correct) {
        /** The reply as GAM reads it: its option letter (ReplyParser), correct iff that is the answer; null when unreadable. */
        Reply asRead() {
            String o = ReplyParser.option(text, options);
            return o == null ? null : new Reply(file, text, options, answer, o.equals(answer));
        }
    }

    /** The figures for one set of replies under one uncertainty. */
    record Stats(int n, int fired, double accuracy, double accFired, double accQuiet, int[] bucketN,
                 double[] bucketAcc, double auroc) { }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: HedgeMeasurement FOLDER... (folders holding MathVista output_*.json or VLMEvalKit *.jsonl result files)");
            System.exit(2);
        }
        Map<String, List<Reply>> byFile = new LinkedHashMap<>();
        for (String a : args) {
            Path dir = Path.of(a);
            if (!Files.isDirectory(dir)) throw new IllegalArgumentException(a + " is not a folder; pass folders of result files");
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.sorted().toList()) {
                    List<Reply> rs = load(f);
                    if (!rs.isEmpty()) byFile.put(stem(f), rs);
                }
            }
        }
        if (byFile.isEmpty()) throw new IllegalArgumentException("no MathVista *.json or VLMEvalKit *.jsonl result files in " + String.join(", ", args));
        SemanticUncertainty sem = new SemanticUncertainty();
        ToDoubleFunction<Reply> phi = r -> sem.of(r.text());
        report("All multiple-choice replies; correct = the benchmark's verdict", byFile, phi, sem);
        Map<String, List<Reply>> read = new LinkedHashMap<>();
        for (var e : byFile.entrySet()) read.put(e.getKey(), e.getValue().stream().map(Reply::asRead).filter(r -> r != null).toList());
        System.out.println();
        report("Replies GAM can read (ReplyParser finds an option; the rest get U = 1 anyway); correct = that option is the answer",
                read, phi, sem);
        System.out.println();
        variants(read);
    }

    /**
     * Lexicon variants the development files suggested (removing tiers or words that fire on non-hedges), each
     * with its mean per-file AUROC over the readable replies of the development and the held-out files.
     */
    private static void variants(Map<String, List<Reply>> read) {
        List<String> weakNoCanBe = SemanticUncertainty.WEAK.stream().filter(w -> !w.equals("can be")).toList();
        Map<String, SemanticUncertainty> lexicons = new LinkedHashMap<>();
        lexicons.put("the project's lexicon", new SemanticUncertainty());
        lexicons.put("without \"can be\"", new SemanticUncertainty(SemanticUncertainty.STRONG, SemanticUncertainty.MEDIUM, weakNoCanBe));
        lexicons.put("without \"likely\"", new SemanticUncertainty(SemanticUncertainty.STRONG,
                SemanticUncertainty.MEDIUM.stream().filter(w -> !w.equals("likely")).toList(), SemanticUncertainty.WEAK));
        lexicons.put("without the weak tier", new SemanticUncertainty(SemanticUncertainty.STRONG, SemanticUncertainty.MEDIUM, List.of()));
        lexicons.put("strong tier only", new SemanticUncertainty(SemanticUncertainty.STRONG, List.of(), List.of()));
        System.out.println("== Lexicon variants: mean per-file AUROC of (1 − Φ_sem), readable replies of the files where any hedge fires");
        System.out.println(String.format(Locale.ROOT, "%-28s %12s %12s", "lexicon", "development", "held-out"));
        for (var e : lexicons.entrySet()) {
            SemanticUncertainty sem = e.getValue();
            List<Double> dev = new ArrayList<>(), held = new ArrayList<>();
            for (var f : read.entrySet()) {
                if (f.getValue().isEmpty() || f.getKey().startsWith("vila")) continue; // VILA replies are bare letters: nothing fires
                double a = measure(f.getValue(), r -> sem.of(r.text()), sem).auroc();
                if (!Double.isNaN(a)) (DEVELOPMENT.contains(f.getKey()) ? dev : held).add(a);
            }
            System.out.println(String.format(Locale.ROOT, "%-28s %12s %12s", e.getKey(), fmt(mean(dev)), fmt(mean(held))));
        }
    }

    private static void report(String title, Map<String, List<Reply>> byFile, ToDoubleFunction<Reply> phi, SemanticUncertainty sem) {
        System.out.println("== " + title + "; U = Φ_sem (SemanticUncertainty.of on the raw reply)");
        System.out.println(header());
        List<Reply> dev = new ArrayList<>(), held = new ArrayList<>();
        List<Double> devAuroc = new ArrayList<>(), heldAuroc = new ArrayList<>();
        for (var e : byFile.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            boolean isDev = DEVELOPMENT.contains(e.getKey());
            Stats s = measure(e.getValue(), phi, sem);
            System.out.println(row(e.getKey() + (isDev ? " (dev)" : ""), s));
            (isDev ? dev : held).addAll(e.getValue());
            if (!Double.isNaN(s.auroc())) (isDev ? devAuroc : heldAuroc).add(s.auroc());
        }
        // pooled AUROC mixes models of different accuracy; the per-file mean says how well U ranks within one model
        if (!dev.isEmpty()) System.out.println(row("all development files", measure(dev, phi, sem)) + "  mean over files " + fmt(mean(devAuroc)));
        if (!held.isEmpty()) System.out.println(row("all held-out files", measure(held, phi, sem)) + "  mean over files " + fmt(mean(heldAuroc)));
        System.out.println("accuracy by Φ_sem bucket (count: accuracy)");
        for (var split : List.of(Map.entry("development", dev), Map.entry("held-out", held))) {
            if (split.getValue().isEmpty()) continue;
            Stats s = measure(split.getValue(), phi, sem);
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-12s", split.getKey()));
            for (int b = 0; b < s.bucketN().length; b++) {
                sb.append(String.format(Locale.ROOT, "  [%.1f,%.1f) %5d: %s", EDGES[b], Math.min(1, EDGES[b + 1]), s.bucketN()[b],
                        s.bucketN()[b] == 0 ? "  -  " : String.format(Locale.ROOT, "%.3f", s.bucketAcc()[b])));
            }
            System.out.println(sb);
        }
    }

    static Stats measure(List<Reply> replies, ToDoubleFunction<Reply> uncertainty, SemanticUncertainty sem) {
        int n = replies.size(), fired = 0, right = 0, rightFired = 0;
        int[] bn = new int[EDGES.length - 1], br = new int[EDGES.length - 1];
        double[] confidence = new double[n];
        boolean[] correct = new boolean[n];
        for (int i = 0; i < n; i++) {
            Reply r = replies.get(i);
            double u = uncertainty.applyAsDouble(r);
            // "fires": a hedge word or a reported confidence moved Φ_sem off its no-hedge value (empty replies are not counted)
            boolean hedged = !r.text().isBlank() && (sem.density(r.text()) > 0 || SemanticUncertainty.reportedConfidence(r.text()) != null);
            confidence[i] = 1 - u;
            correct[i] = r.correct();
            if (r.correct()) right++;
            if (hedged) { fired++; if (r.correct()) rightFired++; }
            for (int b = 0; b < bn.length; b++) {
                if (u >= EDGES[b] && u < EDGES[b + 1]) { bn[b]++; if (r.correct()) br[b]++; break; }
            }
        }
        double[] ba = new double[bn.length];
        for (int b = 0; b < bn.length; b++) ba[b] = bn[b] == 0 ? Double.NaN : (double) br[b] / bn[b];
        return new Stats(n, fired, ratio(right, n), ratio(rightFired, fired), ratio(right - rightFired, n - fired), bn, ba,
                Calibration.auroc(confidence, correct));
    }

    private static String header() {
        return String.format(Locale.ROOT, "%-40s %6s %8s %7s %8s %8s %7s", "file", "n", "fires", "acc", "acc|fire", "acc|quiet", "AUROC");
    }

    private static String row(String name, Stats s) {
        return String.format(Locale.ROOT, "%-40s %6d %7.1f%% %7.3f %8s %8s %7.3f", name, s.n(), 100.0 * s.fired() / s.n(), s.accuracy(),
                fmt(s.accFired()), fmt(s.accQuiet()), s.auroc());
    }

    private static String fmt(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v); }

    private static double mean(List<Double> xs) { return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN); }

    private static double ratio(int a, int b) { return b == 0 ? Double.NaN : (double) a / b; }

    private static String stem(Path f) {
        String s = f.getFileName().toString();
        int dot = s.lastIndexOf('.');
        return dot < 0 ? s : s.substring(0, dot);
    }

    /** The multiple-choice replies of one result file; empty for a file of another kind. */
    static List<Reply> load(Path f) {
        String name = f.getFileName().toString();
        try {
            if (name.endsWith(".jsonl")) return vlmEvalKit(f);
            if (name.endsWith(".json")) return mathVista(f);
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(f + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static List<Reply> vlmEvalKit(Path f) throws IOException {
        List<Reply> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) continue;
            JsonNode o = Json.MAPPER.readTree(lines.get(i));
            if (!o.has("prediction") || !o.has("hit")) {
                throw new IllegalArgumentException(f + " line " + (i + 1) + ": a VLMEvalKit result row needs 'prediction' and 'hit'");
            }
            Map<String, String> options = new LinkedHashMap<>();
            o.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
            JsonNode p = o.get("prediction");
            out.add(new Reply(stem(f), p.isNull() ? "" : p.asText(), options, o.path("answer").asText(), o.get("hit").asInt() == 1));
        }
        return out;
    }

    private static List<Reply> mathVista(Path f) throws IOException {
        JsonNode root = Json.MAPPER.readTree(f.toFile());
        List<Reply> out = new ArrayList<>();
        if (!root.isObject()) return out;
        for (var it = root.fields(); it.hasNext(); ) {
            JsonNode o = it.next().getValue();
            if (!"multi_choice".equals(o.path("question_type").asText()) || !o.has("true_false")) continue;
            Map<String, String> options = new LinkedHashMap<>();
            JsonNode ch = o.path("choices");
            for (int k = 0; k < ch.size(); k++) options.put(String.valueOf((char) ('A' + k)), ch.get(k).asText());
            String answer = null;
            for (var e : options.entrySet()) if (e.getValue().equals(o.path("answer").asText())) answer = e.getKey();
            out.add(new Reply(stem(f), o.path("response").asText(""), options, answer, o.get("true_false").asBoolean()));
        }
        return out;
    }
}
