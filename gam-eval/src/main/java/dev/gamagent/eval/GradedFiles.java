package dev.gamagent.eval;

import dev.gamagent.eval.format.PandasQuoting;
import dev.gamagent.eval.grade.VlmEvalKitGrading;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code gam grade} writes to its directory, each file once and whole (written beside, then moved in): for a
 * VLMEvalKit prediction file the verdicts ({@code verdicts.tsv}), VLMEvalKit's accuracy table ({@code acc.csv}), the
 * summary and the report; for our own results.jsonl re-graded, the re-graded records, the summary and the report.
 */
public final class GradedFiles {
    private GradedFiles() { }

    /** Writes a graded VLMEvalKit file's outputs to {@code dir}; returns the files written. */
    public static List<Path> write(Path dir, FileGrading.Graded g) {
        try {
            Files.createDirectories(dir);
            VlmEvalKitGrading.Result r = g.result();
            StringBuilder sb = new StringBuilder("index\tgroup\trotation\tsplit\tcategory\tl2-category\tanswer\tprediction\tread\trule\thit\tquestion_hit\trecorded_hit\n");
            Map<String, VlmEvalKitGrading.Question> byIndex = new java.util.HashMap<>();
            for (var q : r.questions()) byIndex.putIfAbsent(q.index(), q);
            for (var row : r.rows()) {
                var q = byIndex.get(row.group());
                sb.append(String.join("\t", cell(row.index()), cell(row.group()), Integer.toString(row.rotation()), cell(row.split()),
                        cell(row.category()), cell(row.l2Category()), cell(row.answer()), cell(row.prediction()), cell(row.extracted()),
                        cell(row.step()), row.hit() ? "1" : "0", q == null ? "" : q.hit() ? "1" : "0",
                        q == null || q.recordedHit() == null || !row.index().equals(q.index()) ? "" : q.recordedHit().toString())).append('\n');
            }
            AtomicFiles.writeString(dir.resolve("verdicts.tsv"), sb.toString());
            AtomicFiles.writeString(dir.resolve("acc.csv"), r.acc().toCsv());
            return List.of(dir.resolve("verdicts.tsv"), dir.resolve("acc.csv"), summaryAndReport(dir, g.summary()), dir.resolve("report.html"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Writes our results re-graded to {@code dir}; returns the files written. */
    public static List<Path> write(Path dir, FileGrading.Regraded g) {
        try {
            Files.createDirectories(dir);
            StringBuilder sb = new StringBuilder();
            for (ResultRecord r : g.records()) sb.append(Json.MAPPER.writeValueAsString(r)).append('\n');
            AtomicFiles.writeString(dir.resolve("results.jsonl"), sb.toString());
            return List.of(dir.resolve("results.jsonl"), summaryAndReport(dir, g.summary()), dir.resolve("report.html"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Path summaryAndReport(Path dir, dev.gamagent.eval.report.RunSummary s) {
        Path summary = dir.resolve(Evaluation.SUMMARY);
        s.write(summary);
        HtmlReport.write(dir.resolve("report.html"), s);
        return summary;
    }

    /** A TSV field as pandas writes it (quoted when it holds a tab, newline or quote). */
    private static String cell(String s) { return PandasQuoting.field(s, '\t'); }
}
