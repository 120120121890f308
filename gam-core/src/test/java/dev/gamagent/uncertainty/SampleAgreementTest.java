package dev.gamagent.uncertainty;

import dev.gamagent.influence.OptionDistribution;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SampleAgreementTest {
    private static final List<String> ABCD = List.of("A", "B", "C", "D");

    @Test void threeAgreeingSamplesOfFourOptionsGiveOneUniformPseudoSampleOfSmoothing() {
        Map<String, Double> p = SampleAgreement.frequencies(List.of("B", "B", "B"), ABCD);
        // (3 + 1/4) / 4 for B, (0 + 1/4) / 4 for the others
        assertThat(p.get("B")).isCloseTo(0.8125, within(1e-12));
        assertThat(p.get("A")).isCloseTo(0.0625, within(1e-12));
        assertThat(p.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-12));
        assertThat(SampleAgreement.optionUncertainty(p, "B")).isCloseTo(0.25, within(1e-12));
    }

    @Test void theUncertaintyInvertsTheSmoothedOneHotSoBothReadTheSameChosenMass() {
        Map<String, Double> p = SampleAgreement.frequencies(List.of("A", "C", "A"), ABCD);
        double u = SampleAgreement.optionUncertainty(p, "A");
        assertThat(OptionDistribution.smoothed(ABCD, "A", u).get("A")).isCloseTo(p.get("A"), within(1e-12));
    }

    @Test void anUnreadableSampleSpreadsItsVoteOverEveryOption() {
        Map<String, Double> p = SampleAgreement.frequencies(Arrays.asList("A", null, "not applicable"), List.of("A", "B"));
        // A: 1 + 1/2 + 1/2 (+ 1/2 pseudo) = 2.5; B: 0 + 1/2 + 1/2 (+ 1/2) = 1.5; over 4
        assertThat(p.get("A")).isCloseTo(0.625, within(1e-12));
        assertThat(p.get("B")).isCloseTo(0.375, within(1e-12));
    }

    @Test void thePseudoSampleCanBeAnyDistributionAndWeighsAsOneSample() {
        Map<String, Double> prior = OptionDistribution.smoothed(ABCD, "B", 0.2); // B: 0.85, the others 0.05
        Map<String, Double> p = SampleAgreement.frequencies(List.of("B", "B", "C"), ABCD, prior);
        assertThat(p.get("B")).isCloseTo((2 + 0.85) / 4, within(1e-12));
        assertThat(p.get("C")).isCloseTo((1 + 0.05) / 4, within(1e-12));
        assertThat(p.get("A")).isCloseTo(0.05 / 4, within(1e-12));
        assertThat(p.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-12));
        // no prior is the uniform pseudo-sample
        assertThat(SampleAgreement.frequencies(List.of("B", "B", "C"), ABCD, null)).isEqualTo(SampleAgreement.frequencies(List.of("B", "B", "C"), ABCD));
        assertThat(SampleAgreement.withPrior(0.2, 3, 0.6)).isCloseTo(0.3, within(1e-12));
    }

    @Test void threeDifferentAnswersAreMaximallyUncertain() {
        Map<String, Double> p = SampleAgreement.frequencies(List.of("A", "B", "C"), List.of("A", "B", "C"));
        assertThat(SampleAgreement.optionUncertainty(p, "A")).isCloseTo(1.0, within(1e-12));
        assertThat(SampleAgreement.optionUncertainty(p, null)).isEqualTo(1.0);
    }

    @Test void openAnswersUseOneMinusTheMeanPairwiseSimilarity() {
        double[][] sim = {{1, 0.9, 0.3}, {0.9, 1, 0.6}, {0.3, 0.6, 1}};
        assertThat(SampleAgreement.openUncertainty(sim)).isCloseTo(1 - (0.9 + 0.3 + 0.6) / 3, within(1e-12));
        assertThat(SampleAgreement.openUncertainty(new double[][] {{1}})).isEqualTo(1.0);
    }
}
