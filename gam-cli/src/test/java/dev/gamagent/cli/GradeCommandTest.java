package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/** gam grade through picocli on a real VLMEvalKit file, a circular TSV and our own results.jsonl. */
class GradeCommandTest {
    @TempDir Path dir;

    private static CommandRun run(String... args) { return CommandRun.of(new GradeCommand(), args); }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(GradeCommandTest.class.getResource("/realdata/vlmevalkit-vila1.5/" + name).toURI());
    }

    @Test void aVlmEvalKitXlsxIsGradedAsVlmEvalKitGradedItAndComparedWithWhatItRecorded() throws Exception {
        // the file as a user has it: prediction file and _acc.csv side by side
        for (String f : new String[]{"vila_8b_RealWorldQA.xlsx", "vila_8b_RealWorldQA_acc.csv"}) {
            Files.copy(resource(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        Path out = dir.resolve("graded");
        CommandRun r = run("--check", "--out", out.toString(), "--recorded", resource("vila_8b_RealWorldQA_hits.tsv").toString(),
                dir.resolve("vila_8b_RealWorldQA.xlsx").toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("765 rows, 765 questions", "grading: vlmevalkit-2024", "1 of 1 figures equal to the last digit",
                "765 of 765 equal", "0.465359477124183", "not available from a prediction file: calibration");
        assertThat(Files.readString(out.resolve("acc.csv"))).isEqualTo(Files.readString(resource("vila_8b_RealWorldQA_acc.csv")));
        assertThat(Files.readAllLines(out.resolve("verdicts.tsv"))).hasSize(766);
        var summary = Json.MAPPER.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.path("grading").asText()).isEqualTo("vlmevalkit-2024");
        assertThat(summary.path("metrics").path("vila_8b_RealWorldQA").path("accuracy").asDouble()).isEqualTo(356 / 765.0);
        assertThat(summary.path("metrics").path("vila_8b_RealWorldQA").has("ece")).isFalse();
        assertThat(Files.readString(out.resolve("report.html"))).contains("vila_8b_RealWorldQA");

        // told to use VLMEvalKit's current rules, the recorded figures are not reproduced, and --check says so
        CommandRun later = run("--check", "--grading", "vlmevalkit", "--out", dir.resolve("g2").toString(),
                "--recorded", resource("vila_8b_RealWorldQA_hits.tsv").toString(), dir.resolve("vila_8b_RealWorldQA.xlsx").toString());
        assertThat(later.code()).isEqualTo(1);
        assertThat(later.out()).contains("grading: vlmevalkit-2026", "[given]", "764 of 765 equal", "differs: none / Overall");
    }

    @Test void mmbenchRowsAreGroupedByIndexModuloAMillionAndAnUnreadRotationFailsItsGroup() throws Exception {
        Path f = Files.writeString(dir.resolve("mymodel_MMBench_DEV_EN.tsv"),
                "index\tquestion\tA\tB\tanswer\tcategory\tl2-category\tprediction\n"
                        + "1\tq1\tcat\tdog\tA\tc1\tcoarse_perception\tA\n"
                        + "1000001\tq1\tdog\tcat\tB\tc1\tcoarse_perception\tThe answer is B.\n"
                        + "2\tq2\tred\tblue\tB\tc2\tlogic_reasoning\tB\n"
                        + "1000002\tq2\tblue\tred\tA\tc2\tlogic_reasoning\tB\n"
                        + "3\tq3\tup\tdown\tA\tc2\tlogic_reasoning\tA\n"
                        + "1000003\tq3\tdown\tup\tB\tc2\tlogic_reasoning\t\"I am not sure,\nit could be either\"\n");
        Path out = dir.resolve("mm");
        CommandRun r = run("--out", out.toString(), f.toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("6 rows, 3 questions (circular", "1 questions could not be read by the rules",
                "default: VLMEvalKit's current rules");
        // report_acc: Overall, then l2-categories under MMBench's short names, then categories
        assertThat(Files.readString(out.resolve("acc.csv"))).isEqualTo(
                "\"split\",\"Overall\",\"CP\",\"LR\",\"c1\",\"c2\"\n\"none\",\"0.3333333333333333\",\"1.0\",\"0.0\",\"1.0\",\"0.0\"\n");
        var lines = Files.readAllLines(out.resolve("verdicts.tsv"));
        assertThat(lines.get(4)).startsWith("1000001\t1\t1\t").contains("\tB\toption\t1\t1\t");
        assertThat(lines.get(5)).startsWith("1000002\t2\t1\t").contains("\tB\toption\t0\t0\t");
    }

    @Test void ourResultsJsonlIsRegradedFromTheQuestionsInItsTraces() throws Exception {
        String trace = "{\"question\":{\"id\":\"7\",\"text\":\"Which animal?\",\"options\":{\"A\":\"cat\",\"B\":\"dog\"},\"groundTruth\":\"B\"}}";
        Path f = Files.writeString(dir.resolve("results.jsonl"),
                "{\"questionId\":\"7\",\"group\":\"7\",\"rotation\":0,\"method\":\"single\",\"category\":\"c\",\"l2Category\":\"-\","
                        + "\"outcome\":\"unmatched\",\"groundTruth\":\"B\",\"answer\":\"I think the answer is (b)\",\"confidence\":0.8,"
                        + "\"uncertainty\":0.2,\"rounds\":0,\"promptTokens\":10,\"completionTokens\":5,\"tokensEstimated\":false,"
                        + "\"calls\":1,\"millis\":3,\"rule\":\"unmatched\",\"trace\":" + trace + "}\n"
                        + "{\"questionId\":\"8\",\"group\":\"8\",\"rotation\":0,\"method\":\"single\",\"category\":\"c\",\"l2Category\":\"-\","
                        + "\"outcome\":\"error\",\"rounds\":0,\"promptTokens\":0,\"completionTokens\":0,\"tokensEstimated\":false,"
                        + "\"calls\":0,\"millis\":3,\"error\":\"timeout\"}\n");
        CommandRun vk = run("--out", dir.resolve("vk").toString(), f.toString());
        assertThat(vk.code()).as(vk.out() + vk.err()).isZero();
        assertThat(vk.out()).contains("1 records re-graded with vlmevalkit-2026", "1 kept as recorded", "0 changed outcome");
        // our extension reads "answer is (b)"; VLMEvalKit's rules do not
        CommandRun ext = run("--grading", "extended", "--out", dir.resolve("ext").toString(), f.toString());
        assertThat(ext.out()).contains("1 changed outcome", "100.0%", "grading: extended");
        var regraded = Files.readAllLines(dir.resolve("ext/results.jsonl"));
        assertThat(Json.MAPPER.readTree(regraded.get(0)).path("rule").asText()).isEqualTo("extended:explicit");
    }
}
