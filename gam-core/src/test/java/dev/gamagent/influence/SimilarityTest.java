package dev.gamagent.influence;

import dev.gamagent.backend.TokenLogprob;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.ScriptedBackend.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SimilarityTest {
    private static final List<String> ABCD = List.of("A", "B", "C", "D");

    @Test void smoothingPutsOneMinusUTimesKMinusOneOverKOnTheChosenLetter() {
        // K = 4, U = 0.4: p(B) = 1 − 0.4·3/4 = 0.7, the rest 0.1 each
        Map<String, Double> p = OptionDistribution.smoothed(ABCD, "B", 0.4);
        assertThat(p.get("B")).isCloseTo(0.7, within(1e-12));
        assertThat(p.get("A")).isCloseTo(0.1, within(1e-12));
        assertThat(OptionDistribution.smoothed(ABCD, "B", 0).get("B")).isEqualTo(1.0);
        assertThat(OptionDistribution.smoothed(ABCD, "B", 1).values()).allSatisfy(v -> assertThat(v).isCloseTo(0.25, within(1e-12)));
        assertThat(OptionDistribution.smoothed(List.of("A"), "A", 0.9)).containsEntry("A", 1.0);
        assertThat(OptionDistribution.smoothed(ABCD, null, 0.1).values()).allSatisfy(v -> assertThat(v).isCloseTo(0.25, within(1e-12)));
    }

    @Test void theAnswerLetterTokensAlternativesAreRestrictedToOptionLettersAndRenormalised() {
        List<TokenLogprob> ts = List.of(token("ANSWER", 0.99, "Answer", 0.01), token(":", 0.99, " -", 0.01),
                token(" B", 0.6, " A", 0.2, " the", 0.1, "B", 0.05));
        Map<String, Double> p = OptionDistribution.fromLogprobs(ts, List.of("A", "B", "C"), "B");
        assertThat(p.get("B")).isCloseTo(0.65 / 0.85, within(1e-9));
        assertThat(p.get("A")).isCloseTo(0.2 / 0.85, within(1e-9));
        assertThat(p.get("C")).isZero();
        assertThat(OptionDistribution.fromLogprobs(List.of(new TokenLogprob("B", 0, List.of())), ABCD, "B")).isNull();
    }

    @Test void letterTokensAreRecognisedWithPunctuationButNotAsWords() {
        assertThat(OptionDistribution.letterOf(" B")).isEqualTo("B");
        assertThat(OptionDistribution.letterOf("(C).")).isEqualTo("C");
        assertThat(OptionDistribution.letterOf("a")).isNull();
        assertThat(OptionDistribution.letterOf("AB")).isNull();
        assertThat(OptionDistribution.letterOf(" ")).isNull();
    }

    @Test void bhattacharyyaIsOneForIdenticalAndZeroForDisjointDistributions() {
        var p = OptionDistribution.smoothed(ABCD, "A", 0.4);
        assertThat(Similarity.bhattacharyya(p, p)).isCloseTo(1.0, within(1e-12));
        assertThat(Similarity.bhattacharyya(Map.of("A", 1.0, "B", 0.0), Map.of("A", 0.0, "B", 1.0))).isZero();
        // (0.7,0.1,0.1,0.1) vs (0.1,0.7,0.1,0.1): 2·sqrt(0.07) + 2·0.1
        var q = OptionDistribution.smoothed(ABCD, "B", 0.4);
        assertThat(Similarity.bhattacharyya(p, q)).isCloseTo(2 * Math.sqrt(0.07) + 0.2, within(1e-12));
    }

    @Test void jaccardCountsSharedWordsAndCosineIsClippedAtZero() {
        assertThat(Similarity.jaccard("red circle", "a red square")).isCloseTo(0.25, within(1e-12));
        assertThat(Similarity.jaccard("", "")).isEqualTo(1.0);
        assertThat(Similarity.cosine(new float[] {1, 0}, new float[] {-1, 0})).isZero();
        assertThat(Similarity.cosine(new float[] {1, 1}, new float[] {2, 2})).isCloseTo(1.0, within(1e-6));
    }

    @Test void theMatrixIsSymmetricWithAUnitDiagonal() {
        double[][] m = Similarity.lexical().open(List.of("red", "red circle", "blue"));
        for (int i = 0; i < 3; i++) {
            assertThat(m[i][i]).isEqualTo(1.0);
            for (int j = 0; j < 3; j++) assertThat(m[i][j]).isEqualTo(m[j][i]);
        }
    }

    @Test void theBgeEmbeddingModelRanksAParaphraseAboveAnUnrelatedSentence() {
        Similarity sim = new Similarity(BgeSentenceEmbedder.shared());
        double para = sim.open("a red car parked on the street", "a crimson automobile parked by the road");
        double unrelated = sim.open("a red car parked on the street", "the quarterly interest rate was raised");
        assertThat(para).isGreaterThan(unrelated + 0.1);
        assertThat(unrelated).isBetween(0.0, 1.0);
    }

    @Test void anEmptyAnswerIsDissimilarToEverythingInsteadOfFailingTheEmbedder() {
        Similarity sim = new Similarity(BgeSentenceEmbedder.shared());
        double[][] m = sim.open(java.util.Arrays.asList("square", "", null, "\uFFFD"));
        assertThat(m[0][1]).isZero();
        assertThat(m[1][2]).isZero();
        assertThat(m[0][3]).as("a text the tokenizer drops entirely").isZero();
        assertThat(m[0][0]).isEqualTo(1.0);
    }
}
