package dev.gamagent.bench;

import dev.gamagent.bench.SceneTruth.PlacedShape;
import dev.gamagent.bench.SceneTruth.PlacedText;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkGeneratorTest {
    private static final List<BenchItem> ITEMS = new ArrayList<>();

    @BeforeAll
    static void generate() {
        ITEMS.addAll(new BenchmarkGenerator(42).generate(120, Arrays.asList(Family.values())));
    }

    private static void sameQuestions(List<BenchItem> generated, List<BenchItem> asked) {
        assertThat(asked).hasSameSizeAs(generated);
        for (int i = 0; i < generated.size(); i++) {
            BenchItem it = generated.get(i), q = asked.get(i);
            assertThat(List.of(q.index(), q.question(), q.hint(), q.options(), q.answer(), q.family(), q.difficulty(), q.truth(), q.render()))
                    .as("item %d", i).isEqualTo(List.of(it.index(), it.question(), it.hint(), it.options(), it.answer(), it.family(),
                            it.difficulty(), it.truth(), it.render()));
            assertThat(List.of(q.image().getWidth(), q.image().getHeight())).isEqualTo(List.of(it.image().getWidth(), it.image().getHeight()));
        }
    }

    /** The questions-only path asks exactly what generate asks: every field but the unfinished image, in both renderings. */
    @Test
    void questionsAreTheGeneratedItemsWithoutTheirFinishedPixels() {
        List<BenchItem> asked = new BenchmarkGenerator(42).questions(120, Arrays.asList(Family.values()));
        List<BenchItem> varied = BenchmarkGenerator.withMix(7, 0.5, RenderStyle.Render.VARIED).generate(24, Arrays.asList(Family.values()));
        List<BenchItem> variedAsked = BenchmarkGenerator.withMix(7, 0.5, RenderStyle.Render.VARIED).questions(24, Arrays.asList(Family.values()));
        sameQuestions(ITEMS, asked);
        sameQuestions(varied, variedAsked);
        assertThat(varied).as("the varied set has hard items (speckled) and JPEG-finished ones")
                .anyMatch(it -> it.difficulty().equals("hard")).anyMatch(it -> it.render().jpegQuality() > 0);
    }

    @Test
    void sameSeedGivesByteIdenticalTsvRows() {
        BenchmarkGenerator a = new BenchmarkGenerator(9), b = new BenchmarkGenerator(9);
        for (int i = 0; i < 12; i++) {
            Family f = Family.values()[i % 6];
            assertThat(BenchmarkWriter.tsvRow(a.generate(i, f))).isEqualTo(BenchmarkWriter.tsvRow(b.generate(i, f)));
        }
    }

    @Test
    void differentSeedsGiveDifferentItems() {
        List<String> q1 = new BenchmarkGenerator(1).generate(12, Arrays.asList(Family.values())).stream().map(BenchmarkWriter::tsvRow).toList();
        List<String> q2 = new BenchmarkGenerator(2).generate(12, Arrays.asList(Family.values())).stream().map(BenchmarkWriter::tsvRow).toList();
        for (int i = 0; i < q1.size(); i++) assertThat(q1.get(i)).isNotEqualTo(q2.get(i));
    }

    @Test
    void cyclesThroughEveryFamilyWithItsContractCategories() {
        Map<Family, String[]> expected = Map.of(Family.TEXT, new String[] {"text", "ocr"},
                Family.COUNT, new String[] {"count", "counting"}, Family.COLOR, new String[] {"color", "attribute"},
                Family.SHAPE, new String[] {"shape", "attribute"}, Family.SPATIAL, new String[] {"spatial", "relation"},
                Family.CHART, new String[] {"chart", "chart"});
        for (int i = 0; i < ITEMS.size(); i++) {
            BenchItem it = ITEMS.get(i);
            assertThat(it.family()).isEqualTo(Family.values()[i % 6]);
            assertThat(it.category()).isEqualTo(expected.get(it.family())[0]);
            assertThat(it.l2Category()).isEqualTo(expected.get(it.family())[1]);
        }
        assertThat(ITEMS.stream().map(BenchItem::difficulty).distinct()).containsExactlyInAnyOrder("easy", "medium", "hard");
    }

    @Test
    void everyItemHasTwoToFourDistinctOptionsAndExactlyOneMatchesTheGroundTruth() {
        Set<String> answerLetters = new HashSet<>();
        for (BenchItem it : ITEMS) {
            assertThat(it.options().size()).as(it.question()).isBetween(2, 4);
            assertThat(List.copyOf(it.options().keySet())).isEqualTo(List.of("A", "B", "C", "D").subList(0, it.options().size()));
            assertThat(new HashSet<>(it.options().values())).hasSameSizeAs(it.options().values());
            assertThat(it.options().values()).allSatisfy(v -> assertThat(v).isEqualTo(v.toLowerCase()));
            answerLetters.add(it.answer());
            for (var e : it.options().entrySet()) {
                assertThat(isTrue(it, e.getValue())).as("item %d '%s' option %s=%s", it.index(), it.question(), e.getKey(), e.getValue())
                        .isEqualTo(e.getKey().equals(it.answer()));
            }
        }
        assertThat(answerLetters).contains("A", "B", "C", "D");
    }

    private static final Pattern COUNT_SHAPE = Pattern.compile("How many (\\w+)s are there in the image\\?");
    private static final Pattern COUNT_COLOR = Pattern.compile("How many (\\w+) objects are there in the image\\?");
    private static final Pattern COLOR = Pattern.compile("What color is the (\\w+)\\?");
    private static final Pattern SHAPE = Pattern.compile("What shape is the (\\w+) object\\?");
    private static final Pattern RELATION = Pattern.compile("Which object is (to the left of|above|nearest to) the (\\w+ \\w+)\\?");
    private static final Pattern LR = Pattern.compile("Is the (\\w+ \\w+) to the left of or to the right of the (\\w+ \\w+)\\?");
    private static final Pattern AB = Pattern.compile("Is the (\\w+ \\w+) above or below the (\\w+ \\w+)\\?");
    private static final Pattern VALUE = Pattern.compile("What is the value of the bar labeled (\\w+)\\?");
    private static final Pattern LARGER = Pattern.compile("Which is larger, (\\w+) or (\\w+)\\?");

    /** Whether {@code option} is a true answer, decided from the ground truth alone (independently of the generator's choice). */
    private static boolean isTrue(BenchItem it, String option) {
        String q = it.question();
        List<PlacedShape> shapes = it.truth().shapes();
        Matcher m;
        switch (it.family()) {
            case TEXT -> {
                String role = q.contains("sign") ? "sign" : q.contains("label") ? "label" : "small print";
                PlacedText t = it.truth().texts().stream().filter(x -> x.role().equals(role)).findFirst().orElseThrow();
                return t.text().equalsIgnoreCase(option);
            }
            case COUNT -> {
                Predicate<PlacedShape> p = q.equals("How many objects are there in the image?") ? s -> true
                        : (m = COUNT_SHAPE.matcher(q)).matches() && !q.contains(" objects ") ? shapeIs(m.group(1))
                        : colorIs(match(COUNT_COLOR, q).group(1));
                return shapes.stream().filter(p).count() == Long.parseLong(option);
            }
            case COLOR -> {
                String shape = match(COLOR, q).group(1);
                assertThat(shapes.stream().filter(shapeIs(shape)).count()).as("the asked shape is unique").isEqualTo(1);
                return shapes.stream().filter(shapeIs(shape)).findFirst().orElseThrow().color().equals(option);
            }
            case SHAPE -> {
                String color = match(SHAPE, q).group(1);
                assertThat(shapes.stream().filter(colorIs(color)).count()).as("the asked colour is unique").isEqualTo(1);
                return shapes.stream().filter(colorIs(color)).findFirst().orElseThrow().shape().equals(option);
            }
            case SPATIAL -> {
                assertThat(shapes.stream().map(PlacedShape::name).distinct().count()).isEqualTo(shapes.size());
                if ((m = LR.matcher(q)).matches()) {
                    return (named(shapes, m.group(1)).cx() < named(shapes, m.group(2)).cx()) == option.equals("left");
                }
                if ((m = AB.matcher(q)).matches()) {
                    return (named(shapes, m.group(1)).cy() < named(shapes, m.group(2)).cy()) == option.equals("above");
                }
                m = match(RELATION, q);
                PlacedShape ref = named(shapes, m.group(2)), o = named(shapes, option);
                return switch (m.group(1)) {
                    case "to the left of" -> o.cx() < ref.cx();
                    case "above" -> o.cy() < ref.cy();
                    default -> shapes.stream().filter(s -> s != ref)
                            .allMatch(s -> s == o || dist(s, ref) > dist(o, ref));
                };
            }
            case CHART -> {
                SceneTruth.ChartTruth c = it.truth().chart();
                if ((m = VALUE.matcher(q)).matches()) return c.values().get(c.labels().indexOf(m.group(1))) == Integer.parseInt(option);
                int v = c.values().get(c.labels().indexOf(option));
                if (q.equals("Which bar is the tallest?")) return c.values().stream().allMatch(x -> x <= v);
                if (q.equals("Which bar is the shortest?")) return c.values().stream().allMatch(x -> x >= v);
                m = match(LARGER, q);
                String other = m.group(1).equals(option) ? m.group(2) : m.group(1);
                return v > c.values().get(c.labels().indexOf(other));
            }
            default -> throw new IllegalStateException();
        }
    }

    private static Matcher match(Pattern p, String q) {
        Matcher m = p.matcher(q);
        assertThat(m.matches()).as("'%s' follows the template %s", q, p).isTrue();
        return m;
    }

    private static Predicate<PlacedShape> shapeIs(String s) { return x -> x.shape().equals(s); }

    private static Predicate<PlacedShape> colorIs(String c) { return x -> x.color().equals(c); }

    private static PlacedShape named(List<PlacedShape> shapes, String name) {
        return shapes.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no " + name + " in the image"));
    }

    private static double dist(PlacedShape a, PlacedShape b) { return Math.hypot(a.cx() - b.cx(), a.cy() - b.cy()); }

    @Test
    void questionsUseOnlyTheContractVocabulary() {
        Set<String> colors = Set.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
        Set<String> shapes = Set.of("circle", "square", "triangle", "star", "hexagon");
        for (BenchItem it : ITEMS) {
            for (PlacedShape s : it.truth().shapes()) {
                assertThat(colors).contains(s.color());
                assertThat(shapes).contains(s.shape());
            }
            if (it.family() == Family.SPATIAL && it.options().size() > 2) {
                assertThat(it.options().values()).allSatisfy(v -> {
                    String[] p = v.split(" ");
                    assertThat(colors).contains(p[0]);
                    assertThat(shapes).contains(p[1]);
                });
            }
        }
    }

    @Test
    void drawsSmallPrintAtEightToTwelvePixelsAndImagesAt448To768PixelsWide() {
        int smallPrints = 0;
        for (BenchItem it : ITEMS) {
            assertThat(it.image().getWidth()).isBetween(448, 768);
            for (PlacedText t : it.truth().texts()) {
                if (t.role().equals("small print")) {
                    smallPrints++;
                    assertThat(t.fontPx()).isBetween(8, 12);
                }
            }
        }
        assertThat(smallPrints).isPositive();
    }

    @Test
    void textDistractorsAreSimilarWords() {
        for (BenchItem it : ITEMS) {
            if (it.family() != Family.TEXT) continue;
            for (String v : it.options().values()) {
                assertThat(dev.gamagent.util.EditDistance.between(v, it.answerText())).as("%s vs %s", v, it.answerText()).isLessThanOrEqualTo(3);
            }
        }
    }

    @Test
    void rejectsAnUnknownFamilyNamingIt() {
        assertThatThrownBy(() -> Family.parse("colour")).hasMessageContaining("colour").hasMessageContaining("color");
    }

    @Test
    void hardFractionSetsTheShareOfHardItems() {
        List<Family> all = Arrays.asList(Family.values());
        assertThat(new BenchmarkGenerator(4, 1.0).generate(24, all)).allSatisfy(it -> assertThat(it.difficulty()).isEqualTo("hard"));
        assertThat(new BenchmarkGenerator(4, 0.0).generate(24, all)).noneSatisfy(it -> assertThat(it.difficulty()).isEqualTo("hard"));
        long hard = new BenchmarkGenerator(4, 0.5).generate(120, all).stream().filter(it -> it.difficulty().equals("hard")).count();
        assertThat(hard).isBetween(40L, 80L);
        assertThatThrownBy(() -> new BenchmarkGenerator(4, 1.5)).hasMessageContaining("--hard-fraction");
    }

    @Test
    void hardTextIsTinyAndHasAWrongOptionWrittenBesideItOffTheSignLabelOrCard() {
        BenchmarkGenerator gen = new BenchmarkGenerator(8, 1.0);
        int decoys = 0;
        for (int i = 0; i < 30; i++) {
            BenchItem it = gen.generate(i, Family.TEXT);
            PlacedText target = it.truth().texts().stream().filter(t -> !t.role().equals("decoy") && !t.role().equals("heading"))
                    .findFirst().orElseThrow();
            assertThat(target.fontPx()).as("item %d", i).isBetween(8, 11);
            for (PlacedText t : it.truth().texts()) {
                if (!t.role().equals("decoy")) continue;
                decoys++;
                assertThat(it.options().values()).contains(t.text().toLowerCase());
                assertThat(t.text().toLowerCase()).isNotEqualTo(it.answerText());
                assertThat(t.box().getMinY()).as("decoy below the target's board, label or card").isGreaterThan(target.box().getMaxY() + 40);
            }
        }
        assertThat(decoys).isGreaterThan(10);
    }

    @Test
    void hardShapeScenesHaveTouchingShapesAndHardChartsNeighbouringValues() {
        BenchmarkGenerator gen = new BenchmarkGenerator(8, 1.0);
        int touching = 0;
        for (int i = 0; i < 20; i++) {
            List<PlacedShape> shapes = gen.generate(i, Family.COUNT).truth().shapes();
            for (int a = 0; a < shapes.size(); a++) {
                for (int b = a + 1; b < shapes.size(); b++) {
                    if (dist(shapes.get(a), shapes.get(b)) <= shapes.get(a).radius() + shapes.get(b).radius()) touching++;
                }
            }
            SceneTruth.ChartTruth c = gen.generate(i, Family.CHART).truth().chart();
            int lo = c.values().stream().min(Integer::compare).orElseThrow(), hi = c.values().stream().max(Integer::compare).orElseThrow();
            assertThat(hi - lo).as("chart %d values %s", i, c.values()).isLessThanOrEqualTo(5 * c.values().size());
        }
        assertThat(touching).isGreaterThan(20);
    }
}
