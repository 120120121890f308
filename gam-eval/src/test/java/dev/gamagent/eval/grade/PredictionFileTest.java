package dev.gamagent.eval.grade;

import dev.gamagent.eval.FileGrading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prediction files other than .xlsx: CSV (quoted commas and newlines) and JSONL (an options object). */
class PredictionFileTest {
    @TempDir Path dir;

    @Test void csvIsReadAsPandasReadsIt() throws Exception {
        Path f = Files.writeString(dir.resolve("m_MMStar.csv"), "\uFEFFindex,question,A,B,answer,prediction\n"
                + "2,\"Which, exactly?\",1,2,B,\"B\nbecause\"\n"
                + "1,q,3,,A,None\n");
        PredictionFile pf = PredictionFile.read(f);
        assertThat(pf.columns()).containsExactly("index", "question", "A", "B", "answer", "prediction");
        assertThat(pf.rows().get(0)).containsEntry("index", "1").containsEntry("A", "3").containsEntry("prediction", null);
        assertThat(pf.rows().get(1)).containsEntry("question", "Which, exactly?").containsEntry("B", "2.0")
                .containsEntry("prediction", "B\nbecause");
        VlmEvalKitGrading.Result r = VlmEvalKitGrading.grade(pf, GradingMode.of("vlmevalkit-2024"), "m_MMStar", false);
        // a missing prediction is the string "nan" to VLMEvalKit: read as nothing, so wrong
        assertThat(r.questions().stream().map(VlmEvalKitGrading.Question::hit).toList()).containsExactly(false, true);
        assertThat(r.rows().get(0).prediction()).isEqualTo("nan");
    }

    @Test void jsonlSpreadsAnOptionsObject() throws Exception {
        Path f = Files.writeString(dir.resolve("x.jsonl"),
                "{\"index\": 0, \"question\": \"q\", \"options\": {\"A\": \"Red\", \"B\": \"Black\"}, \"answer\": \"B\", "
                        + "\"prediction\": \"A flag is a piece of cloth. It is black\", \"hit\": 0}\n");
        PredictionFile pf = PredictionFile.read(f);
        assertThat(pf.rows().get(0)).containsEntry("A", "Red").containsEntry("B", "Black").containsEntry("hit", "0");
        VlmEvalKitGrading.Result r = VlmEvalKitGrading.grade(pf, GradingMode.of("vlmevalkit-2024"), "x", false);
        assertThat(r.rows().get(0).extracted()).isEqualTo("A");
        assertThat(r.disagreements()).isEmpty();
    }

    @Test void missingColumnsAndUnknownFormatsAreNamed() throws Exception {
        Path f = Files.writeString(dir.resolve("p.tsv"), "index\tquestion\tanswer\n1\tq\tA\n");
        assertThatThrownBy(() -> VlmEvalKitGrading.grade(PredictionFile.read(f), GradingMode.of("vlmevalkit"), "p", false))
                .hasMessageContaining("p.tsv").hasMessageContaining("'prediction'");
        Path g = Files.writeString(dir.resolve("p.txt"), "x");
        assertThatThrownBy(() -> PredictionFile.read(g)).hasMessageContaining("p.txt").hasMessageContaining(".xlsx");
    }

    @Test void vlmEvalKitsResultFileBesideThePredictionsIsFoundWhateverTheJudgeIsCalled() throws Exception {
        assertThat(FileGrading.datasetOf(Path.of("vila_8b_MMStar_openai_result.xlsx"))).isEqualTo("vila_8b_MMStar");
        assertThat(FileGrading.datasetOf(Path.of("m_MMBench_DEV_EN_exact_matching_result.xlsx"))).isEqualTo("m_MMBench_DEV_EN");
        assertThat(FileGrading.datasetOf(Path.of("m_X_gpt-4o-mini_result.tsv"))).isEqualTo("m_X");
        assertThat(FileGrading.datasetOf(Path.of("m_X.tsv"))).isEqualTo("m_X");
        Files.writeString(dir.resolve("m_X.tsv"), "index\tA\tB\tanswer\tprediction\n1\tcat\tdog\tB\tB\n2\tcat\tdog\tA\tno idea\n");
        Files.writeString(dir.resolve("m_X_gpt-4o-mini_result.tsv"), "index\tA\tB\tanswer\tprediction\thit\tlog\n"
                + "1\tcat\tdog\tB\tB\t1\tMatch Log: B. \n2\tcat\tdog\tA\tno idea\t1\tMatch Log: A. \n");
        FileGrading.Graded g = FileGrading.gradeVlmEvalKit(dir.resolve("m_X.tsv"), new FileGrading.Options(null, null, null, null, null));
        assertThat(g.verdictSource().getFileName().toString()).isEqualTo("m_X_gpt-4o-mini_result.tsv");
        // VLMEvalKit's judge read "no idea" as A; exact matching cannot: the one difference, and its log shows why
        assertThat(g.result().disagreements()).extracting(VlmEvalKitGrading.Question::index).containsExactly("2");
        assertThat(g.result().logDisagreements()).hasSize(1);
    }
}
