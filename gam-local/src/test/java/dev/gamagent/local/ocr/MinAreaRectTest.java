package dev.gamagent.local.ocr;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MinAreaRectTest {
    @Test
    void recoversTheSizeAndAngleOfARotatedRectangle() {
        double angle = Math.toRadians(12), c = Math.cos(angle), s = Math.sin(angle);
        List<double[]> pts = new ArrayList<>();
        for (double u = -50; u <= 50; u += 2)
            for (double v = -10; v <= 10; v += 2) pts.add(new double[]{200 + u * c - v * s, 100 + u * s + v * c});
        RotatedBox box = MinAreaRect.of(pts, 1);
        assertThat(box.width()).isCloseTo(100, within(0.01));
        assertThat(box.height()).isCloseTo(20, within(0.01));
        assertThat(box.angle()).isCloseTo(angle, within(1e-6));
        assertThat(box.cx()).isCloseTo(200, within(1e-6));
        assertThat(box.cy()).isCloseTo(100, within(1e-6));
    }

    @Test
    void anUprightTallRectangleIsExpressedWithItsLongSideAsHeight() {
        List<double[]> pts = List.of(new double[]{0, 0}, new double[]{10, 0}, new double[]{10, 40}, new double[]{0, 40});
        RotatedBox box = MinAreaRect.of(pts, 1);
        assertThat(Math.abs(box.angle())).isLessThanOrEqualTo(Math.PI / 4);
        assertThat(box.width()).isCloseTo(10, within(1e-9));
        assertThat(box.height()).isCloseTo(40, within(1e-9));
    }

    @Test
    void boxesContinuingOneLineAreMergedButSeparateLinesAreNot() {
        RotatedBox left = new RotatedBox(50, 20, 80, 20, 0, 0.9);
        RotatedBox right = new RotatedBox(130, 21, 60, 20, 0, 0.8);
        RotatedBox below = new RotatedBox(50, 60, 80, 20, 0, 0.9);
        RotatedBox farRight = new RotatedBox(400, 20, 60, 20, 0, 0.9);
        List<RotatedBox> merged = TextDetector.mergeLines(List.of(left, right, below, farRight), 0.75);
        assertThat(merged).hasSize(3);
        RotatedBox line = merged.stream().filter(b -> b.cy() < 40 && b.cx() < 300).findFirst().orElseThrow();
        assertThat(line.width()).isCloseTo(150, within(1.5));
    }
}
