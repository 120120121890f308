package dev.gamagent.influence;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The game's numbers stay finite and on the simplex at the edges: tiny τ, all U = 1, one agent, bad inputs. */
class GameConformanceTest {
    private static final double[][] SPLIT = {{1, 0, 0.2}, {0, 1, 0.9}, {0.2, 0.9, 1}};

    private static void assertOnSimplex(double[] w) {
        double sum = 0;
        for (double x : w) {
            assertThat(Double.isFinite(x)).as("weight %s is finite", x).isTrue();
            assertThat(x).isBetween(0.0, 1.0);
            sum += x;
        }
        assertThat(sum).isCloseTo(1.0, within(1e-12));
    }

    @Test void aTinyTauDoesNotOverflowAndGivesAllWeightToTheBestAgent() {
        InfluenceWeights g = new InfluenceWeights(0.5, 0.5, 1e-6);
        double[] w = g.weights(new double[] {0.1, 0.6, 0.3}, SPLIT);
        assertOnSimplex(w);
        assertThat(w[0]).isCloseTo(1.0, within(1e-12));
    }

    @Test void aTinyTauWithLargeScoresStaysFinite() {
        double[] w = InfluenceWeights.softmax(new double[] {800, 790, -800}, 1e-6);
        assertOnSimplex(w);
        assertThat(w[0]).isEqualTo(1.0);
    }

    @Test void allAgentsMaximallyUncertainShareTheWeightEvenWithATinyTau() {
        double[][] same = {{1, 0.5, 0.5}, {0.5, 1, 0.5}, {0.5, 0.5, 1}};
        GameState st = GameState.compute(new double[] {1, 1, 1}, same, new InfluenceWeights(0.5, 0.5, 1e-6), false);
        assertOnSimplex(st.weights());
        assertThat(st.weights()[0]).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(st.uSys()).isCloseTo(1.0, within(1e-12));
        assertThat(Double.isFinite(st.conflict())).isTrue();
    }

    @Test void aNotANumberScoreGetsNoWeightInsteadOfPoisoningTheRest() {
        double[] w = InfluenceWeights.softmax(new double[] {0.4, Double.NaN, 0.2}, 0.5);
        assertOnSimplex(w);
        assertThat(w[1]).isZero();
    }

    @Test void scoresThatAreAllMinusInfinityGiveUniformWeights() {
        double[] w = InfluenceWeights.softmax(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY}, 0.5);
        assertOnSimplex(w);
        assertThat(w[0]).isCloseTo(0.5, within(1e-12));
    }

    @Test void anInfiniteScoreTakesAllTheWeight() {
        double[] w = InfluenceWeights.softmax(new double[] {Double.POSITIVE_INFINITY, 3, 1}, 0.5);
        assertOnSimplex(w);
        assertThat(w[0]).isEqualTo(1.0);
    }

    @Test void aOneAgentPanelHasWeightOneItsOwnUncertaintyAndNoConflict() {
        GameState st = GameState.compute(new double[] {0.7}, new double[][] {{1}}, dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults()), false);
        assertThat(st.weights()).containsExactly(1.0);
        assertThat(st.uSys()).isCloseTo(0.7, within(1e-12));
        assertThat(st.conflict()).isZero();
        assertThat(dev.gamagent.gam.GamSettings.stopping(dev.gamagent.config.Config.defaults()).triggers(st.uSys(), st.conflict())).isTrue();
    }

    @Test void conflictStaysFiniteWhenATinyTauLeavesOnlyOneAgentWithWeight() {
        GameState st = GameState.compute(new double[] {0.0, 1.0, 1.0}, SPLIT, new InfluenceWeights(0.5, 0.5, 1e-9), false);
        assertOnSimplex(st.weights());
        assertThat(Double.isFinite(st.conflict())).isTrue();
        assertThat(st.conflict()).isBetween(0.0, 1.0);
    }

    @Test void aNotApplicableExpertWithUOneGetsLessWeightThanAConfidentPeer() {
        double[][] sim = {{1, 0.3}, {0.3, 1}};
        double[] w = dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults()).weights(new double[] {0.2, 1.0}, sim);
        assertThat(w[0]).isGreaterThan(w[1]);
        assertThat(SystemUncertainty.of(w, new double[] {0.2, 1.0})).isBetween(0.2, 1.0);
    }

    @Test void anInfiniteTauSpreadsTheWeightEvenlyOverTheScoresThatAreNotNaN() {
        double[] w = InfluenceWeights.softmax(new double[] {0.4, Double.NaN, 0.2}, Double.POSITIVE_INFINITY);
        assertOnSimplex(w);
        assertThat(w[0]).isCloseTo(0.5, within(1e-12));
        assertThat(w[1]).isZero();
    }
}
