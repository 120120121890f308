package dev.gamagent.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Generates the synthetic visual benchmark (CONTRACTS §3): images drawn with java.awt whose ground truth
 * is exact. Item {@code i} uses family {@code families[i % k]} and its own random source derived from
 * (seed, i), and with varied rendering a style drawn from another source derived from (seed, i), so a seed
 * fixes every byte of the output on a given JDK and font set.
 */
public final class BenchmarkGenerator {
    /** Salt of the style's random source: a style never shifts the scene's own random draws. */
    private static final long STYLE_SALT = 0x5EED_57_1E_5EEDL;

    private final long seed;
    private final double hardFraction;
    private final RenderStyle.Render render;

    /** Classic rendering, the default difficulty mix. */
    public BenchmarkGenerator(long seed) { this(seed, Difficulty.DEFAULT_HARD_FRACTION); }

    /** Classic rendering; items are hard with probability {@code hardFraction} (easy and medium share the rest 8:7). */
    public BenchmarkGenerator(long seed, double hardFraction) { this(seed, hardFraction, RenderStyle.Render.CLASSIC); }

    /** Items hard with probability {@code hardFraction}, drawn in the classic style or each in a varied one. */
    public BenchmarkGenerator(long seed, double hardFraction, RenderStyle.Render render) {
        if (!(hardFraction >= 0 && hardFraction <= 1)) {
            throw new IllegalArgumentException("--hard-fraction must be between 0 and 1, got " + hardFraction);
        }
        this.seed = seed;
        this.hardFraction = hardFraction;
        this.render = render;
    }

    /** As the constructor; {@code hardFraction} null means the default mix. */
    public static BenchmarkGenerator withMix(long seed, Double hardFraction) {
        return withMix(seed, hardFraction, RenderStyle.Render.CLASSIC);
    }

    /** As the constructor; {@code hardFraction} null means the default mix. */
    public static BenchmarkGenerator withMix(long seed, Double hardFraction, RenderStyle.Render render) {
        return new BenchmarkGenerator(seed, hardFraction == null ? Difficulty.DEFAULT_HARD_FRACTION : hardFraction, render);
    }

    public double hardFraction() { return hardFraction; }

    public RenderStyle.Render render() { return render; }

    /** The style item {@code index} is drawn in: classic, or drawn from its own source (seed, index, salt). */
    public RenderStyle style(int index) {
        return render == RenderStyle.Render.CLASSIC ? RenderStyle.CLASSIC : RenderStyle.draw(new Random(mix(seed, index) ^ STYLE_SALT));
    }

    public long seed() { return seed; }

    /** {@code n} items cycling through {@code families} in order. */
    public List<BenchItem> generate(int n, List<Family> families) {
        return generate(n, families, item -> { });
    }

    /** As {@link #generate(int, List)}, calling {@code progress} after each item. */
    public List<BenchItem> generate(int n, List<Family> families, Consumer<BenchItem> progress) {
        if (n < 0) throw new IllegalArgumentException("--n must be >= 0, got " + n);
        if (families.isEmpty()) throw new IllegalArgumentException("--families must name at least one family");
        List<BenchItem> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            BenchItem item = generate(i, families.get(i % families.size()));
            items.add(item);
            progress.accept(item);
        }
        return items;
    }

    /** The item with index {@code index} of the given family; independent of every other item. */
    public BenchItem generate(int index, Family family) { return draw(index, family, false); }

    /**
     * The questions of {@link #generate(int, List)}: each item's text, hint, options, answer, difficulty, truth and style
     * exactly as generated, its scene drawn but not finished (no speckle noise, no JPEG round trip: the last steps,
     * which choose nothing the question holds). For reading questions without paying for pixels; the images are not
     * the benchmark's.
     */
    public List<BenchItem> questions(int n, List<Family> families) {
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, got " + n);
        if (families.isEmpty()) throw new IllegalArgumentException("families must name at least one family");
        List<BenchItem> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) items.add(draw(i, families.get(i % families.size()), true));
        return items;
    }

    private BenchItem draw(int index, Family family, boolean sketch) {
        Random rng = new Random(mix(seed, index));
        Difficulty d = Difficulty.draw(rng, hardFraction);
        RenderStyle style = style(index);
        Scenes scenes = switch (family) {
            case TEXT -> new TextScenes(rng, d, style);
            case CHART -> new ChartScenes(rng, d, style);
            case COUNT, COLOR, SHAPE, SPATIAL -> new ShapeScenes(rng, d, style);
        };
        scenes.sketch = sketch;
        return switch (family) {
            case TEXT -> ((TextScenes) scenes).item(index);
            case COUNT -> ((ShapeScenes) scenes).count(index);
            case COLOR -> ((ShapeScenes) scenes).color(index);
            case SHAPE -> ((ShapeScenes) scenes).shape(index);
            case SPATIAL -> ((ShapeScenes) scenes).spatial(index);
            case CHART -> ((ChartScenes) scenes).item(index);
        };
    }

    /** SplitMix64 finaliser over (seed, index): decorrelates neighbouring items. */
    static long mix(long seed, int index) {
        long z = seed * 0x9E3779B97F4A7C15L + (index + 1L) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
