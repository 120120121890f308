package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gamagent.testing.ScriptedBackend.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GenerationUncertaintyTest {
    private final GenerationUncertainty phi = GenerationUncertainty.paperDefaults();

    @Test void aCoinFlipBetweenTwoTokensScoresEntropyOverLnThreePlusAFullGapPenalty() {
        // p = (0.5, 0.5), residual 0: Ĥ = ln2/ln3, Δ = 0 → Φ = 0.5·0.63093 + 0.5·1
        assertThat(phi.token(token("A", 0.5, "B", 0.5))).isCloseTo(0.5 * Math.log(2) / Math.log(3) + 0.5, within(1e-12));
    }

    @Test void aResidualMassCountsAsOneMoreOutcome() {
        // p = (0.6, 0.3), r = 0.1: H = 0.89794, Ĥ = 0.81735, Δ = 0.3 → Φ = 0.758675
        assertThat(phi.token(token("A", 0.6, "B", 0.3))).isCloseTo(0.758675, within(1e-5));
    }

    @Test void aCertainTokenWithImpossibleAlternativesScoresZero() {
        var t = new TokenLogprob("A", 0.0, List.of(new TokenLogprob.Alternative("A", 0.0),
                new TokenLogprob.Alternative("B", Double.NEGATIVE_INFINITY), new TokenLogprob.Alternative("C", -9999)));
        assertThat(phi.token(t)).isCloseTo(0.0, within(1e-12));
    }

    @Test void alternativesAllAtMinus9999LeaveAllMassInTheResidualWhichHasNoEntropyButNoGap() {
        var t = new TokenLogprob("A", -9999, List.of(new TokenLogprob.Alternative("A", -9999), new TokenLogprob.Alternative("B", -9999)));
        assertThat(phi.token(t)).isCloseTo(0.5, within(1e-12));
    }

    @Test void withOnlyTheChosenTokenPhiIsOneMinusItsProbability() {
        assertThat(phi.token(new TokenLogprob("A", Math.log(0.8), List.of()))).isCloseTo(0.2, within(1e-12));
        assertThat(phi.token(new TokenLogprob("A", Double.NEGATIVE_INFINITY, List.of()))).isEqualTo(1.0);
        assertThat(phi.token(new TokenLogprob("A", -9999, List.of()))).isEqualTo(1.0);
    }

    @Test void topKOfOneIsTreatedAsTheChosenTokenOnly() {
        var t = new TokenLogprob("A", Math.log(0.7), List.of(new TokenLogprob.Alternative("A", Math.log(0.7))));
        assertThat(phi.token(t)).isCloseTo(0.3, within(1e-12));
    }

    @Test void phiGenIsTheMeanOverTokensAndOneWithoutTokens() {
        var a = new TokenLogprob("A", Math.log(0.8), List.of());
        var b = new TokenLogprob("B", Math.log(0.4), List.of());
        assertThat(phi.mean(List.of(a, b))).isCloseTo(0.4, within(1e-12));
        assertThat(phi.mean(List.of())).isEqualTo(1.0);
    }
}
