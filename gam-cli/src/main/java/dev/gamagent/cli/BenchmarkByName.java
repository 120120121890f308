package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.BenchmarkScore;
import dev.gamagent.eval.data.Checksums;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.data.SummaryData;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.MvBenchGrading;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.mvbench.MvBenchDataset;
import dev.gamagent.eval.load.mvbench.MvBenchLayout;
import dev.gamagent.eval.load.mvbench.MvBenchVariant;
import dev.gamagent.eval.store.ResultStore;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code gam eval --data}: a file, or a benchmark's name resolved to its file (found or downloaded) before the loader sees it. */
final class BenchmarkByName {
    private BenchmarkByName() { }

    /** The file {@code data} names, checked; a file the catalogue does not know is passed on as it is. */
    static DataFiles.DataFile resolve(Path data, DataOptions options, Config config, PrintStream err) {
        DataFiles f = options.files(config, err);
        String dataset = videoDataset(data);
        if (dataset != null && !Files.exists(data)) {
            // MVBench is a snapshot of its repository (a directory), read where VLMEvalKit's download leaves it
            MvBenchVariant v = MvBenchVariant.of(dataset).orElseThrow();
            Path root = MvBenchLayout.locate(v, f.dir().path(), MvBenchLayout.defaultHubCaches());
            err.println("data: " + v.datasetName() + ": the snapshot of " + MvBenchVariant.REPOSITORY + " (" + v.branch() + " branch) at " + root);
            // the catalogue's entry: summary.json records the name, the snapshot's place and that it has no md5 ('snapshot')
            return new DataFiles.DataFile(f.catalogue().find(v.datasetName()), root, new Checksums.Sums(0, null, null, null, null, false),
                    DataFiles.Check.SNAPSHOT, false, "found in " + root.getParent());
        }
        DataFiles.DataFile file = f.resolve(data.toString());
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

    /**
     * For answers kept ungraded (a test split without public answers): the official submission file per method, where to
     * submit it, and {@code no_public_answers} in {@code summary.json}; printed, as the table shows no accuracy for them.
     */
    private static void submission(DataFiles.DataFile file, Path out, Path summary) {
        if (!Files.isRegularFile(summary)) return;
        List<dev.gamagent.eval.store.ResultRecord> records = ResultStore.read(out);
        long ungraded = records.stream().filter(dev.gamagent.eval.store.ResultRecord::ungraded).count();
        if (ungraded == 0) return;
        DatasetEntry e = file.entry();
        String name = e != null ? e.name() : stem(file.path());
        String submitTo = e != null ? e.submitTo() : null;
        try {
            List<dev.gamagent.eval.data.Submission.Written> written = dev.gamagent.eval.data.Submission.write(file.path(), name, records, out);
            SummaryData.addTo(summary, "no_public_answers", dev.gamagent.eval.data.Submission.summary(name, submitTo, written, ungraded));
            System.out.println(name + ": no public answers: " + ungraded + " answers kept as 'ungraded' (not counted right or wrong; "
                    + "the accuracy above leaves them out)");
            for (var w : written) {
                System.out.println("submission file (" + w.method() + "): " + w.file() + " (" + w.answered() + " of " + w.rows() + " rows answered"
                        + (w.answered() < w.rows() ? "; the server grades the whole split: run without --limit before submitting" : "") + ")");
            }
            System.out.println(submitTo != null ? "submit it at " + submitTo + " for the official figures"
                    : "submit it to the benchmark's evaluation server for the official figures");
        } catch (IOException ex) {
            System.err.println("warning: cannot write the submission file from " + file.path() + ": " + ex.getMessage());
        }
    }

    private static String stem(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** VLMEvalKit's MVBench name {@code data} is (any case), or null: which variant a snapshot is read as. */
    static String videoDataset(Path data) {
        String name = data.toString();
        return MvBenchDataset.isName(name) ? MvBenchVariant.of(name).orElseThrow().datasetName() : null;
    }

    /** The configuration with the loaded benchmark's own multiple-choice rule: MVBench's ({@link MvBenchGrading}) for MVBench. */
    static Config gradingOf(Dataset ds, Config config) {
        return MvBenchDataset.isName(ds.name()) ? config.with(Grader.CHOICE_RULE_KEY, MvBenchGrading.RULE) : config;
    }

    /** The configuration with the benchmark's VLMEvalKit rule for open answers (yes/no for MME, MathVista's prefetch), when it has one. */
    static Config grading(DataFiles.DataFile file, Config config) {
        DatasetEntry e = file.entry();
        if (e == null) return config;
        return switch (e.grading()) {
            case "yes-no" -> config.with(Grader.OPEN_ANSWERS_KEY, "yes-no");
            case "mathvista" -> config.with(Grader.OPEN_ANSWERS_KEY, "mathvista");
            default -> config;
        };
    }

    /**
     * Adds what is known about the file (md5, whether it is the official one) to {@code out/summary.json},
     * and the benchmark's own score (MME's) when it has one, which is also printed.
     */
    static void record(DataFiles.DataFile file, Path out) {
        try {
            addToSummary(file, out);
        } catch (RuntimeException e) {
            // never hide the run's own outcome (this runs in a finally block)
            System.err.println("warning: could not add the data file's record to " + out.resolve("summary.json") + ": " + e.getMessage());
        }
    }

    private static void addToSummary(DataFiles.DataFile file, Path out) {
        Path summary = out.resolve("summary.json");
        SummaryData.addTo(summary, "data_file", file.provenance(DatasetCatalogue.builtIn()));
        submission(file, out, summary);
        if (!BenchmarkScore.appliesTo(file.entry()) || !Files.isRegularFile(summary)) return;
        try {
            ObjectNode score = BenchmarkScore.mme(file.path(), ResultStore.read(out));
            if (score == null) return;
            SummaryData.addTo(summary, "benchmark_score", score);
            score.get("methods").fields().forEachRemaining(m -> {
                JsonNode s = m.getValue().get("scores");
                long categories = java.util.stream.StreamSupport.stream(((Iterable<String>) s::fieldNames).spliterator(), false)
                        .filter(k -> !k.equals("perception") && !k.equals("reasoning")).count();
                List<String> notes = new ArrayList<>();
                if (!m.getValue().get("complete").asBoolean()) {
                    notes.add(m.getValue().get("graded_rows").asInt() + " of " + score.get("rows_in_file").asInt() + " rows graded");
                }
                if (!s.has("perception") || !s.has("reasoning")) notes.add("the file holds " + categories + " of its 14 categories; "
                        + "a sum needs all of its categories");
                System.out.printf(Locale.ROOT, "%s (VLMEvalKit's MME_rating) %s: perception %s, reasoning %s%s%n", score.get("name").asText(), m.getKey(),
                        s.has("perception") ? String.format(Locale.ROOT, "%.2f", s.get("perception").asDouble()) : "-",
                        s.has("reasoning") ? String.format(Locale.ROOT, "%.2f", s.get("reasoning").asDouble()) : "-",
                        notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
            });
        } catch (IOException e) {
            System.err.println("warning: cannot compute the MME score from " + file.path() + ": " + e.getMessage());
        }
    }
}
