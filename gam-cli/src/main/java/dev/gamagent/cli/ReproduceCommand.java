package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.cli.ReproduceBill.Planned;
import dev.gamagent.config.Config;
import dev.gamagent.eval.EvalRequest;
import dev.gamagent.eval.Evaluation;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.grade.OpenAnswerMatcher;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.CircularExpansion;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.Images;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.recipe.CostEstimate;
import dev.gamagent.eval.recipe.ImportedScores;
import dev.gamagent.eval.recipe.PaperTable;
import dev.gamagent.eval.recipe.Recipe;
import dev.gamagent.eval.recipe.RecipeCatalogue;
import dev.gamagent.eval.recipe.RecipePlan;
import dev.gamagent.eval.recipe.MissingData;
import dev.gamagent.eval.recipe.ModelRun;
import dev.gamagent.eval.replay.RecordedRule;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.Provenance;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.gam.GamSettings;
import dev.gamagent.influence.StoppingRule;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * answers N questions per benchmark first and narrows the estimate from them; {@code --variant NAME} runs (or shows) another
 * reading of a passage the recipe names.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"The papers' tables as recipes: --list shows them with what each costs per question; --show RECIPE prints the published "
                + "figures, where each comes from, and the gam eval / gam sweep commands that run the grid.",
                "gam reproduce RECIPE --out DIR [backend flags] runs it: one resumable gam eval per benchmark in DIR/<benchmark>, then the paper's "
                        + "table with ours, the paper's figure for your --model, Δ and 95 %% intervals (DIR/paper-table.md, .json). "
                        + "--dry-run: the plan and its cost; --pilot N: run N questions per benchmark and narrow the estimate; "
                        + "--variant NAME: another reading of a passage, as the recipe names it (--show lists them)."})
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

    @Option(names = "--variant", paramLabel = "NAME", description = "run (or --show) the recipe as one of its variants: another reading of a "
            + "passage, named with the passage it reads (--show lists them); without it, the recipe's default reading")
    String variant;

    @Option(names = "--benchmarks", split = ",", description = "only these columns: the paper's names, the datasets', the stand-ins' "
            + "(MMBench_DEV_EN_V11), or a file (run in the column it is named for, else in a column of its own)")
    List<String> benchmarks = new ArrayList<>();

    @Option(names = "--methods", split = ",", description = "only these rows (the paper's row names, or our method names)")
    List<String> methods = new ArrayList<>();

    @Option(names = "--limit", defaultValue = "0", description = "only the first N questions of each benchmark (0 = all)")
    int limit;

    @Option(names = "--dry-run", description = "print the plan (questions, calls and tokens per method as ranges, dollars, time) and stop; "
            + "asks no server and downloads nothing, and lists every missing benchmark with the command or step that gets it")
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
            return run(c.require(recipe).withVariant(variant));
        }
        if (show != null) {
            RecipePages.show(c.require(show).withVariant(variant), out == null ? "runs" : out.toString());
            return 0;
        }
        if (out != null) throw new IllegalArgumentException("--out goes with a RECIPE to run or with --show");
        if (variant != null) throw new IllegalArgumentException("--variant goes with a RECIPE to run or with --show RECIPE");
        RecipePages.list(c);
        return 0;
    }

    // ---- running a recipe -------------------------------------------------------------------------------------------

    @picocli.CommandLine.ParentCommand
    CommandContext parent;

    private int run(Recipe given) {
        System.setProperty("java.awt.headless", "true");
        DatasetCatalogue catalogue = DatasetCatalogue.builtIn();
        // a file given to --benchmarks that stands for none of the recipe's columns gets a column of its own
        Recipe r = RecipePlan.withFiles(given, catalogue, benchmarks);
        List<RecipePlan.EvalRun> runs = RecipePlan.runs(r, catalogue, benchmarks, methods);
        Map<String, Map<String, ImportedScores>> imported = ScoreImports.of(r, importScores);
        List<String> notRunnable = r.benchmarks().stream().filter(b -> b.data() == null && b.aggregate() == null)
                .filter(b -> benchmarks.isEmpty() || benchmarks.stream().anyMatch(x -> x.equalsIgnoreCase(b.column())))
                .map(b -> b.column() + (b.note() != null ? " (" + b.note() + ")" : "")).toList();
        notRunnable.forEach(n -> System.err.println("note: " + r.id() + ": " + n + ": not runnable yet; its cells stay empty"));
        if (runs.isEmpty()) throw new IllegalArgumentException("nothing of recipe " + r.id() + " to run with these --benchmarks/--methods");
        BackendSpec spec = backendOptions.spec();
        String modelRun = ModelRun.label(spec);
        Recipe.Model matched = paperModel != null ? r.models().stream().filter(m -> m.name().equalsIgnoreCase(paperModel)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--paper-model " + paperModel + ": recipe " + r.id() + " reports "
                        + r.models().stream().map(Recipe.Model::name).toList())) : PaperTable.matchModel(r, spec.model());
        // who answers: what the server says it serves (a dry run asks nothing), then what each reply says it is
        ModelRun.Who[] who = {dryRun ? ModelRun.unasked(spec) : ModelRun.who(spec)};
        if (who[0].differs() != null) System.err.println("note: " + who[0].differs());
        String byHand = paperModel != null && PaperTable.matchModel(r, spec.model()) != matched
                ? "--paper-model " + paperModel + " chosen by hand for " + modelRun : null;
        String notPaper = ReproduceTables.notPaper(who[0], r, matched, byHand);
        EvalConcurrency load = EvalConcurrency.resolve(concurrency, backendOptions.maxConcurrent, Math.max(1, spec.baseUrls().size()),
                spec.kind().equals("local"), Runtime.getRuntime().availableProcessors());
        PriceTable prices = PriceTable.from(backendOptions.config());
        PriceTable.Price price = prices.priceFor(spec.kind() + ":" + (spec.model() == null ? "" : spec.model()));

        if (r.reading() != null) {
            Recipe.Variant v = r.reading();
            System.err.println("note: recipe " + r.id() + " read as variant " + v.name() + " (" + v.reads() + "): rows " + String.join(", ", v.rows())
                    + " run with " + v.setFlags() + "; recorded in plan.json and the paper's table");
        }
        // the command line's settings that replace the recipe's: said once here, recorded in plan.json and the paper's table
        List<RecipePlan.Override> overrides = RecipePlan.overrides(runs, backendOptions.overrides);
        overrides.forEach(o -> System.err.println("note: " + o.describe() + "; " + (o.rows().size() > 1 ? "their" : "its")
                + " Δ against the paper is withheld"));
        // every benchmark not in the data directory, found by looking only: a dry run lists them all with what gets each, and a
        // run stops before anything is asked when one cannot be downloaded
        List<MissingData> missing = MissingData.of(runs, dataOptions.files(backendOptions.config(), System.err), dataFlags());
        List<MissingData> unfetchable = missing.stream().filter(m -> !m.downloadable()).toList();
        if (!dryRun && !unfetchable.isEmpty()) {
            throw new IllegalArgumentException(unfetchable.size() + " benchmark" + (unfetchable.size() > 1 ? "s" : "") + " of " + r.id()
                    + " cannot be downloaded and " + (unfetchable.size() > 1 ? "are" : "is") + " not in the data directory: "
                    + String.join("; ", unfetchable.stream().map(MissingData::describe).toList()));
        }
        List<Planned> plan = new ArrayList<>();
        for (RecipePlan.EvalRun run : runs) {
            if (dryRun && missing.stream().anyMatch(m -> m.benchmark().equalsIgnoreCase(run.data()))) continue;
            plan.add(plan(run, price));
        }
        System.out.println("Plan: " + r.id() + (r.reading() == null ? "" : " as variant " + r.reading().name()) + " (" + r.table() + ") on " + modelRun + (limit > 0 ? ", first " + limit + " questions per benchmark" : ""));
        System.out.println("  images sized from their headers, one row at a time (nothing decoded; a video: its stream's size × the frames taken)");
        ReproduceBill.print(plan, price, load.questions(), ModelRun.label(spec));
        if (pilot != null) {
            List<Planned> narrowed = new ArrayList<>();
            for (Planned p : plan) {
                List<ResultRecord> records = eval(p, Math.min(pilot, limit > 0 ? limit : pilot), null);
                List<CostEstimate.MethodEstimate> es = new ArrayList<>();
                for (CostEstimate.MethodEstimate e : p.estimates()) {
                    es.add(CostEstimate.withPilot(e, p.sizes(), p.byId(), records.stream().filter(x -> x.method().equals(e.method())).toList(), price));
                }
                narrowed.add(new Planned(p.run(), p.config(), p.dir(), p.file(), p.sizes(), p.byId(), es));
            }
            System.out.println();
            System.out.println("Narrowed by the pilot (" + pilot + " questions per benchmark; the full run resumes from them):");
            ReproduceBill.print(narrowed, price, load.questions(), ModelRun.label(spec));
            writeJson(out.resolve("plan.json"), planJson(r, narrowed, modelRun, overrides));
            return 0;
        }
        ObjectNode planned = planJson(r, plan, modelRun, overrides);
        if (!missing.isEmpty()) planned.set("missing", Json.MAPPER.valueToTree(missing));
        writeJson(out.resolve("plan.json"), planned);
        if (dryRun) {
            if (!missing.isEmpty()) {
                System.out.println();
                System.out.println("Missing (" + missing.size() + " of " + runs.stream().map(RecipePlan.EvalRun::data).distinct().count()
                        + " benchmarks; not planned above):");
                for (MissingData m : missing) System.out.println("  " + m.describe());
            }
            System.out.println("wrote " + out.resolve("plan.json") + " (dry run: nothing was asked or downloaded"
                    + (missing.isEmpty() ? ")" : "; get the missing benchmarks as listed, then run it again)"));
            return missing.isEmpty() ? 0 : 1;
        }
        ScoreImports.checkCategories(imported, plan);

        Map<String, Map<String, PaperTable.Measured>> measured = new LinkedHashMap<>();
        Map<String, String> standIns = new LinkedHashMap<>();
        Map<String, Provenance> provenance = new LinkedHashMap<>();
        ArrayNode actuals = Json.MAPPER.createArrayNode();
        for (Planned p : plan) {
            System.err.println("== " + r.id() + " / " + p.run().benchmark().column() + ": gam eval --data " + p.run().data() + " --methods "
                    + String.join(",", p.run().methods()) + " --out " + p.dir());
            if (p.run().standIn() != null) standIns.put(p.run().benchmark().column(), p.run().standIn());
            // the paper's figures beside this run's go into its summary and report as they are written: the table so far
            // holds this benchmark's cells as the whole table will, and who answered as the replies say
            Ran result = evaluate(p, limit, ran -> {
                collect(p, ran, measured);
                List<String> before = who[0].servedModels();
                who[0] = who[0].withReplies(ran);
                for (String m : who[0].servedModels()) {
                    if (!before.contains(m) && who[0].differs() != null) System.err.println("note: the replies say they come from " + m + "; recorded");
                }
                return ReproduceTables.paperFigures(p, who[0], PaperTable.build(r, modelRun, matched, ReproduceTables.notPaper(who[0], r, matched, byHand), measured, standIns, imported,
                        overrides, ReproduceTables.sources(who[0], provenance)));
            });
            Provenance from = result.result().provenance();
            if (from != null) provenance.put(p.run().benchmark().column(), from.forColumn(p.run().benchmark().column(), p.run().standIn()));
            for (CostEstimate.MethodEstimate e : p.estimates()) actuals.add(ReproduceBill.actual(p, e, result.records()));
        }
        System.out.println();
        System.out.println("Actual cost against the estimate:");
        for (JsonNode a : actuals) {
            System.out.printf(Locale.ROOT, "  %-22s %-14s %5d answers  calls %s  prompt tokens %s  completion tokens %s%s%n",
                    a.get("benchmark").asText(), a.get("method").asText(), a.get("answers").asInt(),
                    ReproduceBill.inside(a, "calls"), ReproduceBill.inside(a, "promptTokens"), ReproduceBill.inside(a, "completionTokens"),
                    a.has("cachedPromptTokens") ? String.format(Locale.ROOT, "  (prompt tokens the server reported cached: %,d)",
                            a.get("cachedPromptTokens").asLong()) : "");
        }
        PaperTable table = PaperTable.build(r, modelRun, matched, ReproduceTables.notPaper(who[0], r, matched, byHand), measured, standIns,
                imported, overrides, ReproduceTables.sources(who[0], provenance));
        String md = table.markdown();
        System.out.println();
        System.out.print(md);
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("paper-table.md"), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out.resolve("paper-table.md") + ": " + e.getMessage(), e);
        }
        ObjectNode json = Json.MAPPER.valueToTree(table);
        json.set("actuals", actuals);
        writeJson(out.resolve("paper-table.json"), json);
        System.out.println("wrote " + out.resolve("paper-table.md") + ", " + out.resolve("paper-table.json") + ", and one gam eval run per benchmark under " + out);
        return 0;
    }

    private Planned plan(RecipePlan.EvalRun run, PriceTable.Price price) {
        Config config = config(run);
        Path file = dataOptions.files(config, System.err).resolve(run.data()).path();
        // a snapshot by name (MVBench_64frame) is read as that variant, as gam eval reads it
        Images reading = Images.defaults().withVideos(0,
                dev.gamagent.eval.load.mvbench.MvBenchDataset.isName(run.data()) ? run.data() : null);
        Dataset ds = BenchmarkLoader.load(file, new RowFilter(limit, null), reading);
        List<EvalQuestion> qs = ds.questions();
        if (CircularExpansion.defaultFor(file.getFileName().toString())) qs = CircularExpansion.expand(qs);
        String all = String.join(",", run.methods());
        Map<String, Long> images = new HashMap<>();
        List<CostEstimate.QuestionSize> sizes = new ArrayList<>();
        Map<String, CostEstimate.QuestionSize> byId = new HashMap<>();
        for (EvalQuestion q : qs) {
            String group = q.group() != null ? q.group() : q.id();
            // rotations share their images: size them once, from their headers (nothing decoded, one row's cell held at a time)
            dev.gamagent.api.Question text = q.shell().question().withImages(List.of());
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

    /** A run's settings as the recipe gives them, as {@code --set} values. */
    private static Map<String, String> settings(RecipePlan.EvalRun run) {
        Map<String, String> sets = new LinkedHashMap<>();
        run.settings().forEach((k, v) -> sets.put(k, v.isTextual() ? v.asText() : v.toString()));
        return sets;
    }

    /** The run's configuration: the recipe's settings, then the command line's own --set on top (RecipePlan.overrides said so once). */
    private Config config(RecipePlan.EvalRun run) { return backendOptions.configUnderSet(settings(run)); }

    /**
     * One benchmark's run through the one evaluation, printed as {@code gam eval} prints it; {@code figures} (or null) add the
     * paper's. Returns the run's records as the summary read them (the store is not read again for them).
     */
    private List<ResultRecord> eval(Planned p, int questions, EvalRequest.PaperFigures figures) { return evaluate(p, questions, figures).records(); }

    /** A benchmark's run: the evaluation's result (its provenance among it) and its records as the summary read them. */
    private record Ran(Evaluation.Result result, List<ResultRecord> records) { }

    /** As {@link #eval}, with the evaluation's result. */
    private Ran evaluate(Planned p, int questions, EvalRequest.PaperFigures figures) {
        List<ResultRecord> ran = new ArrayList<>();
        EvalRequest.PaperFigures kept = records -> {
            ran.addAll(records);
            return figures == null ? null : figures.of(records);
        };
        Config config = config(p.run());
        BackendSpec spec = backendOptions.spec(config);
        EvalConcurrency load = EvalConcurrency.resolve(concurrency, backendOptions.maxConcurrent, Math.max(1, spec.baseUrls().size()),
                spec.kind().equals("local"), Runtime.getRuntime().availableProcessors());
        load.warnings().forEach(w -> System.err.println("warning: " + w));
        String judge = null; // a recipe's runs have no judge
        EvalRequest req = new EvalRequest(EvalRequest.Data.named(p.run().data(), () -> dataOptions.files(config, System.err)),
                new RowFilter(questions, null), 0, null, null, p.run().methods(), p.dir(), load.questions(),
                EvalCommand.commandLine(p.run().data(), p.run().methods(), p.dir(), questions, null, 0, null, null, backendOptions,
                        backendOptions.settingsWith(settings(p.run())), judge),
                false, config, null, CommandContext.secretsOf(parent), kept);
        Evaluation.Result r = EvalCommand.evaluate(req, backendOptions, judge, load.perEndpoint(), backends);
        r.notes().forEach(System.out::println);
        System.out.print(SummaryTable.render(r.summary()));
        System.out.println("wrote " + String.join(", ", r.files().stream().map(Path::toString).toList()));
        return new Ran(r, ran);
    }

    /** The command line's data options, for the commands a dry run prints. */
    private String dataFlags() {
        StringBuilder sb = new StringBuilder();
        if (dataOptions.dataDir != null) sb.append(" --data-dir ").append(dataOptions.dataDir);
        if (dataOptions.mirror != null) sb.append(" --data-mirror ").append(dataOptions.mirror);
        return sb.toString();
    }

    /** What each row measured on this run's benchmark (rows of a sweep: each K_max re-decided from the one recorded run). */
    private void collect(Planned p, List<ResultRecord> records, Map<String, Map<String, PaperTable.Measured>> measured) {
        String column = p.run().benchmark().column();
        if (p.run().sweep() != null) {
            List<ResultRecord> mine = records.stream().filter(x -> x.method().equals(p.run().sweep().method())).toList();
            Config c = p.config();
            StoppingRule rule = RecordedRule.of(RecordedRule.config(mine), GamSettings.stopping(c));
            for (Recipe.MethodRow row : p.run().rows()) {
                int k = row.settings().containsKey("gam.max_rounds") ? row.settings().get("gam.max_rounds").asInt() : rule.maxRounds();
                double term = row.settings().containsKey("gam.theta_term") ? row.settings().get("gam.theta_term").asDouble() : rule.thetaTerm();
                Sweep.Result s = Sweep.run(mine, Sweep.grid(List.of(term), List.of(rule.thetaU()), List.of(rule.thetaC()),
                        List.of(rule.epsilon()), List.of(k)), new OpenAnswerMatcher(c.number("eval.numeric_tolerance"))).get(0);
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
            MethodUsage used = MethodUsage.of(row.method(), records);
            measured.computeIfAbsent(row.row(), x -> new LinkedHashMap<>()).put(column, new PaperTable.Measured(right, it.size(),
                    used.promptTokens(), used.completionTokens(), used.calls(), used.answers()));
        }
    }

    private ObjectNode planJson(Recipe r, List<Planned> plan, String modelRun, List<RecipePlan.Override> overrides) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("recipe", r.id());
        o.put("model", modelRun);
        o.put("limit", limit);
        if (r.reading() != null) o.set("variant", Json.MAPPER.valueToTree(r.reading()));
        if (!overrides.isEmpty()) o.set("overrides", Json.MAPPER.valueToTree(overrides));
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

}
