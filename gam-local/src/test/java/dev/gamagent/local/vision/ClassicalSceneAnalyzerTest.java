package dev.gamagent.local.vision;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.SceneTruth;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The analyser on generated images: it sees pixels only; the ground truth is used to grade it. */
class ClassicalSceneAnalyzerTest {
    private static final ClassicalSceneAnalyzer ANALYZER = new ClassicalSceneAnalyzer();
    private static final Map<Family, List<BenchItem>> ITEMS = new LinkedHashMap<>();
    private static final Map<Family, List<Scene>> SCENES = new LinkedHashMap<>();

    @BeforeAll
    static void generate() {
        BenchmarkGenerator gen = new BenchmarkGenerator(20261130L);
        for (Family f : Family.values()) {
            List<BenchItem> items = new ArrayList<>();
            List<Scene> scenes = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                BenchItem it = gen.generate(i, f);
                items.add(it);
                scenes.add(ANALYZER.analyze(it.image()));
            }
            ITEMS.put(f, items);
            SCENES.put(f, scenes);
        }
    }

    /** Accuracy of the analyser alone on the family's items of the easy and medium tiers ({@code hard} false) or the hard tier. */
    private static double familyAccuracy(Family f, boolean hard) {
        int ok = 0, n = 0;
        for (int i = 0; i < ITEMS.get(f).size(); i++) {
            BenchItem it = ITEMS.get(f).get(i);
            if (isHard(it) != hard) continue;
            n++;
            if (it.answerText().equals(SceneAnswers.answer(it, SCENES.get(f).get(i)))) ok++;
        }
        return n == 0 ? Double.NaN : (double) ok / n;
    }

    private static boolean isHard(BenchItem it) { return it.difficulty().equals("hard"); }

    /** Easy and medium shapes are separated by 8 px and large; hard ones (small, touching, noisy) are reported only. */
    @Test
    void namesTheColourAndShapeOfNearlyEveryShapeOfTheEasyAndMediumTiers() {
        int total = 0, colorOk = 0, shapeOk = 0, found = 0;
        int hardTotal = 0, hardFound = 0;
        for (Family f : List.of(Family.COUNT, Family.COLOR, Family.SHAPE, Family.SPATIAL)) {
            for (int i = 0; i < ITEMS.get(f).size(); i++) {
                if (isHard(ITEMS.get(f).get(i))) {
                    for (SceneTruth.PlacedShape s : ITEMS.get(f).get(i).truth().shapes()) {
                        hardTotal++;
                        DetectedObject o = SceneAnswers.match(SCENES.get(f).get(i).objects(), s);
                        if (o != null && o.color().equals(s.color()) && o.shape().equals(s.shape())) hardFound++;
                    }
                    continue;
                }
                for (SceneTruth.PlacedShape s : ITEMS.get(f).get(i).truth().shapes()) {
                    total++;
                    DetectedObject o = SceneAnswers.match(SCENES.get(f).get(i).objects(), s);
                    if (o == null) continue;
                    found++;
                    if (o.color().equals(s.color())) colorOk++;
                    if (o.shape().equals(s.shape())) shapeOk++;
                }
            }
        }
        System.out.printf("analyser on %d easy/medium shapes: found %.3f, colour %.3f, shape %.3f; hard tier: %d/%d found with both right%n", total,
                (double) found / total, (double) colorOk / total, (double) shapeOk / total, hardFound, hardTotal);
        assertThat(hardTotal).as("the generated set has hard items").isPositive();
        assertThat(found).isEqualTo(total);
        assertThat((double) colorOk / total).isGreaterThan(0.97);
        assertThat((double) shapeOk / total).isGreaterThan(0.97);
    }

    /** Varied rendering (outlined shapes, no anti-aliasing, JPEG, other sizes): the same shapes must still be found and named. */
    @Test
    void namesEasyAndMediumShapesInEveryRenderStyleIncludingOutlines() {
        BenchmarkGenerator gen = new BenchmarkGenerator(20261201L, 0.0, dev.gamagent.bench.RenderStyle.Render.VARIED);
        Map<String, int[]> perTag = new java.util.TreeMap<>();
        List<Family> fams = List.of(Family.COUNT, Family.COLOR, Family.SHAPE, Family.SPATIAL);
        for (int i = 0; i < 80; i++) {
            BenchItem it = gen.generate(i, fams.get(i % 4));
            Scene scene = ANALYZER.analyze(it.image());
            for (SceneTruth.PlacedShape s : it.truth().shapes()) {
                DetectedObject o = SceneAnswers.match(scene.objects(), s);
                boolean ok = o != null && o.color().equals(s.color()) && o.shape().equals(s.shape());
                for (String tag : it.render().tags()) {
                    int[] t = perTag.computeIfAbsent(tag, k -> new int[2]);
                    t[1]++;
                    if (ok) t[0]++;
                }
            }
        }
        perTag.forEach((tag, t) -> System.out.printf("analyser, varied rendering, %s: %d/%d shapes found with colour and shape right%n", tag, t[0], t[1]));
        assertThat(perTag).containsKeys("outlined", "aa-off", "jpeg");
        perTag.forEach((tag, t) -> assertThat((double) t[0] / t[1]).as(tag).isGreaterThan(0.95));
    }

    @Test
    void doesNotReportGlyphsOfTextAsObjectsInAnyRenderStyle() {
        BenchmarkGenerator gen = new BenchmarkGenerator(20261202L, 0.25, dev.gamagent.bench.RenderStyle.Render.VARIED);
        for (int i = 0; i < 30; i++) {
            BenchItem it = gen.generate(i, Family.TEXT);
            for (DetectedObject o : ANALYZER.analyze(it.image()).objects()) {
                for (SceneTruth.PlacedText t : it.truth().texts()) {
                    assertThat(t.box().contains(o.box()))
                            .as("object %s %s at %s inside text '%s' of item %d (%s)", o.color(), o.shape(), o.box(), t.text(), i, it.render()).isFalse();
                }
            }
        }
    }

    @Test
    void answersEasyAndMediumCountColourShapeAndSpatialQuestionsFromPixelsAlone() {
        for (Family f : List.of(Family.COUNT, Family.COLOR, Family.SHAPE, Family.SPATIAL)) {
            double acc = familyAccuracy(f, false);
            System.out.printf("analyser alone, family %s: accuracy %.3f on easy/medium items, %.3f on hard items%n",
                    f.category(), acc, familyAccuracy(f, true));
            assertThat(acc).as(f.category()).isGreaterThanOrEqualTo(0.95);
        }
    }

    /** The hard tier is built to defeat pixel statistics (touching same-coloured shapes, 8–18 px radii, noise). */
    @Test
    void countsHardScenesWithTouchingShapesLessReliablyThanEasyAndMediumOnes() {
        assertThat(familyAccuracy(Family.COUNT, true)).isLessThan(familyAccuracy(Family.COUNT, false));
    }

    @Test
    void placesEasyAndMediumObjectBoxesWithinAFewPixelsOfTheTrueShapes() {
        double sum = 0, max = 0;
        int n = 0;
        for (int i = 0; i < ITEMS.get(Family.COUNT).size(); i++) {
            if (isHard(ITEMS.get(Family.COUNT).get(i))) continue;
            for (SceneTruth.PlacedShape s : ITEMS.get(Family.COUNT).get(i).truth().shapes()) {
                DetectedObject o = SceneAnswers.match(SCENES.get(Family.COUNT).get(i).objects(), s);
                assertThat(o).as("shape %s at %.0f,%.0f in item %d", s.name(), s.cx(), s.cy(), i).isNotNull();
                double d = Math.hypot(o.centerX() - s.box().getCenterX(), o.centerY() - s.box().getCenterY());
                sum += d;
                max = Math.max(max, d);
                n++;
                assertThat(s.box().contains(o.box()) || s.box().intersects(o.box())).isTrue();
            }
        }
        System.out.printf("object box centre error vs drawn box: mean %.2f px, max %.2f px over %d objects%n", sum / n, max, n);
        assertThat(sum / n).isLessThan(1.5);
        assertThat(max).isLessThan(4);
    }

    @Test
    void readsEveryBarOfABarChartWithItsExactHeightAndTheBaseline() {
        for (int i = 0; i < ITEMS.get(Family.CHART).size(); i++) {
            SceneTruth.ChartTruth t = ITEMS.get(Family.CHART).get(i).truth().chart();
            Scene.Chart c = SCENES.get(Family.CHART).get(i).chart();
            assertThat(c).as("chart item %d", i).isNotNull();
            assertThat(c.baselineY()).isEqualTo(t.baselineY());
            assertThat(c.bars()).hasSameSizeAs(t.bars());
            for (int b = 0; b < t.bars().size(); b++) {
                assertThat(c.bars().get(b).box().height).as("bar %d of item %d", b, i).isCloseTo(t.bars().get(b).height, within(1));
                assertThat(c.bars().get(b).box().getCenterX()).isCloseTo(t.bars().get(b).getCenterX(), within(1.0));
                assertThat(c.bars().get(b).color()).isEqualTo(t.barColors().get(b));
            }
            assertThat(c.plotArea().x).isCloseTo(t.plotArea().x, within(3));
            assertThat(c.plotArea().y).as("the axis is drawn 6 px above the top tick").isCloseTo(t.plotArea().y, within(12));
            assertThat(SCENES.get(Family.CHART).get(i).objects()).as("axes, ticks and labels are not objects").isEmpty();
        }
    }

    @Test
    void readsChartsDownscaledToHalfSizeToWithinOnePercentOfThePlotHeight() {
        for (int i = 0; i < ITEMS.get(Family.CHART).size(); i++) {
            SceneTruth.ChartTruth t = ITEMS.get(Family.CHART).get(i).truth().chart();
            BufferedImage half = new Picture("t", ITEMS.get(Family.CHART).get(i).image()).scaled(0.5, 0).image();
            Scene.Chart c = ANALYZER.analyze(half).chart();
            assertThat(c).as("chart item %d at 0.5x", i).isNotNull();
            assertThat(c.bars()).hasSameSizeAs(t.bars());
            for (int b = 0; b < t.bars().size(); b++) {
                double rel = Math.abs(c.bars().get(b).box().height - t.bars().get(b).height * 0.5) / (t.plotArea().height * 0.5);
                assertThat(rel).as("bar %d of item %d", b, i).isLessThan(0.01);
            }
        }
    }

    @Test
    void readsChartsDoubledInSizeWithExactlyTheDrawnBarsAndTheirHeights() {
        for (int i = 0; i < ITEMS.get(Family.CHART).size(); i++) {
            SceneTruth.ChartTruth t = ITEMS.get(Family.CHART).get(i).truth().chart();
            BufferedImage twice = new Picture("t", ITEMS.get(Family.CHART).get(i).image()).scaled(2.0, 0).image();
            Scene.Chart c = ANALYZER.analyze(twice).chart();
            assertThat(c).as("chart item %d at 2x", i).isNotNull();
            assertThat(c.bars()).as("bars of chart item %d at 2x", i).hasSameSizeAs(t.bars());
            for (int b = 0; b < t.bars().size(); b++) {
                double rel = Math.abs(c.bars().get(b).box().height - t.bars().get(b).height * 2.0) / (t.plotArea().height * 2.0);
                assertThat(rel).as("bar %d of item %d", b, i).isLessThan(0.01);
                assertThat(c.bars().get(b).color()).isEqualTo(t.barColors().get(b));
            }
        }
    }

    @Test
    void findsNoChartInShapeScenes() {
        for (Family f : List.of(Family.COUNT, Family.COLOR, Family.SHAPE, Family.SPATIAL)) {
            for (Scene s : SCENES.get(f)) assertThat(s.chart()).isNull();
        }
    }

    @Test
    void doesNotReportGlyphsOfTextAsObjects() {
        for (int i = 0; i < ITEMS.get(Family.TEXT).size(); i++) {
            BenchItem it = ITEMS.get(Family.TEXT).get(i);
            for (DetectedObject o : SCENES.get(Family.TEXT).get(i).objects()) {
                for (SceneTruth.PlacedText t : it.truth().texts()) {
                    assertThat(t.box().contains(o.box()))
                            .as("object %s %s at %s inside text '%s' of item %d", o.color(), o.shape(), o.box(), t.text(), i).isFalse();
                }
            }
        }
    }

    @Test
    void givesGradedScoresThatSumToOneAndAreLessSureOnSmallObjects() {
        double bigTop = 0, smallTop = 0;
        int big = 0, small = 0;
        for (Family f : List.of(Family.COUNT, Family.SHAPE)) {
            for (int i = 0; i < ITEMS.get(f).size(); i++) {
                for (SceneTruth.PlacedShape s : ITEMS.get(f).get(i).truth().shapes()) {
                    DetectedObject o = SceneAnswers.match(SCENES.get(f).get(i).objects(), s);
                    if (o == null) continue; // merged with a touching neighbour (hard tier)
                    for (Map<String, Double> m : List.of(o.shapeScores(), o.colorScores())) {
                        assertThat(m.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-9));
                        assertThat(m.values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
                    }
                    assertThat(o.shapeScores().keySet()).containsExactlyElementsOf(ShapeClassifier.CLASSES);
                    assertThat(o.colorScores().keySet()).containsExactlyElementsOf(ColorClassifier.CLASSES);
                    double top = SceneAnswers.top(o.shapeScores()).getValue();
                    if (s.radius() >= 30) { bigTop += top; big++; }
                    if (s.radius() <= 14) { smallTop += top; small++; }
                }
            }
        }
        assertThat(big).isPositive();
        assertThat(small).isPositive();
        assertThat(smallTop / small).isLessThan(bigTop / big);
    }

    @Test
    void losesAccuracyOnSmallObjectsWhenTheImageIsHalvedSoScaleMatters() {
        int full = 0, half = 0, n = 0;
        for (Family f : List.of(Family.COUNT, Family.COLOR, Family.SHAPE)) {
            for (int i = 0; i < ITEMS.get(f).size(); i++) {
                BenchItem it = ITEMS.get(f).get(i);
                if (!it.difficulty().equals("hard")) continue;
                n++;
                // the full-size image was analysed once for the class (the analyser keeps no state between images)
                if (it.answerText().equals(SceneAnswers.answer(it, SCENES.get(f).get(i)))) full++;
                BufferedImage small = new Picture("t", it.image()).scaled(0.5, 0).image();
                if (it.answerText().equals(SceneAnswers.answer(it, ANALYZER.analyze(small)))) half++;
            }
        }
        System.out.printf("hard count/colour/shape items: %d/%d right at 1.0x, %d/%d at 0.5x%n", full, n, half, n);
        assertThat(n).isGreaterThan(5);
        assertThat(half).isLessThan(full);
    }

    @Test
    void findsNothingOnABlankImage() {
        BufferedImage img = new BufferedImage(320, 240, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(new Color(240, 240, 235));
        g.fillRect(0, 0, 320, 240);
        g.dispose();
        Scene s = ANALYZER.analyze(img);
        assertThat(s.objects()).isEmpty();
        assertThat(s.chart()).isNull();
        assertThat(s.width()).isEqualTo(320);
    }

    @Test
    void analysesA640By480ImageInWellUnderATenthOfASecondOfCpu() {
        List<BufferedImage> images = new ArrayList<>();
        BenchmarkGenerator gen = new BenchmarkGenerator(5);
        for (int i = 0; images.size() < 12; i++) {
            BenchItem it = gen.generate(i, Family.values()[i % Family.values().length]);
            if (it.image().getWidth() == 640) images.add(it.image());
        }
        for (BufferedImage img : images) ANALYZER.analyze(img);
        var mx = ManagementFactory.getThreadMXBean();
        long[] cpu = new long[images.size()];
        for (int i = 0; i < images.size(); i++) {
            long t0 = mx.getCurrentThreadCpuTime();
            ANALYZER.analyze(images.get(i));
            cpu[i] = mx.getCurrentThreadCpuTime() - t0;
        }
        Arrays.sort(cpu);
        System.out.printf("640x480 analysis, thread CPU: median %.1f ms, max %.1f ms%n", cpu[cpu.length / 2] / 1e6, cpu[cpu.length - 1] / 1e6);
        assertThat(cpu[cpu.length / 2] / 1e6).isLessThan(100);
    }
}
