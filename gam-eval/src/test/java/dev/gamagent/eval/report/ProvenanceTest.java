package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 41 item 2: where a run's figures come from, read from its summary: the md5 check as official / differs / unknown,
 * the questions run of the file's, the stand-in, the grading and judge, and the marks of a figure that is not comparable.
 */
class ProvenanceTest {
    private static JsonNode summary(String json) throws Exception { return Json.MAPPER.readTree(json); }

    @Test void anOfficialFileRunWholeIsUnmarked() throws Exception {
        Provenance p = Provenance.of(summary("""
                {"grading": "vlmevalkit-2026", "judge": null, "grading_rules": {"vlmevalkit-2026:option": 20},
                 "data_file": {"name": "MMBench_DEV_EN_V11", "file": "/data/MMBench_DEV_EN_V11.tsv", "official": true, "check": "official",
                               "grading": "multiple-choice", "rows_in_file": 20, "rows_run": 20, "limit": 0},
                 "paper_figures": {"column": "MMBench_V11_Test", "stand_in": "MMBench_V11_Test has no public answers: its dev split stands in"}}"""));
        assertThat(p.md5()).isEqualTo("official");
        assertThat(p.file()).isEqualTo("MMBench_DEV_EN_V11.tsv");
        assertThat(p.column()).isEqualTo("MMBench_V11_Test");
        assertThat(p.marks()).isEmpty();
        assertThat(p.comparable()).isTrue();
        assertThat(p.describe()).contains("MMBench_DEV_EN_V11.tsv; md5 official; 20 of 20 questions; stand-in: MMBench_V11_Test has no public answers",
                "grading: multiple-choice", "judge: none", "comparable");
    }

    @Test void aFileWhoseMd5DiffersAndALimitedRunAreMarked() throws Exception {
        Provenance p = Provenance.of(summary("""
                {"data_file": {"name": "MMBench_DEV_EN_V11", "file": "/d/MMBench_DEV_EN_V11.tsv", "official": false, "check": "differs",
                               "grading": "multiple-choice", "rows_in_file": 4329, "rows_run": 3, "limit": 3}}"""));
        assertThat(p.md5()).isEqualTo("differs");
        assertThat(p.marks()).containsExactly(Provenance.UNOFFICIAL, Provenance.PARTIAL);
        assertThat(p.questions()).isEqualTo("3 of 4,329 questions (--limit 3)");
        assertThat(p.meaning(Provenance.UNOFFICIAL)).contains("is not the official file (its md5 differs");
        // a limit as large as the file leaves nothing out
        Provenance whole = Provenance.of(summary("""
                {"data_file": {"name": "X", "file": "X.tsv", "official": null, "check": "recorded_now", "rows_in_file": 5, "rows_run": 5, "limit": 10}}"""));
        assertThat(whole.md5()).isEqualTo("unknown");
        assertThat(whole.marks()).isEmpty();
        // a file gam does not know is not the official benchmark
        Provenance own = Provenance.of(summary("""
                {"data_file": {"name": null, "file": "/tmp/mine.tsv", "official": null, "check": "unknown", "rows_in_file": 5, "rows_run": 5, "limit": 0}}"""));
        assertThat(own.marks()).containsExactly(Provenance.UNOFFICIAL);
        assertThat(own.describe()).contains("md5 unknown (a file gam does not know)");
    }

    @Test void openAnswersGradedWithoutAJudgeAreNotComparableUnlessTheGradingSaysOtherwise() throws Exception {
        String file = """
                "data_file": {"name": "MathVision", "file": "MathVision.tsv", "official": true, "grading": "open", "rows_in_file": 9, "rows_run": 9, "limit": 0}""";
        Provenance noJudge = Provenance.of(summary("{\"judge\": null, \"grading_rules\": {\"exact\": 3, \"none\": 6}, " + file + "}"));
        assertThat(noJudge.comparable()).isFalse();
        assertThat(noJudge.marks()).containsExactly(Provenance.NOT_COMPARABLE);
        assertThat(noJudge.grading()).contains("open answers by gam's matcher (exact, none)");
        assertThat(noJudge.comparability()).contains("without a judge");
        // the grading's own verdict wins (grading_comparable, grading_comparability), whichever way
        Provenance said = Provenance.of(summary("{\"judge\": \"openai:gpt-4o-mini\", \"grading_comparable\": true, "
                + "\"grading_comparability\": \"VLMEvalKit's MathVision judge prompt\", " + file + "}"));
        assertThat(said.comparable()).isTrue();
        assertThat(said.comparability()).isEqualTo("VLMEvalKit's MathVision judge prompt");
        Provenance refused = Provenance.of(summary("{\"judge\": \"x\", \"grading_comparable\": false, \"grading_comparability\": \"rule-only fallback\", "
                + file + "}"));
        assertThat(refused.marks()).containsExactly(Provenance.NOT_COMPARABLE);
        // a benchmark of M3MAD-Bench (grading m3mad) whose answers the matcher read is open too; yes/no graded by VLMEvalKit's rule is not
        Provenance m3mad = Provenance.of(summary("""
                {"grading_rules": {"numeric": 2}, "data_file": {"name": "M3MAD_MathVista", "file": "M3MAD/MathVista.json", "grading": "m3mad"}}"""));
        assertThat(m3mad.comparable()).isFalse();
        Provenance mme = Provenance.of(summary("""
                {"grading_rules": {"yes-no:yorn": 2}, "data_file": {"name": "MME", "file": "MME.tsv", "grading": "yes-no"}}"""));
        assertThat(mme.comparable()).isTrue();
    }

    @Test void aWrittenProvenanceReadsBackAsItWas() throws Exception {
        Provenance p = Provenance.of(summary("""
                {"judge": null, "data_file": {"name": "MME", "file": "/x/MME.tsv", "official": false, "grading": "yes-no", "rows_in_file": 9, "rows_run": 2, "limit": 2}}"""));
        JsonNode written = Json.MAPPER.createObjectNode().set(Provenance.SUMMARY_FIELD, Json.MAPPER.valueToTree(p));
        assertThat(Provenance.ofSummary(written)).isEqualTo(p);
    }
}
