package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Φ_gen, Φ_sem and ANLL against hand-worked values of docs/design.md §3, and on replies in the wild. */
class UncertaintyConformanceTest {
    private static TokenLogprob.Alternative alt(String t, double p) { return new TokenLogprob.Alternative(t, Math.log(p)); }

    @Test void phiGenOfOneTokenIsHalfNormalisedEntropyWithResidualPlusHalfOneMinusTheTopTwoGap() {
        var t = new TokenLogprob("B", Math.log(0.6), List.of(alt("B", 0.6), alt("C", 0.3)));
        double h = -(0.6 * Math.log(0.6) + 0.3 * Math.log(0.3) + 0.1 * Math.log(0.1)) / Math.log(3);
        double expected = 0.5 * h + 0.5 * (1 - 0.3);
        assertThat(GenerationUncertainty.paperDefaults().token(t)).isCloseTo(expected, within(1e-12));
    }

    @Test void phiGenIsTheMeanOverTokensAndOneMinusPWithOnlyTheChosenToken() {
        var a = new TokenLogprob("x", Math.log(0.9), List.of());
        var b = new TokenLogprob("y", Math.log(0.5), List.of());
        assertThat(GenerationUncertainty.paperDefaults().mean(List.of(a, b))).isCloseTo((0.1 + 0.5) / 2, within(1e-12));
    }

    @Test void anllUncertaintyIsOneMinusTheGeometricMeanTokenProbability() {
        var a = new TokenLogprob("x", Math.log(0.5), List.of());
        var b = new TokenLogprob("y", Math.log(0.25), List.of());
        assertThat(Anll.uncertainty(List.of(a, b))).isCloseTo(1 - Math.sqrt(0.5 * 0.25), within(1e-12));
    }

    @Test void phiSemIsTheLogisticOfHedgeDensity() {
        SemanticUncertainty sem = new SemanticUncertainty();
        String text = "The sign is probably red and the light is green today"; // 11 words, one medium hedge
        assertThat(sem.density(text)).isCloseTo(2.0 / 11, within(1e-12));
        assertThat(sem.of(text)).isCloseTo(1 / (1 + Math.exp(-60 * (2.0 / 11 - 0.04))), within(1e-12));
    }

    @Test void aReportedConfidenceIsBlendedAsTheMeanOfPhiSemAndOneMinusC() {
        SemanticUncertainty sem = new SemanticUncertainty();
        double plain = sem.of("The sign is red.");
        assertThat(sem.of("The sign is red.\nCONFIDENCE: 80%")).isCloseTo((plain + 0.2) / 2, within(1e-12));
    }

    @Test void anEmptyReplyIsMaximallyUncertain() {
        assertThat(new SemanticUncertainty().of("")).isEqualTo(1.0);
        assertThat(new SemanticUncertainty().of(null)).isEqualTo(1.0);
    }

    @Test void aRefusalIsUncertainNotConfident() {
        SemanticUncertainty sem = new SemanticUncertainty();
        assertThat(sem.of("I'm sorry, but I can't help with that.")).isGreaterThan(0.9);
        assertThat(sem.of("I am unable to answer questions about this image.")).isGreaterThan(0.9);
        assertThat(sem.of("I’m sorry, I can’t tell from this image.")).isGreaterThan(0.9); // typographic apostrophes
    }

    @Test void aPlainAnswerWithATrailingExplanationIsConfident() {
        assertThat(new SemanticUncertainty().of("B. The triangle is blue and sits left of the circle.")).isLessThan(0.2);
    }
}
