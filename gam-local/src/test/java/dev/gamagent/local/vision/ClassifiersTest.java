package dev.gamagent.local.vision;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ClassifiersTest {
    private final ColorClassifier colors = new ColorClassifier();

    private String name(int r, int g, int b) { return ColorClassifier.argmax(colors.scores(r, g, b)); }

    @Test
    void namesPureAndJitteredPaletteColours() {
        assertThat(name(215, 38, 38)).isEqualTo("red");
        assertThat(name(46, 158, 64)).isEqualTo("green");
        assertThat(name(38, 82, 214)).isEqualTo("blue");
        assertThat(name(240, 208, 36)).isEqualTo("yellow");
        assertThat(name(242, 132, 24)).isEqualTo("orange");
        assertThat(name(134, 58, 178)).isEqualTo("purple");
        assertThat(name(24, 24, 24)).isEqualTo("black");
        assertThat(name(128, 128, 128)).isEqualTo("gray");
        assertThat(name(250, 124, 32)).isEqualTo("orange");
        assertThat(name(248, 200, 44)).isEqualTo("yellow");
    }

    @Test
    void namesColoursBlendedTowardsALightBackgroundByHue() {
        // 35 % towards (212, 212, 206), as the generator's low-contrast items do.
        assertThat(name(214, 99, 97)).isEqualTo("red");
        assertThat(name(230, 209, 96)).isEqualTo("yellow");
        assertThat(name(161, 112, 188)).isEqualTo("purple");
        assertThat(name(90, 90, 90)).isEqualTo("black");
        assertThat(name(157, 157, 157)).isEqualTo("gray");
    }

    @Test
    void ambiguousColoursGetSplitScores() {
        Map<String, Double> between = colors.scores(245, 170, 30); // hue 40°: between orange (30°) and yellow (51°)
        assertThat(between.get("orange") + between.get("yellow")).isGreaterThan(0.95);
        assertThat(between.get("orange")).isBetween(0.2, 0.8);
        assertThat(colors.scores(215, 38, 38).get("red")).isGreaterThan(0.99);
    }

    @Test
    void hullCircularityOfADigitalSquareIsAQuarterPi() {
        int n = 40;
        boolean[] mask = new boolean[n * n];
        java.util.Arrays.fill(mask, true);
        ShapeFeatures f = ShapeFeatures.of(mask, n, n);
        assertThat(f.circularity()).isCloseTo(Math.PI / 4, within(0.01));
        assertThat(f.solidity()).isCloseTo(1.0, within(0.02));
        assertThat(f.corners()).isEqualTo(4);
        assertThat(f.dominantHarmonic()).isEqualTo(4);
    }

    @Test
    void aDigitalDiskIsRoundAndHasNoDominantHarmonicAmplitude() {
        int n = 61;
        boolean[] mask = new boolean[n * n];
        for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) mask[y * n + x] = Math.hypot(x - 30, y - 30) <= 30;
        ShapeFeatures f = ShapeFeatures.of(mask, n, n);
        assertThat(f.circularity()).isGreaterThan(0.98);
        for (int k = 3; k <= 6; k++) assertThat(f.harmonics()[k]).isLessThan(0.02);
        Map<String, Double> s = new ShapeClassifier().scores(f);
        assertThat(ColorClassifier.argmax(s)).isEqualTo("circle");
    }
}
