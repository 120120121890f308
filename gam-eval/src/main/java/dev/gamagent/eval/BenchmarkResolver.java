package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.BenchmarkScore;
import dev.gamagent.eval.data.Checksums;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.data.Submission;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.MvBenchGrading;
import dev.gamagent.eval.grade.PaperGrading;
import dev.gamagent.eval.grade.VlmEvalKitLetters;
import dev.gamagent.eval.grade.VlmEvalKitVqa;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.load.mvbench.MvBenchDataset;
import dev.gamagent.eval.load.mvbench.MvBenchLayout;
import dev.gamagent.eval.load.mvbench.MvBenchVariant;
import dev.gamagent.eval.store.ResultRecord;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A run's benchmark before and after the run: a file or a benchmark's name resolved to its file (found, downloaded, or an
 * MVBench snapshot), its grading rule (the one place it is read), and what summary.json says of it afterwards: the file's
 * provenance, the submission files of a split without public answers, and the benchmark's own score (MME's).
 */
final class BenchmarkResolver {
    private BenchmarkResolver() { }

    /** The file {@code data} names, checked; a file the catalogue does not know is passed on as it is. */
    static DataFiles.DataFile resolve(String data, Supplier<DataFiles> files, PrintStream err) {
        DataFiles f = files.get();
        String dataset = videoDataset(data);
        if (dataset != null && !Files.exists(Path.of(data))) {
            // MVBench is a snapshot of its repository (a directory), read where VLMEvalKit's download leaves it
            MvBenchVariant v = MvBenchVariant.of(dataset).orElseThrow();
            Path root = MvBenchLayout.locate(v, f.dir().path(), MvBenchLayout.defaultHubCaches());
            err.println("data: " + v.datasetName() + ": the snapshot of " + MvBenchVariant.REPOSITORY + " (" + v.branch() + " branch) at " + root);
            // the catalogue's entry: the summary records the name, the snapshot's place and that it has no md5 ('snapshot')
            return new DataFiles.DataFile(f.catalogue().find(v.datasetName()), root, new Checksums.Sums(0, null, null, null, null, false),
                    DataFiles.Check.SNAPSHOT, false, "found in " + root.getParent());
        }
        DataFiles.DataFile file = f.resolve(data);
        DatasetEntry e = file.entry();
        if (e != null && !e.answers()) {
            err.println("note: " + e.name() + " has no public answers: the answers are kept as 'ungraded' (never counted as wrong) and "
                    + "written to the official submission file"
                    + (e.submitTo() != null ? ", to be graded at " + e.submitTo() : "")
                    + (e.standIn() != null ? "; for figures here, evaluate its dev split (--data " + e.standIn() + ")" : ""));
        }
        if (e != null) {
            err.println((file.check().warns() ? "warning: " : "data: ") + file.describe());
            if (e.note() != null) err.println("note: " + e.name() + ": " + e.note());
        }
        return file;
    }

    /** VLMEvalKit's MVBench name {@code data} is (any case), or null: which variant a snapshot is read as. */
    static String videoDataset(String data) {
        return MvBenchDataset.isName(data) ? MvBenchVariant.of(data).orElseThrow().datasetName() : null;
    }

    /**
     * The configuration with the run's grading rules, read here and nowhere else: {@code --grading} (how multiple-choice
     * answers are read), the catalogue's rule for open answers (yes/no for MME, MathVista's and MathVision's), and MVBench's own
     * multiple-choice rule ({@link MvBenchGrading}) for MVBench.
     */
    static Config grading(DataFiles.DataFile file, Dataset ds, Config config, String gradingFlag) {
        if (gradingFlag != null) config = config.with(GradingMode.CONFIG_KEY, GradingMode.of(gradingFlag).label());
        DatasetEntry e = file == null ? null : file.entry();
        if (e != null) {
            switch (e.grading()) {
                case "yes-no" -> config = config.with(Grader.OPEN_ANSWERS_KEY, "yes-no");
                case "mathvista" -> config = config.with(Grader.OPEN_ANSWERS_KEY, "mathvista");
                default -> {
                    if (VlmEvalKitVqa.RULES.contains(e.grading()) || VlmEvalKitLetters.RULES.contains(e.grading())) {
                        config = config.with(Grader.OPEN_ANSWERS_KEY, e.grading());
                    } else {
                        // MathVision's catalogue grading is 'open'; VLMEvalKit grades it with its own rule and judge prompt
                        String rule = PaperGrading.openRuleFor(e);
                        if (rule != null) config = config.with(Grader.OPEN_ANSWERS_KEY, rule);
                    }
                }
            }
        }
        return MvBenchDataset.isName(ds.name()) ? config.with(Grader.CHOICE_RULE_KEY, MvBenchGrading.RULE) : config;
    }

    /** What summary.json adds about the benchmark, and the lines to print about it. */
    record Additions(Map<String, JsonNode> fields, List<String> notes) { }

    /**
     * The file's provenance ({@code data_file}); for answers kept ungraded (a test split without public answers) the
     * official submission file per method, written now, and {@code no_public_answers}; the benchmark's own score
     * ({@code benchmark_score}, MME's). A part that cannot be made is warned about on {@code err}: the run's own outcome
     * is never lost to it.
     */
    static Additions additions(DataFiles.DataFile file, Path out, List<ResultRecord> records, PrintStream err) {
        return additions(file, null, RowFilter.ALL, null, out, records, err);
    }

