package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.format.PandasTable;
import dev.gamagent.eval.grade.Grade;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.grade.PredictionFile;
import dev.gamagent.eval.grade.VlmEvalKitGrading;
import dev.gamagent.eval.grade.VlmEvalKitMatcher;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.gam.GamSettings;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gam grade}: re-grades a file of existing predictions without calling any model. A VLMEvalKit
 * prediction file is graded as VLMEvalKit grades it ({@link VlmEvalKitGrading}); when the file or its
 * neighbours record VLMEvalKit's own verdicts ({@code hit}, a {@code *_result} file) or accuracies
 * ({@code *_acc.csv}), those are compared figure by figure, and unless a mode is given the VLMEvalKit
 * rule set that reproduces them is chosen (the rules changed in 2025 and 2026). Our own
 * {@code results.jsonl} is re-graded record by record from the question each trace holds.
 */
public final class FileGrading {
    private static final List<VlmEvalKitMatcher.Rules> NEWEST_FIRST =
            List.of(VlmEvalKitMatcher.Rules.V2026, VlmEvalKitMatcher.Rules.V2025, VlmEvalKitMatcher.Rules.V2024);
    /** VLMEvalKit names a result file {@code <stem>_<judge>_result.<ext>}: openai, gpt4, exact_matching, or a judge model's name. */
    private static final java.util.regex.Pattern RESULT_SUFFIX = java.util.regex.Pattern.compile("_(exact_matching|[A-Za-z0-9.\\-]+)_result$");

    private FileGrading() { }

    /**
     * @param mode      null to choose the VLMEvalKit rule set that reproduces the recorded figures (the latest without any)
     * @param dataset   VLMEvalKit's dataset name; null to take it from the file name
     * @param circular  null for VLMEvalKit's rule (MMBench and CCBench are circular)
     * @param recorded  a file holding VLMEvalKit's verdicts ({@code index}, {@code hit}); null to look beside the file
     * @param recordedAcc VLMEvalKit's {@code _acc.csv}; null to look beside the file
     */
    public record Options(GradingMode mode, String dataset, Boolean circular, Path recorded, Path recordedAcc) { }

    /** How well one rule set reproduced the recorded figures and match logs (-1: nothing recorded to compare). */
    public record Fit(GradingMode mode, int verdictsDiffering, int accCellsDiffering, int logsDiffering) { }

    /**
     * A graded VLMEvalKit file: the verdicts, how the mode was chosen, the comparisons with what
     * VLMEvalKit recorded, and our summary of it.
     *
     * @param accCells      value cells in the recorded {@code _acc.csv} (0 when none was found)
     * @param accCellsEqual of those, how many equal ours to the last digit
     */
    public record Graded(Path file, VlmEvalKitGrading.Result result, String choice, List<Fit> fits, Path verdictSource,
                         Path accSource, int accCells, int accCellsEqual, List<String> accDifferences, RunSummary summary) { }

    /** The dataset name VLMEvalKit had: the file's stem without VLMEvalKit's "_<judge>_result" suffix. */
    public static String datasetOf(Path file) {
        String stem = stem(file);
        java.util.regex.Matcher m = RESULT_SUFFIX.matcher(stem);
        return m.find() ? stem.substring(0, m.start()) : stem;
    }

    private static String stem(Path file) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** True for the {@code results.jsonl} that {@code gam eval} writes (records with questionId, method, outcome). */
    public static boolean isGamResults(Path file) {
        if (!file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jsonl")) return false;
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            String first = lines.filter(l -> !l.isBlank()).findFirst().orElse("");
            JsonNode n = Json.MAPPER.readTree(first.isEmpty() ? "{}" : first);
            return n.has("questionId") && n.has("method") && n.has("outcome");
        } catch (IOException e) {
            return false;
        }
    }

