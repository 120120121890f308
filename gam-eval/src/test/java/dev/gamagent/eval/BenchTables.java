package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.image.internal.ImageTokens;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The docs' tables of figures, printed as Markdown from {@code gam eval} output directories; the {@code bench/*.sh}
 * scripts run the evaluations and then this (test scope of gam-eval, like {@code HedgeMeasurement}).
 *
 * <pre>
 * BenchTables methods LABEL=DIR ...              one row per (run, method): accuracy, debates, rounds, terminations, cost
 * BenchTables dream [--synthetic] [--image-tokens=F] [--max-pixels=N] LABEL=DIR ...
 *                                                 DREAM's cost per part (probe round, each round, each branch) next to the
 *                                                 method it wraps, with the image tokens among them by family F (default:
 *                                                 image.tokens; N: the backend's pixel cap, 0 none), the prompt-token ratio
 *                                                 and DREAM's accuracy gain
 * BenchTables dreamratios LABEL=DIR ...          one row per run and DREAM method: the prompt-token ratio and its parts
 * BenchTables imagetokens WxH ...                 each family's image tokens for these sizes at DREAM's scales 0.5, 1, 2
 * BenchTables branches LABEL=DIR ...             DREAM's branch shares per dream method, with the consensus flag
 * BenchTables roles plain=DIR ROLE=DIR ... [samples=DIR]
 *                                                 personas against the plain call (issue 39): each {@code single.role} run's
 *                                                 accuracy, its difference from the plain {@code single} run (Newcombe's
 *                                                 interval, McNemar's exact p), how often it answers otherwise and how much
 *                                                 its errors overlap the plain call's; beside them two samples of one plain
 *                                                 call at temperature 0.7 (the first two samples of an {@code sc} run) and
 *                                                 the roles' errors pairwise
 * </pre>
 * {@code --synthetic}: the replies are the simulator's, so no accuracy is printed. {@code --methods=A,B}: only these methods'
 * records and summaries (a run directory that {@code bench/doc-tables.sh} shares between scripts holds other methods too).
 */
public final class BenchTables {
    private BenchTables() { }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: BenchTables methods|dream|dreamratios|branches|tiers|roles [--synthetic] [--methods=A,B] [--image-tokens=FAMILY] [--max-pixels=N] LABEL=DIR ...");
            System.exit(2);
        }
        boolean synthetic = Arrays.asList(args).contains("--synthetic");
        ImageTokens.Rule rule = ImageTokens.rule(Config.defaults().string("image.tokens"));
        long maxPixels = 0;
        java.util.Set<String> only = java.util.Set.of();
        Map<String, Path> runs = new LinkedHashMap<>();
        for (String a : Arrays.copyOfRange(args, 1, args.length)) {
            if (a.equals("--synthetic")) continue;
            if (a.startsWith("--image-tokens=")) {
                rule = ImageTokens.rule(a.substring("--image-tokens=".length()));
                continue;
            }
            if (a.startsWith("--methods=")) {
                only = java.util.Set.of(a.substring("--methods=".length()).split(","));
                continue;
            }
            if (a.startsWith("--max-pixels=")) {
                maxPixels = Long.parseLong(a.substring("--max-pixels=".length()));
                continue;
            }
            int eq = a.lastIndexOf('='); // labels may hold '=' (a setting), directories do not
            runs.put(eq < 0 ? a : a.substring(0, eq), Path.of(eq < 0 ? a : a.substring(eq + 1)));
        }
        switch (args[0]) {
            case "methods" -> methods(runs, only, System.out);
            case "dream" -> { for (var e : runs.entrySet()) dream(e.getKey(), read(e.getValue(), only), synthetic, rule, maxPixels, System.out); }
            case "dreamratios" -> dreamRatios(runs, only, System.out);
            case "imagetokens" -> imageTokens(List.copyOf(runs.keySet()), System.out);
            case "branches" -> branches(runs, only, System.out);
            case "tiers" -> tiers(runs, only, System.out);
            case "roles" -> roles(runs, System.out);
            default -> throw new IllegalArgumentException("unknown table '" + args[0] + "': methods, dream, dreamratios, branches, tiers or roles");
        }
    }

    /** A run's records, only those of the methods in {@code only} when it names any. */
    static List<ResultRecord> read(Path dir, java.util.Set<String> only) {
        List<ResultRecord> all = ResultStore.read(dir);
        return only.isEmpty() ? all : all.stream().filter(r -> only.contains(r.method())).toList();
    }

    /** What one run answered: question id → {option (or answer), correct}; the run's only method (or {@code method}). */
    private static Map<String, String[]> answers(Path dir, String method) {
        Map<String, String[]> out = new TreeMap<>();
        for (ResultRecord r : ResultStore.read(dir)) {
            if (method != null && !method.equals(r.method())) continue;
            if (r.isError()) continue;
            ResultRecord.Graded g = r.grade();
            out.put(r.question().id(), new String[]{g.option() != null ? g.option() : String.valueOf(g.answer()), r.correct() ? "1" : "0"});
        }
        return out;
    }

    /** The first two samples of each question of an {@code sc} run: question id → {{option, correct}, {option, correct}}. */
    private static Map<String, String[][]> twoSamples(Path dir) {
        Map<String, String[][]> out = new TreeMap<>();
        for (ResultRecord r : ResultStore.read(dir)) {
            if (!"sc".equals(r.method()) || r.isError() || r.trace().json() == null) continue;
            JsonNode agents = r.trace().json().path("rounds").path(0).path("agents");
            if (agents.size() < 2) continue;
            String truth = r.trace().json().path("question").path("groundTruth").asText("");
            String[][] two = new String[2][];
            for (int i = 0; i < 2; i++) {
                String o = agents.get(i).path("option").asText("");
                two[i] = new String[]{o, !o.isEmpty() && o.equals(truth) ? "1" : "0"};
            }
            out.put(r.question().id(), two);
        }
        return out;
    }

    /** Answers that differ and the Jaccard overlap of the two error sets, over the questions both answered. */
    private static String agreement(Map<String, String[]> a, Map<String, String[]> b) {
        int n = 0, differ = 0, both = 0, either = 0;
        for (var e : a.entrySet()) {
            String[] y = b.get(e.getKey());
            if (y == null) continue;
            String[] x = e.getValue();
            n++;
            if (!x[0].equals(y[0])) differ++;
            boolean wx = x[1].equals("0"), wy = y[1].equals("0");
            if (wx && wy) both++;
            if (wx || wy) either++;
        }
        return String.format(Locale.ROOT, "%.1f %% (%d/%d) | %.2f (%d/%d)", 100.0 * differ / Math.max(1, n), differ, n,
                either == 0 ? 1.0 : (double) both / either, both, either);
    }

    /**
     * Personas against the plain call: {@code plain=DIR} (a {@code single} run), one {@code ROLE=DIR} per
     * {@code single.role} run, and optionally {@code samples=DIR} (an {@code sc} run whose first two samples stand for two
     * samples of one plain call).
     */
    static void roles(Map<String, Path> runs, PrintStream out) {
        Path plainDir = runs.get("plain");
        if (plainDir == null) throw new IllegalArgumentException("roles needs plain=DIR (a single run without a role)");
        Map<String, String[]> plain = answers(plainDir, "single");
        int plainRight = (int) plain.values().stream().filter(v -> v[1].equals("1")).count();
        out.println("| persona (`single.role`) | n | accuracy | Δ vs plain, points (95 % interval) | McNemar p | answers ≠ plain | errors shared with plain (Jaccard) |");
        out.println("|---|---|---|---|---|---|---|");
        out.printf(Locale.ROOT, "| none (plain `single`) | %d | %.1f %% | – | – | – | – |%n", plain.size(), 100.0 * plainRight / Math.max(1, plain.size()));
        Map<String, Map<String, String[]>> roles = new LinkedHashMap<>();
        for (var e : runs.entrySet()) {
            if (e.getKey().equals("plain") || e.getKey().equals("samples")) continue;
            Map<String, String[]> role = answers(e.getValue(), "single");
            roles.put(e.getKey(), role);
            int bothRight = 0, onlyRole = 0, onlyPlain = 0, bothWrong = 0;
            for (var q : plain.entrySet()) {
                String[] r = role.get(q.getKey());
                if (r == null) continue;
                boolean p = q.getValue()[1].equals("1"), x = r[1].equals("1");
                if (p && x) bothRight++; else if (x) onlyRole++; else if (p) onlyPlain++; else bothWrong++;
            }
            var t = new dev.gamagent.eval.stats.PairedTable(bothRight, onlyRole, onlyPlain, bothWrong);
            var ci = t.newcombe(0.95);
            out.printf(Locale.ROOT, "| %s | %d | %.1f %% | %+.1f (%+.1f, %+.1f) | %.3f | %s |%n", e.getKey(), t.n(),
                    100.0 * t.firstRight() / Math.max(1, t.n()), 100 * t.difference(), 100 * ci.lo(), 100 * ci.hi(), t.mcNemarP(),
                    agreement(plain, role));
        }
        Path samplesDir = runs.get("samples");
        if (samplesDir != null) {
            Map<String, String[]> first = new TreeMap<>(), second = new TreeMap<>();
            for (var e : twoSamples(samplesDir).entrySet()) { first.put(e.getKey(), e.getValue()[0]); second.put(e.getKey(), e.getValue()[1]); }
            out.printf(Locale.ROOT, "| two samples of the plain call at temperature 0.7 (`sc`'s first two) | %d | – | – | – | %s |%n",
                    first.size(), agreement(first, second));
        }
        if (roles.size() >= 2) {
            out.println();
            out.println("| role pair | answers differ | errors shared (Jaccard) |");
            out.println("|---|---|---|");
            List<String> names = new ArrayList<>(roles.keySet());
            for (int i = 0; i < names.size(); i++) {
                for (int j = i + 1; j < names.size(); j++) {
                    out.printf(Locale.ROOT, "| %s, %s | %s |%n", names.get(i), names.get(j), agreement(roles.get(names.get(i)), roles.get(names.get(j))));
                }
            }
        }
    }

    /** One row per (run, method) from each run's {@code summary.json}. */
    static void methods(Map<String, Path> runs, PrintStream out) throws IOException { methods(runs, java.util.Set.of(), out); }

    static void methods(Map<String, Path> runs, java.util.Set<String> only, PrintStream out) throws IOException {
        out.println("| run | method | n | accuracy | debated | mean rounds | terminations | calls/q | prompt tokens/q | completion tokens/q | ECE |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (var run : runs.entrySet()) {
            JsonNode metrics = Json.MAPPER.readTree(run.getValue().resolve("summary.json").toFile()).path("metrics");
            metrics.fields().forEachRemaining(e -> {
                if (!only.isEmpty() && !only.contains(e.getKey())) return;
                JsonNode m = e.getValue();
                StringBuilder terms = new StringBuilder();
                m.path("terminations").fields().forEachRemaining(t -> terms.append(terms.length() == 0 ? "" : ", ")
                        .append(t.getKey()).append(' ').append(t.getValue().asLong()));
                out.printf(Locale.ROOT, "| %s | `%s` | %d | %s | %s | %.2f | %s | %.2f | %,.0f | %,.0f | %s |%n", run.getKey(), e.getKey(),
                        m.path("groups").asInt(), pct(m.path("accuracy")), rate(m.path("debateTriggerRate").asDouble(), m.path("groups").asInt()),
                        m.path("meanRounds").asDouble(), terms, m.path("callsPerQuestion").asDouble(), m.path("promptTokensPerQuestion").asDouble(),
                        m.path("completionTokensPerQuestion").asDouble(), m.path("ece").isNumber() ? String.format(Locale.ROOT, "%.3f", m.path("ece").asDouble()) : "-");
            });
        }
    }

    /**
     * Accuracy per difficulty tier: {@code LABEL=DIR} where DIR holds the run and {@code DIR/data.tsv} the generated file it
     * ran on (its {@code difficulty} column); one row per (run, method).
     */
    static void tiers(Map<String, Path> runs, java.util.Set<String> only, PrintStream out) throws IOException {
        out.println("| run | method | easy | medium | hard | overall | debated |");
        out.println("|---|---|---|---|---|---|---|");
        for (var run : runs.entrySet()) {
            Map<String, String> tier = new LinkedHashMap<>();
            List<String> lines = java.nio.file.Files.readAllLines(run.getValue().resolve("data.tsv"));
            List<String> head = Arrays.asList(lines.get(0).split("\t", -1));
            int ix = head.indexOf("index"), dx = head.indexOf("difficulty");
            if (ix < 0 || dx < 0) throw new IllegalArgumentException(run.getValue().resolve("data.tsv") + " has no index and difficulty columns");
            for (String l : lines.subList(1, lines.size())) {
                String[] f = l.split("\t", -1);
                if (f.length > Math.max(ix, dx)) tier.put(f[ix], f[dx]);
            }
            Map<String, List<ResultRecord>> byMethod = new LinkedHashMap<>();
            for (ResultRecord r : read(run.getValue(), only)) if (!r.isError()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                StringBuilder row = new StringBuilder("| " + run.getKey() + " | `" + e.getKey() + "` |");
                for (String t : List.of("easy", "medium", "hard")) {
                    List<ResultRecord> in = e.getValue().stream().filter(r -> t.equals(tier.get(r.question().id()))).toList();
                    row.append(in.isEmpty() ? " - |" : String.format(Locale.ROOT, " %.1f (%d) |", acc(in), in.size()));
                }
                long debated = e.getValue().stream().filter(r -> r.trace().rounds() > 0).count();
                row.append(String.format(Locale.ROOT, " %.1f (%d) | %s |", acc(e.getValue()), e.getValue().size(),
                        e.getKey().contains("gam") ? String.format(Locale.ROOT, "%.1f%%", 100.0 * debated / e.getValue().size()) : ""));
                out.println(row);
            }
        }
    }

    /** DREAM's branch shares per dream method and run. */
    static void branches(Map<String, Path> runs, PrintStream out) { branches(runs, java.util.Set.of(), out); }

    static void branches(Map<String, Path> runs, java.util.Set<String> only, PrintStream out) {
        out.println("| run | method | n | StaticAll | PerAgent | MixRes | ConflictMixRes | every readable probe agreed | debate skipped | accuracy | calls/q |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (var run : runs.entrySet()) {
            Map<String, List<ResultRecord>> byMethod = new TreeMap<>();
            for (ResultRecord r : read(run.getValue(), only)) if (!r.isError() && r.method().startsWith("dream+")) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                List<ResultRecord> rs = e.getValue();
                int n = rs.size();
                Map<String, Integer> count = new LinkedHashMap<>();
                for (String b : List.of("StaticAll", "PerAgent", "MixRes", "ConflictMixRes")) count.put(b, 0);
                int agreed = 0, skipped = 0, right = 0;
                long calls = 0;
                for (ResultRecord r : rs) {
                    JsonNode x = r.trace().json().path("extra");
                    count.merge(x.path("branch").asText("-"), 1, Integer::sum);
                    if (x.path("consensus").asBoolean(false)) agreed++;
                    if (x.path("debate_skipped").asBoolean(false)) skipped++;
                    if (r.correct()) right++;
                    calls += r.cost().calls();
                }
                StringBuilder row = new StringBuilder("| " + run.getKey() + " | `" + e.getKey() + "` | " + n + " |");
                for (String b : List.of("StaticAll", "PerAgent", "MixRes", "ConflictMixRes")) row.append(' ').append(share(count.get(b), n)).append(" |");
                row.append(' ').append(share(agreed, n)).append(" | ").append(skipped).append(" | ")
                        .append(String.format(Locale.ROOT, "%.1f%% | %.2f |", 100.0 * right / n, (double) calls / n));
                out.println(row);
            }
        }
    }

    /**
     * What one question's run spent: the probe round's own share and each debate round's, prompt and completion; and of
     * the prompt tokens, how many were images by {@code rule} ({@code probeImages}; index 3 of each round), worked out from
     * the trace (the question's image sizes, each probe's scale, each turn's assigned scales). {@code imagesKnown} is false
     * when a round holds calls whose images the trace does not say (GAM's critics).
     */
    record Parts(long probePrompt, long probeCompletion, int probeCalls, int reused, Map<Integer, long[]> rounds, long probeImages,
                 boolean imagesKnown) {
        static Parts of(ResultRecord r) { return of(r, null, 0); }

        static Parts of(ResultRecord r, ImageTokens.Rule rule, long maxPixels) {
            JsonNode t = r.trace().json();
            JsonNode x = t.path("extra");
            List<int[]> sizes = imageSizes(t.path("question").path("images"));
            long pp = 0, pc = 0, pi = 0;
            int calls = 0, reused = 0;
            for (JsonNode p : x.path("probes")) {
                if (rule != null && !p.hasNonNull("error") && !p.path("reused").asBoolean(false)) {
                    pi += images(rule, sizes, List.of(p.path("scale").asDouble(1.0)), maxPixels);
                }
            }
            if (x.has("probe_usage")) {
                pp = x.path("probe_usage").path("prompt").asLong();
                pc = x.path("probe_usage").path("completion").asLong();
                calls = x.path("probe_usage").path("calls").asInt();
                reused = x.path("probe_usage").path("reused_as_round_0").asInt();
            } else {
                for (JsonNode p : x.path("probes")) {
                    pp += p.path("tokens").path("prompt").asLong();
                    pc += p.path("tokens").path("completion").asLong();
                    if (!p.hasNonNull("error")) calls++;
                }
            }
            // each agent's scales: DREAM's assignment by the agent's place in round 0, else the scale its turn records
            Map<String, Integer> index = new LinkedHashMap<>();
            for (JsonNode a : t.path("rounds").path(0).path("agents")) index.putIfAbsent(a.path("id").asText(), index.size());
            Map<Integer, long[]> rounds = new TreeMap<>();
            boolean known = true;
            for (JsonNode round : t.path("rounds")) {
                long[] u = rounds.computeIfAbsent(round.path("k").asInt(), k -> new long[4]);
                for (JsonNode a : round.path("agents")) {
                    u[0] += a.path("tokens").path("prompt").asLong();
                    u[1] += a.path("tokens").path("completion").asLong();
                    if (!a.hasNonNull("error")) u[2]++;
                    if (rule != null && !a.hasNonNull("error")) {
                        JsonNode assigned = x.path("assignment").path(index.getOrDefault(a.path("id").asText(), -1));
                        List<Double> scales = new ArrayList<>();
                        if (assigned.isArray()) assigned.forEach(s -> scales.add(s.asDouble()));
                        else scales.add(a.path("scale").asDouble(1.0));
                        u[3] += images(rule, sizes, scales, maxPixels);
                    }
                }
                u[0] += round.path("extra").path("tokens").path("prompt").asLong(); // GAM's critics
                u[1] += round.path("extra").path("tokens").path("completion").asLong();
                u[2] += round.path("extra").path("calls").asLong();
                if (round.path("extra").path("calls").asLong() > 0) known = false;
            }
            return new Parts(pp, pc, calls, reused, rounds, pi, known && rule != null);
        }

        /** Image tokens of one call that sends every question image at each of {@code scales}. */
        private static long images(ImageTokens.Rule rule, List<int[]> sizes, List<Double> scales, long maxPixels) {
            long n = 0;
            for (int[] wh : sizes) {
                for (double s : scales) {
                    int[] scaled = Picture.scaledSize(wh[0], wh[1], s, maxPixels);
                    n += rule.tokens(scaled[0], scaled[1]);
                }
            }
            return n;
        }

        /** The question's image sizes from the trace's "name (WxH)" entries. */
        private static List<int[]> imageSizes(JsonNode images) {
            List<int[]> out = new ArrayList<>();
            for (JsonNode i : images) {
                java.util.regex.Matcher m = SIZE.matcher(i.asText());
                if (m.find()) out.add(new int[]{Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))});
            }
            return out;
        }

        private static final java.util.regex.Pattern SIZE = java.util.regex.Pattern.compile("\\((\\d+)x(\\d+)\\)$");
    }

    /**
     * For each dream method in the records with its inner method beside it: prompt tokens per question of the probe round
     * (without the probes the inner round 0 reused), of each round, and in all, each with the image tokens among them by
     * {@code rule} (null: the image column is left out); the ratio of the totals (DREAM Table 4 reports prompt tokens: LLM
     * Debate 9.38 M → 12.18 M = 1.30); per branch, the questions, prompt tokens and accuracy.
     */
    static void dream(String label, List<ResultRecord> all, boolean synthetic, PrintStream out) { dream(label, all, synthetic, null, 0, out); }

    static void dream(String label, List<ResultRecord> all, boolean synthetic, ImageTokens.Rule rule, long maxPixels, PrintStream out) {
        Map<String, List<ResultRecord>> byMethod = new TreeMap<>();
        for (ResultRecord r : all) if (!r.isError()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
        for (String dm : byMethod.keySet()) {
            if (!dm.startsWith("dream+")) continue;
            String inner = dm.substring("dream+".length());
            List<ResultRecord> d = byMethod.get(dm), b = byMethod.getOrDefault(inner, List.of());
            int n = d.size();
            List<Parts> dp = d.stream().map(r -> Parts.of(r, rule, maxPixels)).toList(), bp = b.stream().map(r -> Parts.of(r, rule, maxPixels)).toList();
            boolean img = rule != null && dp.stream().allMatch(Parts::imagesKnown) && bp.stream().allMatch(Parts::imagesKnown);
            int maxK = 0;
            for (Parts p : dp) maxK = Math.max(maxK, p.rounds().keySet().stream().mapToInt(Integer::intValue).max().orElse(0));
            for (Parts p : bp) maxK = Math.max(maxK, p.rounds().keySet().stream().mapToInt(Integer::intValue).max().orElse(0));
            out.printf(Locale.ROOT, "%n%s: `%s` (%d questions) next to `%s` (%d)%s%n%n", label, dm, n, inner, b.size(),
                    img ? "; of the prompt tokens, images by " + rule.spec() + " (in parentheses)" : "");
            out.printf("| part | `%s` prompt tokens/q | `%s` prompt tokens/q | `%s` calls/q |%n", inner, dm, dm);
            out.println("|---|---|---|---|");
            out.printf(Locale.ROOT, "| probe round (its own calls) | - | %s | %.2f |%n", tokens(mean(dp, Parts::probePrompt), mean(dp, Parts::probeImages), img),
                    mean(dp, p -> p.probeCalls()));
            out.printf(Locale.ROOT, "| probes taken as round-0 answers | - | (in round 0) | %.2f |%n", mean(dp, p -> p.reused()));
            for (int k = 0; k <= maxK; k++) {
                final int kk = k;
                out.printf(Locale.ROOT, "| round %d | %s | %s | %.2f |%n", k, b.isEmpty() ? "-"
                                : tokens(mean(bp, p -> p.rounds().getOrDefault(kk, new long[4])[0]), mean(bp, p -> p.rounds().getOrDefault(kk, new long[4])[3]), img),
                        tokens(mean(dp, p -> p.rounds().getOrDefault(kk, new long[4])[0]), mean(dp, p -> p.rounds().getOrDefault(kk, new long[4])[3]), img),
                        mean(dp, p -> p.rounds().getOrDefault(kk, new long[4])[2]));
            }
            double pb = b.stream().mapToLong(r -> r.cost().promptTokens()).average().orElse(Double.NaN);
            double pd = d.stream().mapToLong(r -> r.cost().promptTokens()).average().orElse(Double.NaN);
            double ib = mean(bp, p -> p.probeImages() + p.rounds().values().stream().mapToLong(u -> u[3]).sum());
            double id = mean(dp, p -> p.probeImages() + p.rounds().values().stream().mapToLong(u -> u[3]).sum());
            out.printf(Locale.ROOT, "| **total** | **%s** | **%s** | %.2f |%n", tokens(pb, ib, img), tokens(pd, id, img),
                    d.stream().mapToInt(r -> r.cost().calls()).average().orElse(0));
            out.printf(Locale.ROOT, "| completion tokens/q (total) | %,.0f | %,.0f | |%n",
                    b.stream().mapToLong(r -> r.cost().completionTokens()).average().orElse(Double.NaN),
                    d.stream().mapToLong(r -> r.cost().completionTokens()).average().orElse(Double.NaN));
            out.println();
            String gain = synthetic ? "accuracy not shown: the simulator's replies are synthetic"
                    : String.format(Locale.ROOT, "accuracy `%s` %.1f%%, `%s` %.1f%%: DREAM's gain %+.1f points", inner, acc(b), dm, acc(d), acc(d) - acc(b));
            out.printf(Locale.ROOT, "prompt tokens `%s` / `%s` = **%.2f** (DREAM Table 4: 1.30 for LLM Debate); %s%n%n", dm, inner, pd / pb, gain);
            Map<String, List<Integer>> byBranch = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                JsonNode x = d.get(i).trace().json().path("extra");
                String br = x.path("branch").asText("-") + (x.path("consensus").asBoolean(false) ? " (probes agreed)" : "")
                        + (x.path("debate_skipped").asBoolean(false) ? ", no debate" : "");
                byBranch.computeIfAbsent(br, k -> new ArrayList<>()).add(i);
            }
            out.println("| branch | questions | probe round prompt tokens/q | total prompt tokens/q | calls/q |" + (synthetic ? "" : " accuracy |"));
            out.println("|---|---|---|---|---|" + (synthetic ? "" : "---|"));
            for (var e : byBranch.entrySet()) {
                List<Integer> ix = e.getValue();
                double probe = ix.stream().mapToLong(i -> dp.get(i).probePrompt()).average().orElse(0);
                double probeImg = ix.stream().mapToLong(i -> dp.get(i).probeImages()).average().orElse(0);
                double total = ix.stream().mapToLong(i -> d.get(i).cost().promptTokens()).average().orElse(0);
                double totalImg = ix.stream().mapToLong(i -> dp.get(i).probeImages() + dp.get(i).rounds().values().stream().mapToLong(u -> u[3]).sum())
                        .average().orElse(0);
                double calls = ix.stream().mapToInt(i -> d.get(i).cost().calls()).average().orElse(0);
                String a = synthetic ? "" : String.format(Locale.ROOT, " %.1f%% |", 100.0 * ix.stream().filter(i -> d.get(i).correct()).count() / ix.size());
                out.printf(Locale.ROOT, "| %s | %d | %s | %s | %.2f |%s%n", e.getKey(), ix.size(), tokens(probe, probeImg, img),
                        tokens(total, totalImg, img), calls, a);
            }
        }
    }

    /** The families the papers ran, as {@code --image-tokens} names them. */
    static final List<String> FAMILIES = List.of("qwen", "qwen-vlmevalkit", "internvl", "internvl-vlmevalkit", "gemma3", "llava-next", "openai");

    /** Each family's tokens for one image of each size ({@code WxH}) at DREAM's scales 0.5, 1 and 2 (no pixel cap). */
    public static void imageTokens(List<String> sizes, PrintStream out) {
        StringBuilder head = new StringBuilder("| family (`--image-tokens`) |"), rule = new StringBuilder("|---|");
        List<int[]> wh = new ArrayList<>();
        for (String s : sizes) {
            String[] p = s.split("x");
            wh.add(new int[]{Integer.parseInt(p[0]), Integer.parseInt(p[1])});
            head.append(' ').append(s.replace("x", "×")).append(" at 0.5× / 1× / 2× |");
            rule.append("---|");
        }
        out.println(head);
        out.println(rule);
        for (String f : FAMILIES) {
            ImageTokens.Rule r = ImageTokens.rule(f);
            StringBuilder row = new StringBuilder("| `" + f + "` |");
            for (int[] s : wh) {
                List<String> at = new ArrayList<>();
                for (double scale : List.of(0.5, 1.0, 2.0)) {
                    int[] scaled = Picture.scaledSize(s[0], s[1], scale, 0);
                    at.add(String.format(Locale.ROOT, "%,d", r.tokens(scaled[0], scaled[1])));
                }
                row.append(' ').append(String.join(" / ", at)).append(" |");
            }
            out.println(row);
        }
    }

    /** Prompt tokens, with the image tokens among them in parentheses when they are known. */
    private static String tokens(double prompt, double images, boolean withImages) {
        return withImages ? String.format(Locale.ROOT, "%,.0f (%,.0f)", prompt, images) : String.format(Locale.ROOT, "%,.0f", prompt);
    }

    /**
     * One row per run (its label names the image-token family it ran under): `debate`-like inner method and its DREAM
     * wrapper's prompt tokens per question, their ratio, and the probe round's own calls beside the inner debate.
     */
    static void dreamRatios(Map<String, Path> runs, java.util.Set<String> only, PrintStream out) {
        out.println("| run | method | inner prompt tokens/q | DREAM prompt tokens/q | ratio | probe round (own calls) / inner | debate inside DREAM / inner |");
        out.println("|---|---|---|---|---|---|---|");
        for (var run : runs.entrySet()) {
            Map<String, List<ResultRecord>> byMethod = new TreeMap<>();
            for (ResultRecord r : read(run.getValue(), only)) if (!r.isError()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (String dm : byMethod.keySet()) {
                if (!dm.startsWith("dream+") || !byMethod.containsKey(dm.substring("dream+".length()))) continue;
                List<ResultRecord> d = byMethod.get(dm), b = byMethod.get(dm.substring("dream+".length()));
                double pb = b.stream().mapToLong(r -> r.cost().promptTokens()).average().orElse(Double.NaN);
                double pd = d.stream().mapToLong(r -> r.cost().promptTokens()).average().orElse(Double.NaN);
                double probe = d.stream().mapToLong(r -> Parts.of(r).probePrompt()).average().orElse(Double.NaN);
                out.printf(Locale.ROOT, "| %s | `%s` | %,.0f | %,.0f | **%.2f** | %.2f | %.2f |%n", run.getKey(), dm, pb, pd, pd / pb, probe / pb,
                        (pd - probe) / pb);
            }
        }
    }

    private static double acc(List<ResultRecord> rs) { return rs.isEmpty() ? Double.NaN : 100.0 * rs.stream().filter(ResultRecord::correct).count() / rs.size(); }

    private static double mean(List<Parts> ps, java.util.function.ToDoubleFunction<Parts> f) {
        return ps.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static String pct(JsonNode v) { return v.isNumber() ? String.format(Locale.ROOT, "%.1f%%", 100 * v.asDouble()) : "-"; }

    private static String rate(double r, int n) { return String.format(Locale.ROOT, "%.3f (%d/%d)", r, Math.round(r * n), n); }

    private static String share(int k, int n) { return k == 0 ? "0" : String.format(Locale.ROOT, "%.1f%% (%d)", 100.0 * k / n, k); }

    /** For a test: the whole output of one mode as text. */
    static String render(String mode, boolean synthetic, Map<String, Path> runs) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8);
        switch (mode) {
            case "methods" -> methods(runs, out);
            case "branches" -> branches(runs, out);
            default -> { for (var e : runs.entrySet()) dream(e.getKey(), ResultStore.read(e.getValue()), synthetic, out); }
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
