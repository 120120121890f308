package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;
import dev.gamagent.eval.BenchmarkLoader;
import dev.gamagent.eval.CircularExpansion;
import dev.gamagent.eval.Dataset;
import dev.gamagent.eval.EvalQuestion;
import dev.gamagent.eval.OpenAnswerMatcher;
import dev.gamagent.eval.PriceTable;
import dev.gamagent.eval.ResultRecord;
import dev.gamagent.eval.ResultStore;
import dev.gamagent.eval.RunSummary;
import dev.gamagent.eval.Sweep;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.recipe.CostEstimate;
import dev.gamagent.eval.recipe.ImportedScores;
import dev.gamagent.eval.recipe.PaperTable;
import dev.gamagent.eval.recipe.ProtocolCalls;
import dev.gamagent.eval.recipe.Recipe;
import dev.gamagent.eval.recipe.RecipeCatalogue;
import dev.gamagent.eval.recipe.RecipePlan;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code gam reproduce}: the papers' tables as recipes (data files). {@code --list} and {@code --show} describe them;
 * {@code gam reproduce RECIPE --out DIR} runs one: an ordinary resumable {@code gam eval} per benchmark into
 * {@code DIR/<column>} (a {@code gam sweep} of one recorded run for the K_max ablation), then prints the paper's layout
 * with our figures, the paper's for the model run, Δ and our 95 % intervals, and writes it to
 * {@code DIR/paper-table.md} and {@code .json}. {@code --dry-run} prints the plan and its cost; {@code --pilot N}
 * answers N questions per benchmark first and narrows the estimate from them.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"The papers' tables as recipes: --list shows them with what each costs per question; --show RECIPE prints the published "
                + "figures, where each comes from, and the gam eval / gam sweep commands that run the grid.",
                "gam reproduce RECIPE --out DIR [backend flags] runs it: one resumable gam eval per benchmark in DIR/<benchmark>, then the paper's "
                        + "table with ours, the paper's figure for your --model, Δ and 95 %% intervals (DIR/paper-table.md, .json). "
                        + "--dry-run: the plan and its cost; --pilot N: run N questions per benchmark and narrow the estimate."})
public final class ReproduceCommand implements Callable<Integer> {
    @Option(names = "--list", description = "list the recipes: paper, table, transcribed cells, calls per question per method")
    boolean list;

    @Option(names = "--show", paramLabel = "RECIPE", description = "one recipe: its published figures and the commands that run it")
    String show;

    @Option(names = "--out", description = "where the runs go: with RECIPE, one directory per benchmark under it; with --show, the root "
            + "the printed commands use (default there: runs)")
    Path out;

    @Parameters(arity = "0..1", paramLabel = "RECIPE", description = "the recipe to run ('gam reproduce --list')")
    String recipe;

    @Option(names = "--benchmarks", split = ",", description = "only these columns (the paper's names, or the datasets' names)")
    List<String> benchmarks = new ArrayList<>();

    @Option(names = "--methods", split = ",", description = "only these rows (the paper's row names, or our method names)")
    List<String> methods = new ArrayList<>();

    @Option(names = "--limit", defaultValue = "0", description = "only the first N questions of each benchmark (0 = all)")
    int limit;

    @Option(names = "--dry-run", description = "print the plan (questions, calls and tokens per method as ranges, dollars, time) and stop")
    boolean dryRun;

    @Option(names = "--pilot", paramLabel = "N", description = "answer N questions per benchmark (kept: the full run resumes from them), "
            + "print the estimate they narrow, and stop")
    Integer pilot;

    @Option(names = "--paper-model", description = "the paper's model whose figures go in the paper column when --model is not one of "
            + "its models (e.g. on the built-in model); labelled as not the model run")
    String paperModel;

    @Option(names = "--concurrency", description = "questions in flight (as gam eval's --concurrency)")
    Integer concurrency;

    @Option(names = "--import-scores", paramLabel = "[ROW=]FILE", description = "the official scores of a test split without public answers "
            + "(MMBench_TEST_*), graded by its evaluation server from gam's submission file, in VLMEvalKit's <method>_<dataset>_acc.csv layout "
            + "(split, Overall, categories): put in the table in place of the dev stand-in, labelled as imported. ROW= names the row "
            + "when the file's name does not (repeatable)")
    List<String> importScores = new ArrayList<>();

    @Mixin
    DataOptions dataOptions = new DataOptions();

    @Mixin
    BackendOptions backendOptions = new BackendOptions();

