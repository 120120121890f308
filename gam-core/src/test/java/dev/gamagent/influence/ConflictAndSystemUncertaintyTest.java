package dev.gamagent.influence;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ConflictAndSystemUncertaintyTest {
    @Test void oneAgentHasNoConflict() {
        assertThat(Conflict.of(new double[] {1}, new double[][] {{1}})).isZero();
    }

    @Test void identicalAnswersHaveNoConflictAndOppositeAnswersFullConflict() {
        assertThat(Conflict.of(new double[] {0.5, 0.5}, new double[][] {{1, 1}, {1, 1}})).isZero();
        assertThat(Conflict.of(new double[] {0.3, 0.7}, new double[][] {{1, 0}, {0, 1}})).isCloseTo(1.0, within(1e-12));
    }

    @Test void conflictIsTheWeightedMeanPairwiseDisagreement() {
        // w = (0.5, 0.25, 0.25); pairs: (0,1) 0.125·(1−0.2), (0,2) 0.125·(1−0.6), (1,2) 0.0625·(1−1)
        double[][] sim = {{1, 0.2, 0.6}, {0.2, 1, 1}, {0.6, 1, 1}};
        double expected = (0.125 * 0.8 + 0.125 * 0.4) / (0.125 + 0.125 + 0.0625);
        assertThat(Conflict.of(new double[] {0.5, 0.25, 0.25}, sim)).isCloseTo(expected, within(1e-12));
    }

    @Test void systemUncertaintyIsTheWeightedMean() {
        assertThat(SystemUncertainty.of(new double[] {0.5, 0.25, 0.25}, new double[] {0.2, 0.4, 1.0})).isCloseTo(0.45, within(1e-12));
        assertThat(SystemUncertainty.of(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, new double[] {1, 1, 1})).isCloseTo(1.0, within(1e-12));
    }

    @Test void conflictAndSystemUncertaintyStayInTheUnitIntervalForRandomInputs() {
        Random r = new Random(21);
        var game = dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults());
        for (int trial = 0; trial < 1000; trial++) {
            int n = 1 + r.nextInt(6);
            double[] u = InfluenceWeightsTest.randomU(r, n);
            double[][] sim = InfluenceWeightsTest.randomSim(r, n);
            GameState g = GameState.compute(u, sim, game, r.nextBoolean());
            assertThat(g.conflict()).isBetween(0.0, 1.0);
            assertThat(g.uSys()).isBetween(0.0, 1.0);
        }
    }

    @Test void theNoDynamicWeightsAblationGivesUniformWeights() {
        GameState g = GameState.compute(new double[] {0.1, 0.9}, new double[][] {{1, 0}, {0, 1}}, dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults()), true);
        assertThat(g.weights()).containsExactly(0.5, 0.5);
        assertThat(g.uSys()).isCloseTo(0.5, within(1e-12));
    }
}
