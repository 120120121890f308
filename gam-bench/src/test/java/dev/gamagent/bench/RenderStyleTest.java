package dev.gamagent.bench;

import dev.gamagent.bench.SceneTruth.PlacedShape;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RenderStyleTest {
    private static final List<Family> ALL = Arrays.asList(Family.values());

    @Test
    void variedRenderingIsFixedByTheSeed() {
        BenchmarkGenerator a = new BenchmarkGenerator(9, 0.25, RenderStyle.Render.VARIED);
        BenchmarkGenerator b = new BenchmarkGenerator(9, 0.25, RenderStyle.Render.VARIED);
        for (int i = 0; i < 12; i++) {
            Family f = Family.values()[i % 6];
            BenchItem x = a.generate(i, f), y = b.generate(i, f);
            assertThat(x.render()).isEqualTo(y.render());
            assertThat(BenchmarkWriter.tsvRow(x)).isEqualTo(BenchmarkWriter.tsvRow(y));
        }
    }

    @Test
    void variedItemsCoverEveryChoiceAndAreDrawnAtTheirStylesSize() {
        List<BenchItem> items = new BenchmarkGenerator(4, 0.25, RenderStyle.Render.VARIED).generate(60, ALL);
        Set<String> tags = new HashSet<>();
        for (BenchItem it : items) {
            tags.addAll(it.render().tags());
            assertThat(it.image().getWidth()).isEqualTo(it.render().width());
            assertThat(it.image().getHeight()).isEqualTo(it.render().height());
            assertThat(Math.min(it.image().getWidth(), it.image().getHeight())).isGreaterThanOrEqualTo(300);
        }
        assertThat(tags).contains("aa-on", "aa-off", "filled", "outlined", "jpeg", "lossless", "aspect 4:3", "aspect 1:1", "aspect 3:4",
                "font Serif", "font Monospaced");
        assertThat(items.stream().map(it -> it.render().font()).distinct().count()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void classicRenderingIsTheDefaultAndKeepsTheOriginalLook() {
        BenchItem it = new BenchmarkGenerator(42).generate(1, Family.COUNT);
        assertThat(it.render()).isEqualTo(RenderStyle.CLASSIC);
        assertThat(it.image().getHeight()).isEqualTo((it.image().getWidth() * 3 / 4) & ~1);
        assertThat(RenderStyle.Render.parse("Varied")).isEqualTo(RenderStyle.Render.VARIED);
        assertThatThrownBy(() -> RenderStyle.Render.parse("fancy")).hasMessageContaining("--render").hasMessageContaining("classic or varied");
    }

    @Test
    void outlinedShapesLeaveTheirInsideBackgroundAndFilledOnesDoNot() {
        int outlined = 0, filled = 0;
        for (BenchItem it : new BenchmarkGenerator(6, 0.0, RenderStyle.Render.VARIED).generate(60, List.of(Family.COLOR, Family.SHAPE))) {
            if (it.render().jpegQuality() > 0 || !it.difficulty().equals("easy")) continue;
            for (PlacedShape s : it.truth().shapes()) {
                if (s.radius() < 20 || s.shape().equals("star")) continue;
                int centre = it.image().getRGB((int) s.cx(), (int) s.cy()) & 0xFFFFFF;
                int corner = it.image().getRGB(1, 1) & 0xFFFFFF;
                if (it.render().outlined()) { assertThat(centre).as(it.index() + " " + s).isEqualTo(corner); outlined++; }
                else { assertThat(centre).as(it.index() + " " + s).isNotEqualTo(corner); filled++; }
            }
        }
        assertThat(outlined).isPositive();
        assertThat(filled).isPositive();
    }

    @Test
    void aJpegRoundTripKeepsTheSizeAndChangesEdgePixels() {
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 64, 48);
        g.setColor(new Color(215, 38, 38));
        g.fillRect(10, 10, 21, 17);
        g.dispose();
        BufferedImage j = Canvas.jpeg(img, 0.5);
        assertThat(j.getWidth()).isEqualTo(64);
        assertThat(j.getHeight()).isEqualTo(48);
        List<Integer> changed = new ArrayList<>();
        for (int y = 0; y < 48; y++) for (int x = 0; x < 64; x++) if (j.getRGB(x, y) != img.getRGB(x, y)) changed.add(y * 64 + x);
        assertThat(changed).isNotEmpty();
    }

    @Test
    void aStyleNeedsAConsistentSizeAndQuality() {
        assertThatThrownBy(() -> new RenderStyle(true, false, "Serif", false, 1.5, 0, 0)).hasMessageContaining("jpegQuality");
        assertThatThrownBy(() -> new RenderStyle(true, false, "Serif", false, 0, 400, 0)).hasMessageContaining("both");
    }
}
