package dev.gamagent.eval.report;

import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Each statistic against values worked out by hand (the working is in the comments). */
class CalibrationTest {
    @Test void eceWeighsEachBinsGapBetweenAccuracyAndConfidenceByItsSize() {
        double[] conf = {0.95, 0.85, 0.82, 0.35, 0.15};
        boolean[] right = {true, true, false, false, true};
        // bin 9: |1 − .95|·1/5 = .010; bin 8: |.5 − .835|·2/5 = .134; bin 3: |0 − .35|·1/5 = .070; bin 1: |1 − .15|·1/5 = .170
        assertThat(Calibration.ece(conf, right, 10)).isCloseTo(0.384, within(1e-9));
        var bins = Calibration.reliability(conf, right, 10);
        assertThat(bins).hasSize(10);
        assertThat(bins.get(8).count()).isEqualTo(2);
        assertThat(bins.get(8).meanConfidence()).isCloseTo(0.835, within(1e-9));
        assertThat(bins.get(8).accuracy()).isEqualTo(0.5);
        assertThat(bins.get(0).accuracy()).isNull();
    }

    @Test void aConfidenceOfExactlyOneFallsInTheLastBin() {
        assertThat(Calibration.reliability(new double[]{1.0}, new boolean[]{true}, 10).get(9).count()).isEqualTo(1);
        assertThat(Calibration.ece(new double[]{1.0, 1.0}, new boolean[]{true, true}, 10)).isZero();
        assertThat(Calibration.ece(new double[0], new boolean[0], 10)).isNaN();
    }

    @Test void aurocCountsPositiveNegativePairsOrderedRightWithTiesAsHalf() {
        double[] u = {0.9, 0.8, 0.3, 0.3, 0.1};
        boolean[] wrong = {true, false, true, false, false};
        // positive .9 beats all 3 negatives; positive .3 beats .1, ties .3 (½), loses to .8: (3 + 1.5) / 6
        assertThat(Calibration.auroc(u, wrong)).isCloseTo(0.75, within(1e-12));
        assertThat(Calibration.auroc(u, new boolean[5])).isNaN();
    }

    @Test void balancedAccuracyAveragesTheTwoClassRecalls() {
        double[] u = {0.9, 0.8, 0.3, 0.3, 0.1};
        boolean[] wrong = {true, false, true, false, false};
        // flagged (u > .5): 0, 1. TPR = 1/2 (0 flagged, 2 not); TNR = 2/3 (1 flagged; 3, 4 not)
        assertThat(Calibration.balancedAccuracy(u, wrong, 0.5)).isCloseTo((0.5 + 2.0 / 3) / 2, within(1e-12));
    }

    @Test void spearmanIsPearsonOnAverageRanks() {
        // ranks x = 1, 2.5, 2.5, 4; ranks y = 1, 2, 4, 3; Σdxdy = 3, Σdx² = 4.5, Σdy² = 5
        double rho = Calibration.spearman(new double[]{0.1, 0.4, 0.4, 0.9}, new double[]{0, 1, 3, 2});
        assertThat(rho).isCloseTo(3 / Math.sqrt(4.5 * 5), within(1e-12));
        assertThat(Calibration.spearman(new double[]{1, 2, 3}, new double[]{5, 5, 5})).isNaN();
        assertThat(Calibration.spearman(new double[]{1, 2, 3}, new double[]{30, 20, 10})).isCloseTo(-1, within(1e-12));
    }

    @Test void costUsesTheModelsPriceOrTheGpuHourRate() {
        Config c = Config.defaults().with("eval.prices", "{\"gpt-4o\": {\"input\": 2.5, \"output\": 10}}");
        PriceTable p = PriceTable.from(c);
        // (1000·2.5 + 200·10) / 1e6
        assertThat(p.cost("openai:gpt-4o-2024-08-06", 1000, 200, 5000).dollars()).isCloseTo(0.0045, within(1e-12));
        // no price for the local model: $4.10/h × 1.8 s
        PriceTable.Cost gpu = p.cost("local", 1000, 200, 1800);
        assertThat(gpu.dollars()).isCloseTo(4.10 * 1.8 / 3600, within(1e-12));
        assertThat(gpu.basis()).contains("4.10");
        assertThat(PriceTable.from(Config.defaults().with("eval.gpu_hour_rate", "2")).cost("x", 0, 0, 3_600_000).dollars()).isEqualTo(2.0);
    }
}