    public static Graded gradeVlmEvalKit(Path file, Options o) {
        PredictionFile pf = PredictionFile.read(file);
        String dataset = o.dataset() != null ? o.dataset() : datasetOf(file);
        boolean circular = o.circular() != null ? o.circular() : VlmEvalKitGrading.circularFor(dataset);
        Path verdicts = o.recorded() != null ? o.recorded() : pf.has("hit") ? null : sibling(file);
        Map<String, VlmEvalKitGrading.Recorded> recorded = verdicts == null ? null : recordedVerdicts(verdicts);
        Path acc = o.recordedAcc() != null ? o.recordedAcc() : accSibling(file);
        List<List<String>> recordedAcc = acc == null ? null : PandasTable.parse(PredictionFile.text(acc), ',');

        List<Fit> fits = new ArrayList<>();
        VlmEvalKitGrading.Result chosen;
        String choice;
        if (o.mode() != null) {
            chosen = compare(VlmEvalKitGrading.grade(pf, o.mode(), dataset, circular), recorded);
            choice = "given";
        } else {
            boolean evidence = recorded != null || pf.has("hit") || recordedAcc != null;
            VlmEvalKitGrading.Result best = null;
            int[] bestScore = null;
            for (VlmEvalKitMatcher.Rules r : NEWEST_FIRST) {
                VlmEvalKitGrading.Result res = compare(VlmEvalKitGrading.grade(pf, GradingMode.vlmEvalKit(r), dataset, circular), recorded);
                boolean logs = res.questions().stream().anyMatch(q -> q.recorded() != null && q.recorded().log() != null);
                Fit fit = new Fit(res.mode(), res.hasRecordedVerdicts() ? res.disagreements().size() : -1,
                        recordedAcc == null ? -1 : accDifferences(res.acc(), recordedAcc).size(), logs ? res.logDisagreements().size() : -1);
                fits.add(fit);
                int[] score = {Math.max(0, fit.verdictsDiffering()), Math.max(0, fit.accCellsDiffering()), Math.max(0, fit.logsDiffering())};
                // fewest differing verdicts, then figures, then match logs (which say what was read); the newer rule set on a tie
                if (best == null || java.util.Arrays.compare(score, bestScore) < 0) {
                    best = res;
                    bestScore = score;
                }
                if (!evidence) break;
            }
            chosen = best;
            choice = evidence ? "chosen: the rule set that best reproduces what VLMEvalKit recorded" : "default: VLMEvalKit's current rules (nothing recorded to compare with)";
        }
        List<String> diffs = recordedAcc == null ? List.of() : accDifferences(chosen.acc(), recordedAcc);
        int cells = recordedAcc == null ? 0 : valueCells(recordedAcc);
        Path verdictSource = pf.has("hit") ? file : verdicts;
        return new Graded(file, chosen, choice, fits, verdictSource, acc, cells, cells - diffs.size(), diffs,
                summary(file, pf, chosen, dataset));
    }

    private static VlmEvalKitGrading.Result compare(VlmEvalKitGrading.Result r, Map<String, VlmEvalKitGrading.Recorded> recorded) {
        return recorded == null ? r : r.withRecorded(recorded);
    }

    /** A VLMEvalKit result file beside {@code file}: {@code <stem>_<judge>_result.<ext>}. */
    private static Path sibling(Path file) {
        String stem = stem(file), ext = file.getFileName().toString().substring(stem.length());
        if (!datasetOf(file).equals(stem)) return null; // the file is itself a result file
        Path dir = file.toAbsolutePath().getParent();
        try (var files = Files.list(dir)) {
            // the first by name: exact_matching before a judge model's name, as VLMEvalKit has no preference
            return files.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(stem + "_") && n.endsWith("_result" + ext) && RESULT_SUFFIX.matcher(stem(p)).find()
                        && datasetOf(p).equals(stem);
            }).sorted().findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static Path accSibling(Path file) {
        Path p = file.resolveSibling(datasetOf(file) + "_acc.csv");
        return Files.isRegularFile(p) ? p : null;
    }

    /** index → VLMEvalKit's recorded hit and log, from any prediction-style file with a {@code hit} column. */
    static Map<String, VlmEvalKitGrading.Recorded> recordedVerdicts(Path file) {
        PredictionFile pf = PredictionFile.read(file);
        if (!pf.has("hit") || !pf.has("index")) {
            throw new IllegalArgumentException(file + ": recorded verdicts need 'index' and 'hit' columns (found " + pf.columns() + ")");
        }
        Map<String, VlmEvalKitGrading.Recorded> out = new LinkedHashMap<>();
        for (Map<String, String> r : pf.rows()) {
            String h = r.get("hit");
            Integer hit = h == null ? null : h.equals("1") || h.equals("1.0") || h.equals("True") ? 1 : 0;
            out.putIfAbsent(r.get("index"), new VlmEvalKitGrading.Recorded(hit, r.get("log")));
        }
        return out;
    }

    private static int valueCells(List<List<String>> csv) {
        int n = 0;
        for (int i = 1; i < csv.size(); i++) n += Math.max(0, csv.get(i).size() - 1);
        return n;
    }

    /** The recorded cells (split × column) whose printed value differs from ours, or that we do not have. */
    static List<String> accDifferences(VlmEvalKitGrading.AccTable ours, List<List<String>> recorded) {
        List<List<String>> mine = PandasTable.parse(ours.toCsv(), ',');
        Map<String, String> have = new LinkedHashMap<>();
        for (int r = 1; r < mine.size(); r++) {
            for (int c = 1; c < mine.get(r).size(); c++) have.put(mine.get(r).get(0) + " / " + mine.get(0).get(c), mine.get(r).get(c));
        }
        List<String> diffs = new ArrayList<>();
        List<String> header = recorded.isEmpty() ? List.of() : recorded.get(0);
        for (int r = 1; r < recorded.size(); r++) {
            List<String> row = recorded.get(r);
            for (int c = 1; c < row.size() && c < header.size(); c++) {
                String key = row.get(0) + " / " + header.get(c);
                String mineV = have.get(key);
                if (!row.get(c).equals(mineV)) diffs.add(key + ": recorded " + row.get(c) + ", ours " + (mineV == null ? "absent" : mineV));
            }
        }
        return diffs;
    }

