package dev.gamagent.local.ocr;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the real PP-OCRv4 networks on rendered text; one engine for the class (loading takes a second). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PpOcrEngineTest {
    private PpOcrEngine engine;

    @BeforeAll
    void loadModels() { engine = PpOcrEngine.create(); }

    @AfterAll
    void releaseModels() { engine.close(); }

    @Test
    void readsTwentyPixelTextAndLargerAlmostAlwaysExactly() {
        int lines = 0, exact = 0;
        for (int size : new int[]{20, 32}) {
            OcrAccuracy.Cell c = OcrAccuracy.measure(engine, size, 1.0, 6, 11);
            lines += c.lines();
            exact += c.exact();
        }
        assertThat(exact / (double) lines).as("exact line accuracy at ≥ 20 px").isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void smallTextIsReadWorseAtHalfScaleThanAtDoubleScale() {
        OcrAccuracy.Cell half = OcrAccuracy.measure(engine, 12, 0.5, 6, 5);
        OcrAccuracy.Cell twice = OcrAccuracy.measure(engine, 12, 2.0, 6, 5);
        assertThat(twice.exactRate()).isGreaterThanOrEqualTo(0.75);
        assertThat(half.exactRate()).isLessThan(twice.exactRate() - 0.25);
    }

    @Test
    void everyCharacterCarriesATopFiveDistributionWhoseFirstCandidateIsThatCharacter() {
        TextImages.Rendered r = TextImages.render(List.of("Harbor 2024", "violet Quartz"), "Serif", 22, false, 4, 3);
        List<TextLine> read = engine.read(r.image());
        assertThat(read).isNotEmpty();
        for (TextLine line : read) {
            assertThat(line.chars()).hasSize(line.text().length());
            for (int i = 0; i < line.text().length(); i++) {
                var top = line.chars().get(i).top();
                assertThat(top).hasSizeGreaterThanOrEqualTo(5);
                assertThat(top.get(0).character()).isEqualTo(String.valueOf(line.text().charAt(i)));
                double sum = 0, prev = 1;
                for (TextLine.Candidate c : top) {
                    assertThat(c.probability()).isBetween(0.0, prev);
                    prev = c.probability();
                    sum += c.probability();
                }
                assertThat(sum).isLessThanOrEqualTo(1.0 + 1e-6);
            }
            assertThat(line.meanConfidence()).isBetween(0.5, 1.0);
            assertThat(line.detectionScore()).isBetween(0.5, 1.0);
        }
    }

    @Test
    void blankImagesYieldNoLines() {
        for (Color bg : new Color[]{Color.WHITE, new Color(20, 24, 40)}) {
            BufferedImage img = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = img.createGraphics();
            g.setColor(bg);
            g.fillRect(0, 0, 320, 200);
            g.dispose();
            Random rnd = new Random(1);
            for (int y = 0; y < 200; y++)
                for (int x = 0; x < 320; x++) {
                    int n = (int) (rnd.nextGaussian() * 3);
                    int v = Math.max(0, Math.min(255, (bg.getRed() + n)));
                    img.setRGB(x, y, (v << 16) | (Math.max(0, Math.min(255, bg.getGreen() + n)) << 8) | Math.max(0, Math.min(255, bg.getBlue() + n)));
                }
            assertThat(engine.read(img)).isEmpty();
        }
    }

    @Test
    void findsEveryLineOfAMultiLineImageInReadingOrderWithMatchingBoxes() {
        List<String> truth = List.of("Museum 1887", "purple Anchor", "RIVER STATION");
        TextImages.Rendered r = TextImages.render(truth, "SansSerif", 24, true, 3, 9);
        List<TextLine> read = engine.read(r.image());
        assertThat(read).extracting(TextLine::text).containsExactlyElementsOf(truth);
        for (int i = 0; i < truth.size(); i++) {
            Rectangle want = r.boxes().get(i), got = read.get(i).box();
            assertThat(iou(want, got)).as("box of line %d: %s vs %s", i, got, want).isGreaterThan(0.5);
        }
    }

    @Test
    void readsMildlyRotatedLinesThroughTheirMinimumAreaBox() {
        for (double degrees : new double[]{-8, 6}) {
            BufferedImage img = new BufferedImage(420, 200, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = img.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, 420, 200);
            g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.BLACK);
            g.setFont(new java.awt.Font("SansSerif", java.awt.Font.PLAIN, 28));
            g.rotate(Math.toRadians(degrees), 210, 100);
            g.drawString("Tilted Harbor 42", 85, 110);
            g.dispose();
            assertThat(engine.read(img)).extracting(TextLine::text).as("at %s°", degrees).containsExactly("Tilted Harbor 42");
        }
    }

    @Test
    void readsAPreCroppedLineWithoutDetection() {
        TextImages.Rendered r = TextImages.render(List.of("Falcon 42"), "Monospaced", 28, true, 2, 4);
        Rectangle b = r.boxes().get(0);
        TextLine line = engine.readLine(r.image().getSubimage(b.x - 4, b.y, b.width + 8, b.height));
        assertThat(line.text()).isEqualTo("Falcon 42");
        assertThat(line.box()).isEqualTo(new Rectangle(0, 0, b.width + 8, b.height));
    }

    @Test
    void concurrentReadsOnOneEngineAgreeWithSequentialReads() throws Exception {
        TextImages.Rendered a = TextImages.render(List.of("silver Rocket"), "SansSerif", 26, true, 3, 1);
        TextImages.Rendered b = TextImages.render(List.of("banana 7781"), "Serif", 26, false, 3, 2);
        String wantA = engine.read(a.image()).get(0).text(), wantB = engine.read(b.image()).get(0).text();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<TextLine>> fa = pool.submit(() -> engine.read(a.image()));
            Future<List<TextLine>> fb = pool.submit(() -> engine.read(b.image()));
            assertThat(fa.get().get(0).text()).isEqualTo(wantA).isEqualTo("silver Rocket");
            assertThat(fb.get().get(0).text()).isEqualTo(wantB).isEqualTo("banana 7781");
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void theOptionalCacheReturnsTheSameResultForTheSamePixels() {
        try (PpOcrEngine cached = PpOcrEngine.create(PpOcrOptions.defaults().withCacheSize(4))) {
            TextImages.Rendered r = TextImages.render(List.of("Meadow"), "SansSerif", 24, true, 0, 1);
            List<TextLine> first = cached.read(r.image());
            assertThat(cached.read(r.image())).isSameAs(first);
            assertThat(first).extracting(TextLine::text).containsExactly("Meadow");
        }
    }

    private static double iou(Rectangle a, Rectangle b) {
        Rectangle i = a.intersection(b);
        if (i.isEmpty()) return 0;
        double inter = (double) i.width * i.height;
        return inter / ((double) a.width * a.height + (double) b.width * b.height - inter);
    }
}
