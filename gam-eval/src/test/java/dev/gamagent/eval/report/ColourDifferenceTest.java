package dev.gamagent.eval.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The colour metric the palette test relies on, checked on published figures before it checks anything else. */
class ColourDifferenceTest {
    /**
     * Sharma, Wu &amp; Dalal (2005), Table 1: the 34 pairs (L1, a1, b1, L2, a2, b2, ΔE00) chosen to exercise every branch of
     * the formula (hue angle wrap-around, the mean hue across 0°, the rotation term near 275°).
     */
    private static final double[][] SHARMA_2005 = {
            {50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425},
            {50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615},
            {50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412},
            {50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000},
            {50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000},
            {50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000},
            {50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669},
            {50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669},
            {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792},
            {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792},
            {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195},
            {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195},
            {50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045},
            {50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045},
            {50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461},
            {50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065},
            {50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492},
            {50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977},
            {50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030},
            {50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535},
            {50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000},
            {50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000},
            {50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000},
            {50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000},
            {60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644},
            {63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630},
            {61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731},
            {35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645},
            {22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373},
            {36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146},
            {90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441},
            {90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381},
            {6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377},
            {2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082},
    };

    @Test void ciede2000MatchesSharmasThirtyFourPublishedPairsBothWays() {
        for (double[] p : SHARMA_2005) {
            double[] a = {p[0], p[1], p[2]}, b = {p[3], p[4], p[5]};
            assertThat(ColourDifference.deltaE2000(a, b)).as("pair %s", java.util.Arrays.toString(p)).isCloseTo(p[6], within(1e-4));
            assertThat(ColourDifference.deltaE2000(b, a)).as("symmetric: %s", java.util.Arrays.toString(p)).isCloseTo(p[6], within(1e-4));
        }
    }

    /** sRGB white and black are L* 100 and 0; pure red's CIELAB is (53.24, 80.09, 67.20) (D65). */
    @Test void srgbToLabMeetsTheKnownPoints() {
        assertThat(ColourDifference.lab("#FFFFFF", ColourDifference.Vision.NORMAL)[0]).isCloseTo(100, within(1e-3));
        assertThat(ColourDifference.lab("#000000", ColourDifference.Vision.NORMAL)[0]).isCloseTo(0, within(1e-9));
        double[] red = ColourDifference.lab("#FF0000", ColourDifference.Vision.NORMAL);
        assertThat(red[0]).isCloseTo(53.24, within(0.01));
        assertThat(red[1]).isCloseTo(80.09, within(0.02));
        assertThat(red[2]).isCloseTo(67.20, within(0.02));
    }

    /**
     * The simulation keeps greys grey (each row of Machado's matrices sums to 1) and makes the colours dichromats confuse
     * nearly the same: this red and green, far apart in normal vision (ΔE 53), are 4 apart under deuteranopia, 19 under protanopia.
     */
    @Test void dichromatSimulationConfusesRedAndGreenButNotGreys() {
        for (ColourDifference.Vision v : ColourDifference.Vision.values()) {
            assertThat(ColourDifference.deltaE("#777777", "#777777", v)).isZero();
            double[] grey = ColourDifference.lab("#808080", v);
            assertThat(Math.hypot(grey[1], grey[2])).as("%s grey stays neutral", v).isLessThan(0.5);
        }
        String red = "#C04040", green = "#6A8A2F";
        double normal = ColourDifference.deltaE(red, green, ColourDifference.Vision.NORMAL);
        assertThat(normal).isGreaterThan(50);
        assertThat(ColourDifference.deltaE(red, green, ColourDifference.Vision.DEUTERANOPIA)).isLessThan(5);
        assertThat(ColourDifference.deltaE(red, green, ColourDifference.Vision.PROTANOPIA)).isLessThan(normal / 2);
    }
}