    private final BackendSource backends;

    public ReproduceCommand() { this(BackendSource.FACTORY); }

    /** For tests: the same command with backends from {@code backends}. */
    public ReproduceCommand(BackendSource backends) { this.backends = backends; }

    @Override public Integer call() {
        RecipeCatalogue c = RecipeCatalogue.builtIn();
        if (recipe != null) {
            if (show != null || list) throw new IllegalArgumentException("give a RECIPE to run, or --list, or --show RECIPE, not both");
            if (out == null) throw new IllegalArgumentException("gam reproduce " + recipe + " needs --out DIR (one directory per benchmark goes under it)");
            if (pilot != null && pilot < 1) throw new IllegalArgumentException("--pilot must be at least 1, got " + pilot);
            if (limit < 0) throw new IllegalArgumentException("--limit must be ≥ 0, got " + limit);
            return run(c.require(recipe));
        }
        if (show != null) {
            show(c.require(show));
            return 0;
        }
        if (out != null) throw new IllegalArgumentException("--out goes with a RECIPE to run or with --show");
        list(c);
        return 0;
    }

    // ---- running a recipe -------------------------------------------------------------------------------------------

    /** One run of the plan with what the estimate needs. */
    private record Planned(RecipePlan.EvalRun run, Config config, Path dir, Path file, List<CostEstimate.QuestionSize> sizes,
                           Map<String, CostEstimate.QuestionSize> byId, List<CostEstimate.MethodEstimate> estimates) { }

    private int run(Recipe r) {
        System.setProperty("java.awt.headless", "true");
        List<RecipePlan.EvalRun> runs = RecipePlan.runs(r, DatasetCatalogue.builtIn(), benchmarks, methods);
        Map<String, Map<String, ImportedScores>> imported = imported(r);
        List<String> notRunnable = r.benchmarks().stream().filter(b -> b.data() == null && b.aggregate() == null)
                .filter(b -> benchmarks.isEmpty() || benchmarks.stream().anyMatch(x -> x.equalsIgnoreCase(b.column())))
                .map(b -> b.column() + (b.note() != null ? " (" + b.note() + ")" : "")).toList();
        notRunnable.forEach(n -> System.err.println("note: " + r.id() + ": " + n + ": not runnable yet; its cells stay empty"));
        if (runs.isEmpty()) throw new IllegalArgumentException("nothing of recipe " + r.id() + " to run with these --benchmarks/--methods");
        BackendSpec spec = backendOptions.spec();
        String modelRun = modelRun(spec);
        String notPaper = notPaperModel(spec);
        Recipe.Model matched = paperModel != null ? r.models().stream().filter(m -> m.name().equalsIgnoreCase(paperModel)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--paper-model " + paperModel + ": recipe " + r.id() + " reports "
                        + r.models().stream().map(Recipe.Model::name).toList())) : PaperTable.matchModel(r, spec.model());
        if (paperModel != null && notPaper == null && PaperTable.matchModel(r, spec.model()) != matched) {
            notPaper = "--paper-model " + paperModel + " chosen by hand for " + modelRun;
        }
        EvalConcurrency load = EvalConcurrency.resolve(concurrency, backendOptions.maxConcurrent, Math.max(1, spec.baseUrls().size()),
                spec.kind().equals("local"), Runtime.getRuntime().availableProcessors());
        PriceTable prices = PriceTable.from(backendOptions.config());
        PriceTable.Price price = prices.priceFor(spec.kind() + ":" + (spec.model() == null ? "" : spec.model()));

        List<Planned> plan = new ArrayList<>();
        for (RecipePlan.EvalRun run : runs) plan.add(plan(run, price));
        System.out.println("Plan: " + r.id() + " (" + r.table() + ") on " + modelRun + (limit > 0 ? ", first " + limit + " questions per benchmark" : ""));
        System.out.println("  images sized from their headers, one row at a time (nothing decoded; a video: its stream's size × the frames taken)");
        printEstimate(plan, price, load.questions(), spec);
        if (pilot != null) {
            List<Planned> narrowed = new ArrayList<>();
            for (Planned p : plan) {
                eval(p, Math.min(pilot, limit > 0 ? limit : pilot));
                List<ResultRecord> records = ResultStore.read(p.dir());
                List<CostEstimate.MethodEstimate> es = new ArrayList<>();
                for (CostEstimate.MethodEstimate e : p.estimates()) {
                    es.add(CostEstimate.withPilot(e, p.sizes(), p.byId(), records.stream().filter(x -> x.method().equals(e.method())).toList(), price));
                }
                narrowed.add(new Planned(p.run(), p.config(), p.dir(), p.file(), p.sizes(), p.byId(), es));
            }
            System.out.println();
            System.out.println("Narrowed by the pilot (" + pilot + " questions per benchmark; the full run resumes from them):");
            printEstimate(narrowed, price, load.questions(), spec);
            writeJson(out.resolve("plan.json"), planJson(r, narrowed, modelRun));
            return 0;
        }
        writeJson(out.resolve("plan.json"), planJson(r, plan, modelRun));
        if (dryRun) {
            System.out.println("wrote " + out.resolve("plan.json") + " (dry run: nothing was asked)");
            return 0;
        }

