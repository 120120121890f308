package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AnllTest {
    private static TokenLogprob t(double lp) { return new TokenLogprob("x", lp, List.of()); }

    @Test void uncertaintyIsOneMinusTheGeometricMeanTokenProbability() {
        // p = 0.5 and 0.125: geometric mean 0.25 → u = 0.75
        assertThat(Anll.uncertainty(List.of(t(Math.log(0.5)), t(Math.log(0.125))))).isCloseTo(0.75, within(1e-12));
    }

    @Test void impossibleTokensCountAsMinus30NotMinusInfinity() {
        assertThat(Anll.averageLogprob(List.of(t(Double.NEGATIVE_INFINITY), t(0.0)))).isCloseTo(-15, within(1e-12));
        assertThat(Anll.averageLogprob(List.of(t(-9999), t(0.0)))).isCloseTo(-15, within(1e-12));
        assertThat(Anll.uncertainty(List.of(t(-9999), t(0.0)))).isLessThan(1.0).isGreaterThan(0.999);
    }

    @Test void noTokensMeansFullUncertainty() {
        assertThat(Anll.uncertainty(List.of())).isEqualTo(1.0);
    }
}
