package dev.gamagent.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Shape;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The held-out renderer's tiers: items drawn from (seed, i) alone, the hard fraction honoured, and every answer key
 * recomputed from what was drawn (the objects, bars and words), independently of the code that chose it.
 */
class HeldOutScenesTest {
    private static final long SEED = 20261202;
    /**
     * Drawn once per class (items are drawn from (seed, i) alone, so a prefix of a longer set is the shorter set):
     * items 0..29 at hard fraction 0.5 and 0..47 at 1.0, each read by several tests below instead of drawn again.
     */
    private static final Lazy<List<HeldOutScenes.Item>> HALF = new Lazy<>(() -> List.copyOf(new HeldOutScenes(SEED).generate(30, 0.5)));
    private static final Lazy<List<HeldOutScenes.Item>> ALL_HARD = new Lazy<>(() -> List.copyOf(new HeldOutScenes(SEED).generate(48, 1.0)));

    private static int[] pixels(BufferedImage img) {
        return img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    }

    @Test
    void itemsAreDrawnFromTheSeedAndTheirIndexAlone() {
        List<HeldOutScenes.Item> a = HALF.get().subList(0, 14); // drawn by another instance, 30 items long
        List<HeldOutScenes.Item> b = new HeldOutScenes(SEED).generate(14, 0.5);
        HeldOutScenes fresh = new HeldOutScenes(SEED);
        for (int i : new int[]{13, 2, 7}) { // out of order, on an instance that drew nothing before
            HeldOutScenes.Item one = fresh.itemAt(i, 0.5);
            assertThat(pixels(one.image())).isEqualTo(pixels(a.get(i).image()));
            assertThat(one.correct()).isEqualTo(a.get(i).correct());
            assertThat(one.tier()).isEqualTo(a.get(i).tier());
        }
        for (int i = 0; i < a.size(); i++) {
            assertThat(pixels(b.get(i).image())).as("item %d drawn twice", i).isEqualTo(pixels(a.get(i).image()));
            assertThat(b.get(i).distractors()).isEqualTo(a.get(i).distractors());
        }
        HeldOutScenes.Item other = new HeldOutScenes(SEED + 1).itemAt(7, 0.5);
        assertThat(pixels(other.image())).isNotEqualTo(pixels(a.get(7).image()));
    }

    @Test
    void theHardFractionSetsTheTiers() {
        assertThat(ALL_HARD.get()).allMatch(it -> it.tier().equals("hard"));
        assertThat(new HeldOutScenes(SEED).generate(12, 0.0)).allMatch(it -> it.tier().equals("easy"));
        long hard = HALF.get().stream().filter(it -> it.tier().equals("hard")).count();
        assertThat(hard).isBetween(7L, 23L);
        assertThat(new HeldOutScenes(SEED).generate(6)).allMatch(it -> it.tier().equals("easy")); // the first measurements' set
    }

    @Test
    void everyAnswerKeyFollowsFromWhatWasDrawn() {
        Rephrasings set = Rephrasings.load("/heldout/phrasings.tsv");
        List<HeldOutScenes.Item> items = new ArrayList<>(ALL_HARD.get());
        items.addAll(new HeldOutScenes(SEED + 7).generate(24, 0.0));
        for (HeldOutScenes.Item it : items) {
            String why = it.tier() + " item " + it.index() + " (" + it.family() + "/" + it.variant() + " " + it.values() + ")";
            assertThat(expected(it)).as(why).isEqualTo(it.correct());
            assertThat(it.distractors()).as(why).doesNotContain(it.correct()).doesNotHaveDuplicates().isNotEmpty();
            KeyedItem q = HeldOutScenes.question(it, set, SEED);
            assertThat(plain(q.options().get(q.groundTruth()))).as(why + " key " + q.groundTruth() + " of " + q.options()).isEqualTo(it.correct().toLowerCase(Locale.ROOT));
            if (it.tier().equals("hard")) {
                for (HeldOutScenes.Placed p : it.scene().objects()) {
                    assertThat(visible(p, it.scene().objects())).as(why + ": share of " + p.name() + " left uncovered").isGreaterThan(0.6);
                    assertThat(p.r()).as(why).isBetween(12.0, 18.0);
                }
                if (it.family().equals("text")) {
                    assertThat(it.distractors()).as(why + ": the decoy is a wrong option").contains(it.scene().decoy());
                }
            }
        }
        assertThat(items).anyMatch(it -> it.tier().equals("hard") && it.scene().objects().size() >= 8); // clutter
    }

    /** The correct value recomputed from the scene by the question's plain meaning. */
    private static String expected(HeldOutScenes.Item it) {
        HeldOutScenes.Scene s = it.scene();
        Map<String, String> v = it.values();
        return switch (it.family()) {
            case "text" -> s.word();
            case "count" -> String.valueOf(s.objects().stream().filter(p -> switch (it.variant()) {
                case "shape" -> p.shape().equals(v.get("shape"));
                case "color" -> p.colour().equals(v.get("color"));
                default -> true;
            }).count());
            case "color" -> only(s.objects().stream().filter(p -> p.shape().equals(v.get("shape"))).toList()).colour();
            case "shape" -> only(s.objects().stream().filter(p -> p.colour().equals(v.get("color"))).toList()).shape();
            case "spatial" -> spatial(it);
            default -> chart(it);
        };
    }

