package dev.gamagent.uncertainty;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SemanticUncertaintyTest {
    private final SemanticUncertainty sem = new SemanticUncertainty();

    @Test void anEmptyResponseIsMaximallyUncertain() {
        assertThat(sem.of("")).isEqualTo(1.0);
        assertThat(sem.of("   ")).isEqualTo(1.0);
    }

    @Test void aPlainStatementHasZeroDensityAndScoresSigmoidOfMinus2point4() {
        assertThat(sem.density("The sign says STOP.")).isZero();
        assertThat(sem.of("The sign says STOP.")).isCloseTo(1 / (1 + Math.exp(2.4)), within(1e-12));
    }

    @Test void aStrongHedgeWeighsThreeOverTheWordCount() {
        // "i cannot determine the colour": 5 words, one strong hedge → ρ = 3/5
        assertThat(sem.density("I cannot determine the colour")).isCloseTo(0.6, within(1e-12));
        assertThat(sem.of("I cannot determine the colour")).isGreaterThan(0.99);
    }

    @Test void aQuestionMarkInsideTheTextAddsTwo() {
        // "is it red? yes it is red": 7 words, +2 → ρ = 2/7
        assertThat(sem.density("Is it red? Yes it is red")).isCloseTo(2.0 / 7, within(1e-12));
        assertThat(sem.density("Is it red?")).isZero();
    }

    @Test void conjunctionsAndPrepositionsAreNotHedgesButApproximateQuantitiesAre() {
        assertThat(sem.density("The red square is to the left or right of the circle")).isZero();
        assertThat(sem.density("This question is about the colour of the car")).isZero();
        // "there are about 5 cars": 5 words, medium weight 2 → ρ = 0.4
        assertThat(sem.density("There are about 5 cars")).isCloseTo(0.4, within(1e-12));
    }

    @Test void aReportedConfidenceIsBlendedHalfAndHalf() {
        double base = 1 / (1 + Math.exp(2.4));
        assertThat(sem.of("The sign says STOP. CONFIDENCE: 80%")).isCloseTo((base + 0.2) / 2, within(1e-12));
        assertThat(SemanticUncertainty.reportedConfidence("confidence: 0.35")).isCloseTo(0.35, within(1e-12));
        assertThat(SemanticUncertainty.reportedConfidence("no number here")).isNull();
    }
}