    /**
     * As above, with what the provenance of the run's figures needs besides the file: how many of the file's rows
     * ({@code ds}) the run took under {@code filter} ({@code rows_in_file}, {@code rows_run}, {@code limit}, {@code category} in
     * {@code data_file}), the catalogue's grading of the benchmark ({@code data_file.grading}), the judge ({@code judge}, null:
     * none) and how many answers each grading rule decided ({@code grading_rules}).
     */
    static Additions additions(DataFiles.DataFile file, Dataset ds, RowFilter filter, String judge, Path out, List<ResultRecord> records,
                               PrintStream err) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        try {
            ObjectNode df = file.provenance(DatasetCatalogue.builtIn());
            if (file.entry() != null) df.put("grading", file.entry().grading());
            if (ds != null) {
                if (ds.rows() != null) df.put("rows_in_file", ds.rows());
                df.put("rows_run", ds.questions().size());
            }
            df.put("limit", filter.limit());
            if (filter.category() != null) df.put("category", filter.category());
            fields.put("data_file", df);
        } catch (RuntimeException e) {
            err.println("warning: could not record the data file's provenance: " + e.getMessage());
        }
        fields.put("judge", judge == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance()
                : com.fasterxml.jackson.databind.node.TextNode.valueOf(judge));
        Map<String, Integer> rules = new java.util.TreeMap<>();
        for (ResultRecord r : records) if (r.grade().rule() != null && !r.isError()) rules.merge(r.grade().rule(), 1, Integer::sum);
        fields.put("grading_rules", dev.gamagent.util.Json.MAPPER.valueToTree(rules));
        submission(file, out, records, fields, notes, err);
        if (BenchmarkScore.appliesTo(file.entry())) score(file, records, fields, notes, err);
        ObjectNode mean = BenchmarkScore.meanScore(file.entry() != null ? file.entry().name() : stem(file.path()), records);
        if (mean != null) {
            fields.put("benchmark_score", mean);
            mean.get("methods").fields().forEachRemaining(m -> notes.add(String.format(Locale.ROOT, "%s (VLMEvalKit's mean score, %s) %s: %.2f",
                    mean.get("name").asText(), mean.get("rule").asText(), m.getKey(), m.getValue().get("score").asDouble())));
        }
        return new Additions(fields, notes);
    }

    private static void submission(DataFiles.DataFile file, Path out, List<ResultRecord> records, Map<String, JsonNode> fields,
                                   List<String> notes, PrintStream err) {
        long ungraded = records.stream().filter(ResultRecord::ungraded).count();
        if (ungraded == 0) return;
        DatasetEntry e = file.entry();
        String name = e != null ? e.name() : stem(file.path());
        String submitTo = e != null ? e.submitTo() : null;
        try {
            List<Submission.Written> written = Submission.write(file.path(), name, records, out);
            fields.put("no_public_answers", Submission.summary(name, submitTo, written, ungraded));
            notes.add(name + ": no public answers: " + ungraded + " answers kept as 'ungraded' (not counted right or wrong; "
                    + "the accuracy above leaves them out)");
            for (var w : written) {
                notes.add("submission file (" + w.method() + "): " + w.file() + " (" + w.answered() + " of " + w.rows() + " rows answered"
                        + (w.answered() < w.rows() ? "; the server grades the whole split: run without --limit before submitting" : "") + ")");
            }
            notes.add(submitTo != null ? "submit it at " + submitTo + " for the official figures"
                    : "submit it to the benchmark's evaluation server for the official figures");
        } catch (IOException ex) {
            err.println("warning: cannot write the submission file from " + file.path() + ": " + ex.getMessage());
        }
    }

    private static void score(DataFiles.DataFile file, List<ResultRecord> records, Map<String, JsonNode> fields, List<String> notes,
                              PrintStream err) {
        try {
            ObjectNode score = BenchmarkScore.mme(file.path(), records);
            if (score == null) return;
            fields.put("benchmark_score", score);
            score.get("methods").fields().forEachRemaining(m -> {
                JsonNode s = m.getValue().get("scores");
                long categories = java.util.stream.StreamSupport.stream(((Iterable<String>) s::fieldNames).spliterator(), false)
                        .filter(k -> !k.equals("perception") && !k.equals("reasoning")).count();
                List<String> parts = new ArrayList<>();
                if (!m.getValue().get("complete").asBoolean()) {
                    parts.add(m.getValue().get("graded_rows").asInt() + " of " + score.get("rows_in_file").asInt() + " rows graded");
                }
                if (!s.has("perception") || !s.has("reasoning")) parts.add("the file holds " + categories + " of its 14 categories; "
                        + "a sum needs all of its categories");
                notes.add(String.format(Locale.ROOT, "%s (VLMEvalKit's MME_rating) %s: perception %s, reasoning %s%s", score.get("name").asText(), m.getKey(),
                        s.has("perception") ? String.format(Locale.ROOT, "%.2f", s.get("perception").asDouble()) : "-",
                        s.has("reasoning") ? String.format(Locale.ROOT, "%.2f", s.get("reasoning").asDouble()) : "-",
                        parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")"));
            });
        } catch (IOException e) {
            err.println("warning: cannot compute the MME score from " + file.path() + ": " + e.getMessage());
        }
    }

    private static String stem(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }
}
