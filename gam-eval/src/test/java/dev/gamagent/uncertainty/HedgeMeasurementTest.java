package dev.gamagent.uncertainty;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The Φ_sem measurement reads both real result formats and computes its figures as documented. */
class HedgeMeasurementTest {
    @TempDir Path dir;

    @Test void readsMathVistaMultipleChoiceEntriesWithTheirVerdictAndAnswerLetter() throws Exception {
        Path f = dir.resolve("output_x.json");
        Files.writeString(f, """
                {"1": {"question_type": "multi_choice", "choices": ["red", "blue"], "answer": "blue",
                       "response": "The answer is (B) blue.", "true_false": true},
                 "2": {"question_type": "free_form", "choices": null, "answer": "3", "response": "3", "true_false": true},
                 "3": {"question_type": "multi_choice", "choices": ["red", "blue"], "answer": "red",
                       "response": "", "true_false": true}}""");
        List<HedgeMeasurement.Reply> rs = HedgeMeasurement.load(f);
        assertThat(rs).hasSize(2);
        assertThat(rs.get(0).answer()).isEqualTo("B");
        assertThat(rs.get(0).asRead().correct()).isTrue();
        // an empty reply is unreadable, whatever the benchmark's extractor guessed for it
        assertThat(rs.get(1).correct()).isTrue();
        assertThat(rs.get(1).asRead()).isNull();
    }

    @Test void readsVlmEvalKitRowsAndRanksAHedgedWrongReplyBelowConfidentRightOnes() throws Exception {
        Path f = dir.resolve("m_bench.jsonl");
        Files.writeString(f, """
                {"index": 1, "options": {"A": "cat", "B": "dog"}, "answer": "A", "prediction": "A", "hit": 1}
                {"index": 2, "options": {"A": "cat", "B": "dog"}, "answer": "A", "prediction": "I cannot tell, maybe B", "hit": 0}
                {"index": 3, "options": {"A": "cat", "B": "dog"}, "answer": "B", "prediction": "B. dog", "hit": 1}
                """);
        List<HedgeMeasurement.Reply> rs = HedgeMeasurement.load(f);
        assertThat(rs).extracting(HedgeMeasurement.Reply::correct).containsExactly(true, false, true);
        SemanticUncertainty sem = new SemanticUncertainty();
        HedgeMeasurement.Stats s = HedgeMeasurement.measure(rs, r -> sem.of(r.text()), sem);
        assertThat(s.n()).isEqualTo(3);
        assertThat(s.fired()).isEqualTo(1);
        assertThat(s.accFired()).isZero();
        assertThat(s.accQuiet()).isEqualTo(1.0);
        assertThat(s.auroc()).isCloseTo(1.0, within(1e-12));
        assertThat(s.bucketN()[0]).isEqualTo(2); // the two plain replies: σ(−2.4) ≈ 0.083
        assertThat(s.bucketN()[s.bucketN().length - 1]).isEqualTo(1);
    }

    @Test void anyOtherFileIsSkipped() throws Exception {
        Path f = dir.resolve("notes.csv");
        Files.writeString(f, "a,b\n");
        assertThat(HedgeMeasurement.load(f)).isEmpty();
    }
}
