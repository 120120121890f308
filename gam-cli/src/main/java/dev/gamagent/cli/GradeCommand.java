package dev.gamagent.cli;

import dev.gamagent.eval.FileGrading;
import dev.gamagent.eval.GradedFiles;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.VlmEvalKitGrading;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code gam grade}: re-grade existing predictions (VLMEvalKit files or our results.jsonl) without calling any model. */
@Command(name = "grade", mixinStandardHelpOptions = true,
        description = {"Re-grade existing predictions without calling any model: a VLMEvalKit prediction file (.xlsx, .tsv, .csv, "
                + "or .jsonl with the same fields) is graded exactly as VLMEvalKit grades it (exact matching, circular on "
                + "MMBench/CCBench) and compared with the verdicts (hit) and accuracies (_acc.csv) VLMEvalKit recorded, when "
                + "present; a gam eval results.jsonl is re-graded from the questions in its traces.",
                "Writes DIR/verdicts.tsv, DIR/acc.csv (VLMEvalKit's layout), DIR/summary.json and DIR/report.html."})
public final class GradeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "prediction files: VLMEvalKit .xlsx/.tsv/.csv/.jsonl, or gam eval's results.jsonl")
    List<Path> files = new ArrayList<>();

    @Option(names = "--grading", defaultValue = "auto", description = "auto (VLMEvalKit files: the VLMEvalKit rule set that reproduces the "
            + "recorded figures, else the latest; results.jsonl: vlmevalkit), vlmevalkit (latest), vlmevalkit-2024, vlmevalkit-2025, "
            + "vlmevalkit-2026, or extended (ours, not comparable with leaderboards) (default: ${DEFAULT-VALUE})")
    String grading;

    @Option(names = "--dataset", description = "VLMEvalKit's dataset name (default: the file name without _<judge>_result); "
            + "decides circular evaluation (MMBench, CCBench), MMMU's preprocessing and MMT-Bench's report")
    String dataset;

    @Option(names = "--circular", negatable = true, description = "group rows by index modulo 1000000 as VLMEvalKit does for MMBench/CCBench (default: by dataset name)")
    Boolean circular;

    @Option(names = "--recorded", description = "a file with VLMEvalKit's verdicts (index, hit[, log]) to compare with (default: <stem>_<judge>_result.<ext> beside FILE, or FILE's own hit column)")
    Path recorded;

    @Option(names = "--recorded-acc", description = "VLMEvalKit's _acc.csv to compare with (default: <dataset>_acc.csv beside FILE)")
    Path recordedAcc;

    @Option(names = "--out", description = "output directory (default: <stem>-graded in the current directory; one per file)")
    Path out;

    @Option(names = "--check", description = "exit with status 1 when a recorded verdict or accuracy differs from ours")
    boolean check;

    @Override public Integer call() {
        System.setProperty("java.awt.headless", "true");
        PrintStream o = System.out;
        boolean allEqual = true;
        for (Path f : files) {
            Path dir = out == null ? Path.of(stem(f) + "-graded") : files.size() == 1 ? out : out.resolve(stem(f));
            if (FileGrading.isGamResults(f)) {
                GradingMode mode = grading.equalsIgnoreCase("auto") ? GradingMode.of(GradingMode.DEFAULT) : GradingMode.of(grading);
                printGam(o, FileGrading.gradeGamResults(f, mode), dir);
                continue;
            }
            GradingMode mode = grading.equalsIgnoreCase("auto") ? null : GradingMode.of(grading);
            FileGrading.Graded g = FileGrading.gradeVlmEvalKit(f, new FileGrading.Options(mode, dataset, circular, recorded, recordedAcc));
            allEqual &= printVlmEvalKit(o, g, dir);
        }
        return check && !allEqual ? 1 : 0;
    }

    private static String stem(Path f) {
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** Prints one graded VLMEvalKit file and writes its outputs; true when everything recorded was reproduced. */
    private static boolean printVlmEvalKit(PrintStream o, FileGrading.Graded g, Path dir) {
        VlmEvalKitGrading.Result r = g.result();
        o.printf(Locale.ROOT, "%s: %d rows, %d questions%s, graded as VLMEvalKit grades without its LLM judge (exact matching)%n",
                g.file().getFileName(), r.rows().size(), r.questions().size(), r.circular() ? " (circular: rows grouped by index mod 1000000)" : "");
        o.println("grading: " + r.mode().describe() + " [" + g.choice() + "]");
        for (FileGrading.Fit fit : g.fits()) {
            List<String> parts = new ArrayList<>();
            if (fit.verdictsDiffering() >= 0) parts.add(fit.verdictsDiffering() + " recorded verdicts differ");
            if (fit.accCellsDiffering() >= 0) parts.add(fit.accCellsDiffering() + " recorded accuracies differ");
            if (fit.logsDiffering() >= 0) parts.add(fit.logsDiffering() + " match logs differ");
            if (!parts.isEmpty()) o.println("  " + fit.mode().label() + ": " + String.join(", ", parts));
        }
        if (r.needsJudge() > 0) {
            o.printf(Locale.ROOT, "%d questions could not be read by the rules: VLMEvalKit would ask its LLM judge; exact matching (as here) counts them wrong%n",
                    r.needsJudge());
        }
        if (r.repeatedIndices() > 0) {
            o.printf(Locale.ROOT, "warning: %d index values occur on more than one row; VLMEvalKit keys answers and verdicts by index, "
                    + "so its own figures for those rows depend on which row it kept and cannot be reproduced%n", r.repeatedIndices());
        }
        o.println();
        o.print(accTable(r.acc()));
        boolean equal = true;
        if (g.accSource() != null) {
            o.printf(Locale.ROOT, "recorded accuracies %s: %d of %d figures equal to the last digit%n", g.accSource(), g.accCellsEqual(), g.accCells());
            for (String d : g.accDifferences().stream().limit(10).toList()) o.println("  differs: " + d);
            equal = g.accDifferences().isEmpty();
        }
        if (r.hasRecordedVerdicts()) {
            long withHit = r.questions().stream().filter(q -> q.recordedHit() != null).count();
            long withLog = r.questions().stream().filter(q -> q.recorded() != null && q.recorded().log() != null).count();
            o.printf(Locale.ROOT, "recorded verdicts %s: %d of %d equal", g.verdictSource(), withHit - r.disagreements().size(), withHit);
            if (withLog > 0) o.printf(Locale.ROOT, "; VLMEvalKit's match log %d of %d equal", withLog - r.logDisagreements().size(), withLog);
            o.println();
            if (r.repeatedIndices() > 0) {
                List<VlmEvalKitGrading.Question> unique = r.withUniqueIndex().stream().filter(q -> q.recordedHit() != null).toList();
                long same = unique.stream().filter(q -> (q.recordedHit() == 1) == q.hit()).count();
                o.printf(Locale.ROOT, "  on the questions whose index is not repeated: %d of %d equal%n", same, unique.size());
            }
            for (var q : r.disagreements().stream().limit(10).toList()) {
                o.println("  differs: index " + q.index() + " recorded hit " + q.recordedHit() + ", ours " + (q.hit() ? 1 : 0) + " (" + q.log().strip() + ")");
            }
            equal &= r.disagreements().isEmpty();
        } else if (g.verdictSource() == null) {
            o.println("no recorded verdicts found (a hit column, or <stem>_<judge>_result.<ext> beside the file; or pass --recorded FILE)");
        }
        o.println();
        o.print(SummaryTable.render(g.summary()));
        o.println("not available from a prediction file: calibration (ECE, AUROC, balanced accuracy need each answer's confidence), "
                + "tokens, cost, calls, time and debate rounds (need the run itself)");
        o.println("wrote " + String.join(", ", GradedFiles.write(dir, g).stream().map(Path::toString).toList()));
        o.println();
        return equal;
    }

    /** report_acc's table turned on its side: one line per column (Overall, l2-categories, categories), one value per split. */
    static String accTable(VlmEvalKitGrading.AccTable acc) {
        int w = 7;
        for (String c : acc.columns().keySet()) w = Math.max(w, c.length());
        StringBuilder sb = new StringBuilder("VLMEvalKit accuracy (report_acc; acc.csv holds the same in VLMEvalKit's layout)\n");
        sb.append(String.format(Locale.ROOT, "%-" + w + "s", "split"));
        for (String s : acc.rowLabels()) sb.append(String.format(Locale.ROOT, "  %-22s", s));
        sb.append('\n');
        for (var e : acc.columns().entrySet()) {
            sb.append(String.format(Locale.ROOT, "%-" + w + "s", e.getKey().replace("\t", "\\t")));
            for (int i = 0; i < acc.rowLabels().size(); i++) {
                Double v = i < e.getValue().size() ? e.getValue().get(i) : null;
                sb.append(String.format(Locale.ROOT, "  %-22s", v == null || v.isNaN() ? "" : VlmEvalKitGrading.AccTable.format(v)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void printGam(PrintStream o, FileGrading.Regraded g, Path dir) {
        o.printf(Locale.ROOT, "%s: %d records re-graded with %s, %d kept as recorded (errors, judge verdicts, no question in the trace); %d changed outcome%n",
                g.file(), g.regraded(), g.mode().describe(), g.kept(), g.changed());
        o.println();
        o.print(SummaryTable.render(g.summary()));
        o.println("wrote " + String.join(", ", GradedFiles.write(dir, g).stream().map(Path::toString).toList()));
    }
}
