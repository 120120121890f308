package dev.gamagent.eval;

import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.PredictionFile;
import dev.gamagent.eval.grade.VlmEvalKitGrading;
import dev.gamagent.eval.grade.VlmEvalKitMatcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * VLMEvalKit's own result files (VILA-1.5 8B and 13B, open-compass/VLMEvalKit assets/benchmarks, see
 * NOTICE): grading the prediction .xlsx must give, on every row, the verdict VLMEvalKit recorded and
 * whether its rules read the reply at all, and an {@code _acc.csv} equal to VLMEvalKit's byte for byte.
 * {@code *_hits.tsv} holds VLMEvalKit's recorded hit per index and whether its log shows a rule match.
 * With {@code -Dgam.vlmevalkit.dir=DIR}, every prediction file in DIR is checked against the result and
 * accuracy files beside it (docs/metrics.md lists the files measured so).
 */
public class VlmEvalKitConformanceTest {
    public static Path resources() {
        try {
            return Path.of(VlmEvalKitConformanceTest.class.getResource("/realdata/vlmevalkit-vila1.5").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Recorded(int hit, boolean read) { }

    private static Map<String, Recorded> hits(String stem) throws IOException {
        Map<String, Recorded> m = new java.util.HashMap<>();
        List<String> lines = Files.readAllLines(resources().resolve(stem + "_hits.tsv"));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split("\t");
            m.put(f[0], new Recorded(Integer.parseInt(f[1]), f[2].equals("1")));
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"vila_8b_MMStar", "vila_8b_RealWorldQA", "vila_8b_ScienceQA_TEST", "vila_8b_ScienceQA_VAL",
            "vila_13b_MMStar", "vila_13b_RealWorldQA", "vila_13b_ScienceQA_TEST", "vila_13b_ScienceQA_VAL"})
    void everyVerdictAndEveryAccuracyFigureIsVlmEvalKits(String stem) throws IOException {
        PredictionFile pf = PredictionFile.read(resources().resolve(stem + ".xlsx"));
        VlmEvalKitGrading.Result r = VlmEvalKitGrading.grade(pf, GradingMode.vlmEvalKit(VlmEvalKitMatcher.Rules.V2024), stem, false);
        Map<String, Recorded> recorded = hits(stem);
        assertThat(r.questions()).hasSize(recorded.size());
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < r.rows().size(); i++) {
            VlmEvalKitGrading.Row row = r.rows().get(i);
            Recorded want = recorded.get(row.index());
            if (want == null || (want.hit() == 1) != row.hit() || want.read() != (row.extracted() != null)) {
                wrong.add(row.index() + ": recorded " + want + ", ours hit=" + row.hit() + " read=" + row.extracted());
            }
        }
        assertThat(wrong).as("rows whose verdict differs from VLMEvalKit's").isEmpty();
        String acc = Files.readString(resources().resolve(stem + "_acc.csv"), StandardCharsets.UTF_8);
        assertThat(r.acc().toCsv()).isEqualTo(acc);
    }

    /** Without being told, gam grade picks a rule set that reproduces everything recorded, from the _acc.csv and hits. */
    @ParameterizedTest
    @ValueSource(strings = {"vila_8b_MMStar", "vila_8b_ScienceQA_TEST", "vila_13b_RealWorldQA"})
    void theRuleSetIsChosenFromWhatWasRecorded(String stem) {
        FileGrading.Graded g = FileGrading.gradeVlmEvalKit(resources().resolve(stem + ".xlsx"),
                new FileGrading.Options(null, null, null, resources().resolve(stem + "_hits.tsv"), null));
        assertThat(g.accSource()).isNotNull();
        assertThat(g.accDifferences()).isEmpty();
        assertThat(g.accCellsEqual()).isEqualTo(g.accCells()).isPositive();
        assertThat(g.result().disagreements()).isEmpty();
        if (stem.startsWith("vila_8b")) assertThat(g.result().mode().rules()).isEqualTo(VlmEvalKitMatcher.Rules.V2024);
    }

    /**
     * Why the rule set matters: VLMEvalKit's 2025 and 2026 matchers disagree with the 2024 one these files
     * were graded by on this many VILA-1.5 8B rows (the same counts come from a direct transcription of
     * each version of matching_util.py run over the shared JSONL).
     */
    @Test void laterRuleSetsWouldGradeTheseRepliesDifferently() {
        Map<String, int[]> expected = Map.of("vila_8b_MMStar", new int[]{12, 9}, "vila_8b_RealWorldQA", new int[]{2, 1},
                "vila_8b_ScienceQA_TEST", new int[]{26, 20}, "vila_8b_ScienceQA_VAL", new int[]{24, 29});
        for (var e : expected.entrySet()) {
            PredictionFile pf = PredictionFile.read(resources().resolve(e.getKey() + ".xlsx"));
            Path hits = resources().resolve(e.getKey() + "_hits.tsv");
            int[] got = new int[2];
            for (int i = 0; i < 2; i++) {
                var rules = i == 0 ? VlmEvalKitMatcher.Rules.V2025 : VlmEvalKitMatcher.Rules.V2026;
                got[i] = VlmEvalKitGrading.grade(pf, GradingMode.vlmEvalKit(rules), e.getKey(), false)
                        .withRecorded(FileGrading.recordedVerdicts(hits)).disagreements().size();
            }
            assertThat(got).as(e.getKey()).containsExactly(e.getValue());
        }
    }

    /** Measurement over a directory of VLMEvalKit outputs: run with -Dgam.vlmevalkit.dir=DIR (skipped otherwise). */
    @Test void everyPredictionFileInAGivenDirectoryReproducesWhatWasRecordedBesideIt() throws IOException {
        String dir = System.getProperty("gam.vlmevalkit.dir");
        Assumptions.assumeTrue(dir != null && !dir.isBlank(), "set -Dgam.vlmevalkit.dir=DIR to measure a directory");
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of(dir))) {
            files = s.filter(p -> p.toString().endsWith(".xlsx") && !p.getFileName().toString().contains("_result")).sorted().toList();
        }
        List<String> failures = new ArrayList<>();
        for (Path f : files) {
            FileGrading.Graded g = FileGrading.gradeVlmEvalKit(f, new FileGrading.Options(null, null, null, null, null));
            var r = g.result();
            long uniqueRecorded = r.withUniqueIndex().stream().filter(q -> q.recordedHit() != null).count();
            long uniqueEqual = r.withUniqueIndex().stream().filter(q -> q.recordedHit() != null && (q.recordedHit() == 1) == q.hit()).count();
            System.out.printf("%s: %s; questions %d (circular %s); recorded verdicts %s: %d/%d equal (unique index %d/%d), "
                            + "match logs %d differ; acc.csv %d/%d figures equal; repeated indices %d%n",
                    f.getFileName(), r.mode().label(), r.questions().size(), r.circular(), g.verdictSource() == null ? "none" : g.verdictSource().getFileName(),
                    r.questions().stream().filter(q -> q.recordedHit() != null).count() - r.disagreements().size(),
                    r.questions().stream().filter(q -> q.recordedHit() != null).count(), uniqueEqual, uniqueRecorded,
                    r.logDisagreements().size(), g.accCellsEqual(), g.accCells(), r.repeatedIndices());
            if (r.repeatedIndices() == 0 && (!r.disagreements().isEmpty() || !g.accDifferences().isEmpty())) failures.add(f.getFileName().toString());
        }
        assertThat(failures).as("files with a unique index per row whose recorded figures were not reproduced").isEmpty();
    }
}