        Map<String, Map<String, PaperTable.Measured>> measured = new LinkedHashMap<>();
        Map<String, String> standIns = new LinkedHashMap<>();
        ArrayNode actuals = Json.MAPPER.createArrayNode();
        for (Planned p : plan) {
            System.err.println("== " + r.id() + " / " + p.run().benchmark().column() + ": gam eval --data " + p.run().data() + " --methods "
                    + String.join(",", p.run().methods()) + " --out " + p.dir());
            eval(p, limit);
            if (p.run().standIn() != null) standIns.put(p.run().benchmark().column(), p.run().standIn());
            List<ResultRecord> records = ResultStore.read(p.dir());
            collect(p, records, measured);
            for (CostEstimate.MethodEstimate e : p.estimates()) actuals.add(actual(p, e, records));
        }
        System.out.println();
        System.out.println("Actual cost against the estimate:");
        for (JsonNode a : actuals) {
            System.out.printf(Locale.ROOT, "  %-22s %-14s %5d answers  calls %s  prompt tokens %s  completion tokens %s%n",
                    a.get("benchmark").asText(), a.get("method").asText(), a.get("answers").asInt(),
                    inside(a, "calls"), inside(a, "promptTokens"), inside(a, "completionTokens"));
        }
        PaperTable table = PaperTable.build(r, modelRun, matched, notPaper, measured, standIns, imported);
        String md = table.markdown();
        System.out.println();
        System.out.print(md);
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("paper-table.md"), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out.resolve("paper-table.md") + ": " + e.getMessage(), e);
        }
        for (Planned p : plan) paperFigures(p, table);
        ObjectNode json = Json.MAPPER.valueToTree(table);
        json.set("actuals", actuals);
        writeJson(out.resolve("paper-table.json"), json);
        System.out.println("wrote " + out.resolve("paper-table.md") + ", " + out.resolve("paper-table.json") + ", and one gam eval run per benchmark under " + out);
        return 0;
    }

    /**
     * {@code --import-scores}: row → column → the official scores each file holds. The column is the recipe's column whose
     * dataset has no public answers and whose name ends the file's name ({@code <method>_<dataset>_acc.csv}; the only such
     * column otherwise), the row is {@code ROW=} or the method the file's name starts with. Read before anything is asked,
     * so a wrong file stops the command at once.
     */
    private Map<String, Map<String, ImportedScores>> imported(Recipe r) {
        Map<String, Map<String, ImportedScores>> out = new LinkedHashMap<>();
        if (importScores.isEmpty()) return out;
        DatasetCatalogue catalogue = DatasetCatalogue.builtIn();
        List<Recipe.Benchmark> closed = r.benchmarks().stream().filter(b -> b.data() != null && catalogue.find(b.data()) != null
                && !catalogue.find(b.data()).answers()).toList();
        if (closed.isEmpty()) {
            throw new IllegalArgumentException("--import-scores: recipe " + r.id() + " has no column whose split lacks public answers; "
                    + "imported scores take the place of a stand-in (e.g. gam-agent-main's MMBench_V11_Test)");
        }
        for (String given : importScores) {
            String rowName = null, path = given;
            int eq = given.indexOf('=');
            if (eq > 0 && !Files.exists(Path.of(given))) {
                rowName = given.substring(0, eq);
                path = given.substring(eq + 1);
            }
            Path file = Path.of(path);
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--import-scores " + given + ": " + file + " does not exist");
            String[] named = ImportedScores.methodAndDataset(file, closed.stream().map(Recipe.Benchmark::data).toList());
            Recipe.Benchmark column;
            if (named != null) {
                column = closed.stream().filter(b -> b.data().equalsIgnoreCase(named[1])).findFirst().orElseThrow();
                if (rowName == null) rowName = named[0];
            } else if (closed.size() == 1) {
                column = closed.get(0);
            } else {
                throw new IllegalArgumentException("--import-scores " + given + ": the file's name does not say which column it is (name it "
                        + "<method>_<dataset>_acc.csv with one of " + closed.stream().map(Recipe.Benchmark::data).toList() + ")");
            }
            if (rowName == null) {
                throw new IllegalArgumentException("--import-scores " + given + ": say which row it is (ROW=FILE), or name the file "
                        + "<method>_" + column.data() + "_acc.csv as VLMEvalKit names its accuracy file");
            }
            String want = rowName.strip();
            List<Recipe.MethodRow> rows = r.methods().stream().filter(m -> m.row().equalsIgnoreCase(want)).toList();
            if (rows.isEmpty()) rows = r.methods().stream().filter(m -> want.equalsIgnoreCase(m.method())).toList();
            if (rows.size() != 1) {
                throw new IllegalArgumentException("--import-scores " + given + ": '" + want + "' " + (rows.isEmpty() ? "is no row or method"
                        : "matches rows " + rows.stream().map(Recipe.MethodRow::row).toList() + "; give one as ROW=FILE") + " of recipe " + r.id()
                        + " (its rows: " + r.methods().stream().map(m -> m.row() + (m.method() != null ? " (" + m.method() + ")" : "")).toList() + ")");
            }
            ImportedScores scores = ImportedScores.read(file);
            out.computeIfAbsent(rows.get(0).row(), k -> new LinkedHashMap<>()).put(column.column(), scores);
            System.err.printf(Locale.ROOT, "note: %s / %s: the official %s score %.2f %% imported from %s (%s), in place of the dev stand-in%n",
                    column.column(), rows.get(0).row(), scores.split(), scores.overall(), file, scores.fractions() ? "fractions" : "percentages");
        }
        return out;
    }

    private Planned plan(RecipePlan.EvalRun run, PriceTable.Price price) {
        Config config = config(run);
        Path file = dataOptions.files(System.err).resolve(run.data()).path();
        // a snapshot by name (MVBench_64frame) is read as that variant, as gam eval reads it
        BenchmarkLoader.Images reading = BenchmarkLoader.Images.DEFAULT.withVideos(0,
                dev.gamagent.eval.mvbench.MvBenchDataset.isName(run.data()) ? run.data() : null);
        Dataset ds = BenchmarkLoader.load(file, new BenchmarkLoader.Filter(limit, null), reading);
        List<EvalQuestion> qs = ds.questions();
        if (CircularExpansion.defaultFor(file.getFileName().toString())) qs = CircularExpansion.expand(qs);
        String all = String.join(",", run.methods());
        Map<String, Long> images = new HashMap<>();
        List<CostEstimate.QuestionSize> sizes = new ArrayList<>();
        Map<String, CostEstimate.QuestionSize> byId = new HashMap<>();
        for (EvalQuestion q : qs) {
            String group = q.group() != null ? q.group() : q.id();
            // rotations share their images: size them once, from their headers (nothing decoded, one row's cell held at a time)
            dev.gamagent.api.Question text = q.shell().withImages(List.of());
            long img = images.computeIfAbsent(group, g -> CostEstimate.size(text, q.imageSizes(), all, config, backendOptions.imageTokens).imageTokens());
            CostEstimate.QuestionSize s = new CostEstimate.QuestionSize(
                    CostEstimate.size(text, List.of(), all, config, backendOptions.imageTokens).textTokens(), img);
            sizes.add(s);
            byId.put(q.id(), s);
        }
        List<CostEstimate.MethodEstimate> es = new ArrayList<>();
        for (String m : run.methods()) es.add(CostEstimate.of(m, config, sizes, price));
        return new Planned(run, config, out.resolve(run.dir()), file, List.copyOf(sizes), byId, es);
    }

    /** The backend options of the run: the recipe's settings, then the command line's own --set on top. */
    private BackendOptions options(RecipePlan.EvalRun run) {
        BackendOptions b = new BackendOptions();
        b.backend = backendOptions.backend;
        b.baseUrls = backendOptions.baseUrls;
        b.model = backendOptions.model;
        b.apiKeyEnv = backendOptions.apiKeyEnv;
        b.timeoutSeconds = backendOptions.timeoutSeconds;
        b.retries = backendOptions.retries;
        b.maxConcurrent = backendOptions.maxConcurrent;
        b.record = backendOptions.record;
        b.replay = backendOptions.replay;
        b.imageTokens = backendOptions.imageTokens;
        b.config = backendOptions.config;
        Map<String, String> sets = new LinkedHashMap<>();
        run.settings().forEach((k, v) -> sets.put(k, v.isTextual() ? v.asText() : v.toString()));
        backendOptions.overrides.forEach((k, v) -> {
            if (sets.containsKey(k) && !sets.get(k).equals(v)) {
                System.err.println("note: --set " + k + "=" + v + " replaces the recipe's " + k + "=" + sets.get(k) + " (the paper's setting)");
            }
            sets.put(k, v);
        });
        b.overrides = sets;
        return b;
    }

    private Config config(RecipePlan.EvalRun run) { return options(run).config(); }

    private void eval(Planned p, int questions) {
        EvalCommand e = new EvalCommand(backends);
        e.data = Path.of(p.run().data());
        e.dataOptions = dataOptions;
        e.methods = new ArrayList<>(p.run().methods());
        e.out = p.dir();
        e.limit = questions;
        e.concurrency = concurrency;
        e.backendOptions = options(p.run());
        e.call();
    }

    /** What each row measured on this run's benchmark (rows of a sweep: each K_max re-decided from the one recorded run). */
    private void collect(Planned p, List<ResultRecord> records, Map<String, Map<String, PaperTable.Measured>> measured) {
        String column = p.run().benchmark().column();
        if (p.run().sweep() != null) {
            List<ResultRecord> mine = records.stream().filter(x -> x.method().equals(p.run().sweep().method())).toList();
            Config c = p.config();
            for (Recipe.MethodRow row : p.run().rows()) {
                int k = row.settings().containsKey("gam.max_rounds") ? row.settings().get("gam.max_rounds").asInt() : c.integer("gam.max_rounds", 3);
                double term = row.settings().containsKey("gam.theta_term") ? row.settings().get("gam.theta_term").asDouble() : c.number("gam.theta_term", 0.15);
                Sweep.Result s = Sweep.run(mine, Sweep.grid(List.of(term), List.of(c.number("gam.theta_u", 0.5)), List.of(c.number("gam.theta_c", 0.6)),
                        List.of(c.number("gam.epsilon", 0.01)), List.of(k)), new OpenAnswerMatcher(c.number("eval.numeric_tolerance", 0.01))).get(0);
                int n = s.groups(), right = s.accuracy() == null ? 0 : (int) Math.round(s.accuracy() * n);
                int answers = (int) mine.stream().filter(x -> !x.isError()).count();
                measured.computeIfAbsent(row.row(), x -> new LinkedHashMap<>()).put(column, new PaperTable.Measured(right, n,
                        s.promptTokensPerQuestion() * answers, s.completionTokensPerQuestion() * answers, s.callsPerQuestion() * answers, answers));
            }
            return;
        }
        Map<String, Map<String, Boolean>> items = RunSummary.itemsByMethod(p.run().methods(), records);
        for (Recipe.MethodRow row : p.run().rows()) {
            Map<String, Boolean> it = items.getOrDefault(row.method(), Map.of());
            int right = (int) it.values().stream().filter(b -> b).count();
            double prompt = 0, completion = 0, calls = 0;
            int answers = 0;
            for (ResultRecord x : records) {
                if (!x.method().equals(row.method()) || x.isError()) continue;
                prompt += x.promptTokens();
                completion += x.completionTokens();
                calls += x.calls();
                answers++;
            }
            measured.computeIfAbsent(row.row(), x -> new LinkedHashMap<>()).put(column,
                    new PaperTable.Measured(right, it.size(), prompt, completion, calls, answers));
        }
    }

    /**
     * Adds {@code paper_figures} to the run's {@code summary.json}: per row of this benchmark, our method, our figure and
     * the paper's (with the model and whether it is the model run), so that reports can mark the paper's figures.
     */
    private static void paperFigures(Planned p, PaperTable table) {
        String column = table.columns().stream().filter(c -> c.replace("†", "").equals(p.run().benchmark().column())).findFirst().orElse(null);
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("recipe", table.recipe());
        o.put("column", p.run().benchmark().column());
        if (p.run().standIn() != null) o.put("stand_in", p.run().standIn());
        o.put("paper_model", table.paperModel());
        o.put("paper_is_model_run", table.paperIsModelRun());
        o.put("label", table.paperLabel());
        ArrayNode rows = o.putArray("rows");
        for (Recipe.MethodRow row : p.run().rows()) {
            PaperTable.Cell cell = table.cells().stream().filter(c -> c.row().equals(row.row()) && c.column().equals(column)).findFirst().orElse(null);
            ObjectNode n = rows.addObject();
            n.put("row", row.row());
            n.put("method", row.method());
            if (p.run().sweep() != null && row.settings().containsKey("gam.max_rounds")) n.set("max_rounds", row.settings().get("gam.max_rounds"));
            if (cell != null && cell.ours() != null) n.put("ours", cell.ours());
            if (cell != null && cell.paper() != null) n.put("paper", cell.paper());
        }
        try {
            dev.gamagent.eval.data.SummaryData.addTo(p.dir().resolve("summary.json"), "paper_figures", o);
            dev.gamagent.eval.HtmlReport.markPaperFigures(p.dir().resolve("report.html"), o);
        } catch (RuntimeException e) {
            System.err.println("warning: could not add the paper's figures to " + p.dir().resolve("summary.json") + " and report.html: "
                    + e.getMessage());
        }
    }

    private static ObjectNode actual(Planned p, CostEstimate.MethodEstimate e, List<ResultRecord> records) {
        long calls = 0, prompt = 0, completion = 0, millis = 0;
        int answers = 0;
        for (ResultRecord x : records) {
            if (!x.method().equals(e.method()) || x.isError()) continue;
            calls += x.calls();
            prompt += x.promptTokens();
            completion += x.completionTokens();
            millis += x.millis();
            answers++;
        }
        // the range is for the questions of the plan; scale it to the questions answered
        double f = e.questions() == 0 ? 0 : (double) answers / e.questions();
        ObjectNode a = Json.MAPPER.createObjectNode();
        a.put("benchmark", p.run().benchmark().column());
        a.put("data", p.run().data());
        a.put("method", e.method());
        a.put("answers", answers);
        a.put("plannedQuestions", e.questions());
        range(a, "calls", calls, e.calls().low() * f, e.calls().high() * f);
        range(a, "promptTokens", prompt, e.promptTokens().low() * f, e.promptTokens().high() * f);
        range(a, "completionTokens", completion, e.completionTokens().low() * f, e.completionTokens().high() * f);
        a.put("seconds", millis / 1000.0);
        return a;
    }

    private static void range(ObjectNode a, String key, long value, double low, double high) {
        ObjectNode n = a.putObject(key);
        n.put("actual", value);
        n.put("estimateLow", Math.floor(low));
        n.put("estimateHigh", Math.ceil(high));
        n.put("inside", value >= Math.floor(low) && value <= Math.ceil(high));
    }

    private static String inside(JsonNode a, String key) {
        JsonNode n = a.get(key);
        return String.format(Locale.ROOT, "%,d (estimate %s–%s%s)", n.get("actual").asLong(), human(n.get("estimateLow").asDouble()),
                human(n.get("estimateHigh").asDouble()), n.get("inside").asBoolean() ? ", inside" : ", OUTSIDE");
    }

    private void printEstimate(List<Planned> plan, PriceTable.Price price, int inFlight, BackendSpec spec) {
        double callsLo = 0, callsHi = 0, promptLo = 0, promptHi = 0, complLo = 0, complHi = 0, dollarsLo = 0, dollarsHi = 0;
        double pCalls = 0, pPrompt = 0, pCompl = 0, pSeconds = 0, pDollars = 0;
        boolean piloted = false;
        for (Planned p : plan) {
            System.out.println("  " + p.run().benchmark().column() + " = " + p.run().data() + " (" + p.file().getFileName() + "): "
                    + p.sizes().size() + " questions" + (p.run().standIn() != null ? "; " + p.run().standIn() : "")
                    + (p.run().sweep() != null ? "; one full-length run, every K_max re-decided by gam sweep at no cost" : ""));
            System.out.printf(Locale.ROOT, "    %-16s %-9s %-24s %-24s %-24s%n", "method", "calls/q", "calls", "prompt tokens", "completion tokens");
            for (CostEstimate.MethodEstimate e : p.estimates()) {
                System.out.printf(Locale.ROOT, "    %-16s %-9s %-24s %-24s %-24s%n", e.method(), e.callsPerQuestion(), range(e.calls()),
                        range(e.promptTokens()), range(e.completionTokens()));
                callsLo += e.calls().low(); callsHi += e.calls().high();
                promptLo += e.promptTokens().low(); promptHi += e.promptTokens().high();
                complLo += e.completionTokens().low(); complHi += e.completionTokens().high();
                if (e.dollars() != null) { dollarsLo += e.dollars().low(); dollarsHi += e.dollars().high(); }
                if (e.pilot() != null) {
                    CostEstimate.Pilot q = e.pilot();
                    piloted = true;
                    System.out.printf(Locale.ROOT, "    %-16s from %d answers: calls %s, prompt tokens %s (95 %%: %s), completion tokens %s, %.2f s per question%n",
                            "", q.n(), human(q.calls()), human(q.promptTokens()), range(q.promptInterval()), human(q.completionTokens()), q.secondsPerQuestion());
                    pCalls += q.calls(); pPrompt += q.promptTokens(); pCompl += q.completionTokens();
                    pSeconds += q.secondsPerQuestion() * e.questions();
                    if (q.dollars() != null) pDollars += q.dollars();
                }
            }
        }
        System.out.printf(Locale.ROOT, "  total: calls %s, prompt tokens %s, completion tokens %s%n", human(callsLo) + "–" + human(callsHi),
                human(promptLo) + "–" + human(promptHi), human(complLo) + "–" + human(complHi));
        String model = modelRun(spec);
        if (price != null) System.out.printf(Locale.ROOT, "  dollars at %s's price (eval.prices): $%.2f–$%.2f%n", model, dollarsLo, dollarsHi);
        else System.out.println("  dollars: no price for " + model + " in eval.prices (a self-hosted model costs its server's time)");
        if (piloted) {
            System.out.printf(Locale.ROOT, "  from the pilot: calls %s, prompt tokens %s, completion tokens %s%s; time ≈ %s at %d questions in flight "
                            + "(the pilot's wall time per question; a busier server is slower)%n", human(pCalls), human(pPrompt), human(pCompl),
                    price != null ? String.format(Locale.ROOT, ", $%.2f", pDollars) : "", duration(pSeconds / Math.max(1, inFlight)), inFlight);
        } else {
            System.out.println("  time: depends on the server's speed; --pilot N measures it (at " + inFlight + " questions in flight)");
        }
    }

    private static String range(CostEstimate.Range r) { return human(r.low()) + "–" + human(r.high()); }

    private static String human(double v) {
        if (v >= 1e9) return String.format(Locale.ROOT, "%.2fG", v / 1e9);
        if (v >= 1e6) return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        if (v >= 1e4) return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String duration(double seconds) {
        if (seconds < 120) return String.format(Locale.ROOT, "%.0f s", seconds);
        if (seconds < 7200) return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    private ObjectNode planJson(Recipe r, List<Planned> plan, String modelRun) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("recipe", r.id());
        o.put("model", modelRun);
        o.put("limit", limit);
        ArrayNode runs = o.putArray("runs");
        for (Planned p : plan) {
            ObjectNode n = runs.addObject();
            n.put("benchmark", p.run().benchmark().column());
            n.put("data", p.run().data());
            if (p.run().standIn() != null) n.put("standIn", p.run().standIn());
            n.put("dir", p.dir().toString());
            n.put("questions", p.sizes().size());
            n.set("methods", Json.MAPPER.valueToTree(p.estimates()));
        }
        return o;
    }

    private static void writeJson(Path file, JsonNode n) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, Json.writePretty(n));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String modelRun(BackendSpec spec) {
        if (spec.kind().equals("local")) return "the built-in model (gam-perception)";
        return spec.kind() + ":" + (spec.model() == null ? "(the server's own)" : spec.model());
    }

    /** Why the model run is not a paper's model whatever its name: the built-in model, or the model-server simulator. */
    private static String notPaperModel(BackendSpec spec) {
        if (spec.kind().equals("local") || "gam-perception".equals(spec.model())) return "the built-in model";
        for (String base : spec.baseUrls()) if (isSimulator(base)) return "gam bench serve-sim, the model-server simulator at " + base;
        return null;
    }

    /** Whether the server at {@code base} says it is {@code gam bench serve-sim} ({@code owned_by} in its model list). */
    static boolean isSimulator(String base) {
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
            String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(b + "/models")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return res.statusCode() == 200 && res.body().contains("\"owned_by\":\"gam-bench-serve-sim\"");
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ---- describing recipes -----------------------------------------------------------------------------------------

    private static void list(RecipeCatalogue c) {
        Config defaults = Config.defaults();
        for (Recipe r : c.recipes()) {
            System.out.println(r.id() + ": " + shortPaper(r.paper()) + ", " + r.table());
            System.out.println("  " + r.title());
            System.out.println("  benchmarks: " + String.join(", ", r.benchmarks().stream().filter(b -> b.aggregate() == null)
                    .map(b -> b.column() + (b.data() == null ? " (not runnable yet)" : " = " + b.data())).toList()));
            System.out.printf(Locale.ROOT, "  published figures in our text: %d of %d cells%n", r.figures().size(), r.cells());
            List<String> calls = new ArrayList<>();
            for (Recipe.MethodRow m : r.methods()) {
                if (m.method() == null) { calls.add(m.row() + " (no method: empty row)"); continue; }
                Config cfg = withSettings(defaults, m.settings());
                calls.add(m.row() + " " + ProtocolCalls.of(m.method(), cfg));
            }
            if (r.run() != null) {
                calls.clear();
                calls.add("one " + r.run().method() + " run with " + r.run().settings().keySet() + ": "
                        + ProtocolCalls.of(r.run().method(), withSettings(defaults, r.run().settings())) + ", re-decided by gam sweep at no cost");
            }
            System.out.println("  calls per question (methods' protocols): " + String.join("; ", calls));
        }
        System.out.println("Calls are ranges from each protocol (no debate … every round), assuming the backend gives log-probs. "
                + "'gam reproduce RECIPE --dry-run --out DIR' adds tokens, dollars and the questions of your copy of each benchmark; "
                + "'gam reproduce --show RECIPE' prints the figures and the commands.");
    }

    private void show(Recipe r) {
        String root = out == null ? "runs" : out.toString();
        System.out.println(r.id() + ": " + r.paper());
        System.out.println(r.table() + " — " + r.title() + (r.unit() != null ? " (" + r.unit() + ")" : ""));
        List<String> columns = r.columns().isEmpty() ? r.benchmarks().stream().map(Recipe.Benchmark::column).toList() : r.columns();
        for (Recipe.Model model : r.models()) {
            Map<String, Map<String, String>> cells = new LinkedHashMap<>();
            for (Recipe.Figure f : r.figures()) {
                if (f.model().equals(model.name())) cells.computeIfAbsent(f.row(), k -> new LinkedHashMap<>()).put(f.column(), f.value() + (f.derived() != null ? "*" : ""));
            }
            System.out.println();
            System.out.println(model.name() + (model.aliases().isEmpty() ? "" : " (also: " + String.join(", ", model.aliases()) + ")"));
            int w = Math.max(12, r.methods().stream().mapToInt(m -> m.row().length()).max().orElse(12));
            StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "  %-" + w + "s", "row"));
            for (String col : columns) h.append(String.format(Locale.ROOT, " %10s", abbreviate(col)));
            System.out.println(h);
            for (Recipe.MethodRow m : r.methods()) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-" + w + "s", m.row()));
                for (String col : columns) line.append(String.format(Locale.ROOT, " %10s", cells.getOrDefault(m.row(), Map.of()).getOrDefault(col, "·")));
                System.out.println(line);
            }
        }
        System.out.println();
        System.out.println("· = not in the text we hold; * = derived, not printed (see the recipe). Missing: " + r.missing());
        System.out.println();
        System.out.println("Rows:");
        for (Recipe.MethodRow m : r.methods()) {
            System.out.println("  " + m.row() + ": " + (m.method() == null ? "no method (" + m.note() + ")" : m.method()
                    + (m.paperSettings() != null ? "; paper: " + m.paperSettings() : "")));
        }
        System.out.println();
        System.out.println("Run it all: gam reproduce " + r.id() + " --out " + root + "/" + r.id() + " [backend flags] (add --dry-run for the plan and its cost)");
        System.out.println("or step by step (add your backend flags, e.g. --backend openai --base-url http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-VL-7B-Instruct):");
        for (RecipePlan.Step s : RecipePlan.steps(r, DatasetCatalogue.builtIn(), Config.defaults(), root)) {
            if (s.command() != null) System.out.println("  " + s.command());
            if (s.note() != null) System.out.println("    # " + s.note());
        }
    }

    private static Config withSettings(Config base, Map<String, JsonNode> settings) {
        Config c = base;
        for (var e : settings.entrySet()) c = c.with(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
        return c;
    }

    private static String shortPaper(String paper) { return paper.contains(":") ? paper.substring(0, paper.indexOf(':')) : paper; }

    private static String abbreviate(String s) { return s.length() <= 10 ? s : s.substring(0, 10); }
}