    private static HeldOutScenes.Placed only(List<HeldOutScenes.Placed> l) {
        assertThat(l).hasSize(1);
        return l.get(0);
    }

    private static HeldOutScenes.Placed named(HeldOutScenes.Item it, String name) {
        return only(it.scene().objects().stream().filter(p -> p.name().equals(name)).toList());
    }

    private static String spatial(HeldOutScenes.Item it) {
        HeldOutScenes.Placed ref = named(it, it.values().get("obj"));
        List<HeldOutScenes.Placed> others = it.scene().objects().stream().filter(p -> p != ref).toList();
        return switch (it.variant()) {
            case "left_of", "above" -> {
                boolean hz = it.variant().equals("left_of");
                // clearly on that side: the whole object beyond the reference's edge
                List<HeldOutScenes.Placed> yes = others.stream().filter(o -> (hz ? ref.cx() - o.cx() : ref.cy() - o.cy()) > ref.r() + o.r()).toList();
                for (String d : it.distractors()) {
                    HeldOutScenes.Placed o = named(it, d);
                    assertThat(hz ? o.cx() - ref.cx() : o.cy() - ref.cy()).as("distractor %s is clearly on the other side", d).isGreaterThan(ref.r() + o.r());
                }
                yield only(yes).name();
            }
            case "nearest" -> {
                List<HeldOutScenes.Placed> byDistance = new ArrayList<>(others);
                byDistance.sort(Comparator.comparingDouble(o -> Math.hypot(o.cx() - ref.cx(), o.cy() - ref.cy())));
                yield byDistance.get(0).name();
            }
            case "left_or_right" -> ref.cx() < named(it, it.values().get("obj2")).cx() ? "left" : "right";
            default -> ref.cy() < named(it, it.values().get("obj2")).cy() ? "above" : "below";
        };
    }

    private static String chart(HeldOutScenes.Item it) {
        List<HeldOutScenes.Bar> bars = it.scene().bars();
        assertThat(bars.stream().map(HeldOutScenes.Bar::value).distinct().count()).isEqualTo(bars.size());
        return switch (it.variant()) {
            case "tallest" -> bars.stream().max(Comparator.comparingInt(HeldOutScenes.Bar::value)).orElseThrow().label();
            case "shortest" -> bars.stream().min(Comparator.comparingInt(HeldOutScenes.Bar::value)).orElseThrow().label();
            case "value" -> String.valueOf(bars.stream().filter(b -> b.label().equals(it.values().get("label"))).findFirst().orElseThrow().value());
            default -> {
                HeldOutScenes.Bar a = bars.stream().filter(b -> b.label().equals(it.values().get("label1"))).findFirst().orElseThrow();
                HeldOutScenes.Bar b = bars.stream().filter(x -> x.label().equals(it.values().get("label2"))).findFirst().orElseThrow();
                yield a.value() > b.value() ? a.label() : b.label();
            }
        };
    }

    /** An option as written (cased, with an article or "on the", a count as a word) back to the plain value. */
    private static String plain(String option) {
        String o = option.toLowerCase(Locale.ROOT).replaceFirst("^(the |a |on the )", "");
        List<String> words = List.of("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve");
        return words.contains(o) ? String.valueOf(words.indexOf(o)) : o;
    }

    /** The share of {@code p}'s area (points on a 1 px grid) that no object drawn after it covers. */
    private static double visible(HeldOutScenes.Placed p, List<HeldOutScenes.Placed> all) {
        Shape own = p.outline();
        List<Shape> later = all.subList(all.indexOf(p) + 1, all.size()).stream().map(HeldOutScenes.Placed::outline).toList();
        int in = 0, seen = 0;
        for (double y = p.cy() - p.r(); y <= p.cy() + p.r(); y += 1) {
            for (double x = p.cx() - p.r(); x <= p.cx() + p.r(); x += 1) {
                if (!own.contains(x, y)) continue;
                in++;
                final double fx = x, fy = y;
                if (later.stream().noneMatch(s -> s.contains(fx, fy))) seen++;
            }
        }
        return (double) seen / in;
    }

    @Test
    void theWrittenRowsCarryEachItemsTierAndKey(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("heldout.tsv");
        HeldOutScenes.writeBenchmark(10, SEED, 0.5, tsv);
        List<String> lines = Files.readAllLines(tsv);
        assertThat(lines.get(0)).endsWith("\tdifficulty");
        assertThat(lines).hasSize(11);
        Rephrasings set = Rephrasings.load("/heldout/phrasings.tsv");
        List<String> tiers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String[] row = lines.get(i + 1).split("\t", -1);
            HeldOutScenes.Item it = HALF.get().get(i); // item i at hard fraction 0.5, drawn apart from the writer's
            KeyedItem q = HeldOutScenes.question(it, set, SEED);
            assertThat(row[0]).isEqualTo(String.valueOf(i));
            assertThat(row[12]).as("row %d's difficulty", i).isEqualTo(it.tier());
            assertThat(row[8]).as("row %d's answer", i).isEqualTo(q.groundTruth());
            assertThat(plain(row[4 + row[8].charAt(0) - 'A'])).isEqualTo(it.correct().toLowerCase(Locale.ROOT));
            tiers.add(row[12]);
        }
        assertThat(tiers).contains("easy", "hard");
    }
}