    /** Our summary of a graded VLMEvalKit file: one "method" (the file), no confidences, tokens or times. */
    private static RunSummary summary(Path file, PredictionFile pf, VlmEvalKitGrading.Result res, String dataset) {
        List<ResultRecord> records = new ArrayList<>();
        String method = dataset;
        for (int i = 0; i < res.rows().size(); i++) {
            VlmEvalKitGrading.Row r = res.rows().get(i);
            Map<String, String> raw = pf.rows().get(i);
            String l2 = r.l2Category() != null ? r.l2Category() : raw.get("l2_category");
            String outcome = r.hit() ? Outcome.CORRECT.label()
                    : r.extracted() == null || "Z".equals(r.extracted()) ? Outcome.UNMATCHED.label() : Outcome.WRONG.label();
            records.add(ResultRecord.of(
                    new ResultRecord.QuestionRef(r.index(), r.group(), r.rotation(), orDash(r.category()), orDash(l2), r.answer()),
                    method, new ResultRecord.Graded(outcome, r.extracted(), r.prediction(), r.extracted(), 0, 1,
                            res.mode().label() + ":" + r.step(), null),
                    new ResultRecord.Cost(0, 0, false, 0, 0, null, null), new ResultRecord.TraceRef(0, null, null)));
        }
        Config c = Config.defaults();
        RunSummary s = RunSummary.compute(file.getFileName().toString(), List.of(method), res.circular(), res.questions().size(),
                List.of(), records, PriceTable.from(c), GamSettings.stopping(c).thetaU(), null);
        return s.withoutRunData();
    }

    private static String orDash(String s) { return s == null || s.isBlank() ? "-" : s; }

    /** Our results.jsonl re-graded: each record's question comes from its trace; records without one keep their grade. */
    public record Regraded(Path file, GradingMode mode, List<ResultRecord> records, int regraded, int kept, int changed,
                           RunSummary summary) { }

    public static Regraded gradeGamResults(Path file, GradingMode mode) {
        Map<String, ResultRecord> byKey = new LinkedHashMap<>();
        // line by line: the file is never held as one text beside its records
        try (java.io.BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int i = 0;
            for (String line; (line = in.readLine()) != null; i++) {
                if (i == 0 && line.startsWith("\uFEFF")) line = line.substring(1);
                if (line.isBlank()) continue;
                try {
                    ResultRecord r = Json.MAPPER.readValue(line, ResultRecord.class);
                    byKey.put(ResultStore.key(r.question().id(), r.method()), r); // a later line supersedes an earlier one
                } catch (IOException e) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a gam eval result record: "
                            + e.getMessage().lines().findFirst().orElse(""));
                }
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IllegalArgumentException(file + ": not UTF-8 text (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        Config config = Config.defaults().with(GradingMode.CONFIG_KEY, mode.label());
        Grader grader = new Grader(config, null);
        List<ResultRecord> out = new ArrayList<>();
        int regraded = 0, kept = 0, changed = 0;
        for (ResultRecord r : byKey.values()) {
            KeyedQuestion q = questionOf(r);
            if (r.isError() || q == null || (r.grade().rule() != null && r.grade().rule().endsWith("judge"))) {
                out.add(r);
                kept++;
                continue;
            }
            ResultRecord.Graded was = r.grade();
            Grade g = grader.grade(q, new Answer(was.answer(), was.option(), was.confidence(), was.uncertainty(), r.trace().rounds(),
                    Termination.fromLabel(r.trace().termination()).orElse(null), TokenCount.ZERO, r.cost().calls(), r.cost().millis(), null));
            regraded++;
            if (!g.outcome().label().equals(r.grade().outcome())) changed++;
            // as before the records were nested, a re-graded record keeps no per-backend count
            out.add(ResultRecord.of(r.question(), r.method(), was.regraded(g.outcome().label(), g.predicted(), g.rule()),
                    r.cost().withoutBackends(), r.trace()));
        }
        List<String> methods = out.stream().map(ResultRecord::method).distinct().toList();
        boolean circular = out.stream().anyMatch(r -> r.question().rotation() > 0);
        int questions = (int) out.stream().map(r -> r.question().group() == null ? r.question().id() : r.question().group()).distinct().count();
        RunSummary s = RunSummary.compute(file.toString(), methods, circular, questions, List.of(), out,
                PriceTable.from(config), GamSettings.stopping(config).thetaU(), null);
        return new Regraded(file, mode, out, regraded, kept, changed, s);
    }

    /** The question a record was asked, from its trace (options, ground truth); null without one. */
    private static KeyedQuestion questionOf(ResultRecord r) {
        JsonNode q = r.trace().json() == null ? null : r.trace().json().get("question");
        if (q == null || !q.isObject()) return null;
        Map<String, String> options = new LinkedHashMap<>();
        q.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        ResultRecord.QuestionRef asked = r.question();
        return new KeyedQuestion(new Question(asked.id(), List.of(), q.path("text").asText(""), q.hasNonNull("hint") ? q.get("hint").asText() : null,
                options), asked.groundTruth(), asked.category(), asked.l2Category());
    }
}
