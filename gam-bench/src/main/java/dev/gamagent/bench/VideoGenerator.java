package dev.gamagent.bench;

import java.util.Random;

/**
 * Generates the video family's items ({@link VideoScenes}) with the benchmark generator's conventions: item
 * {@code i} has its own random source derived from (seed, i), its difficulty drawn with the hard fraction, and
 * its style from the generator's style source, so a seed fixes every frame on a given JDK. (The family is not
 * yet one of {@code gam bench generate}'s families; this is its generator until it is.)
 */
public final class VideoGenerator {
    private final BenchmarkGenerator images;

    public VideoGenerator(long seed, double hardFraction, RenderStyle.Render render) {
        this.images = new BenchmarkGenerator(seed, hardFraction, render);
    }

    /** Item {@code index}, of a kind drawn from its random source. */
    public VideoItem generate(int index) { return scenes(index).item(index); }

    /** Item {@code index} asking a question of {@code kind}. */
    public VideoItem generate(int index, VideoPhrasings.Kind kind) { return scenes(index).item(index, kind); }

    private VideoScenes scenes(int index) {
        Random rng = new Random(BenchmarkGenerator.mix(images.seed(), index));
        Difficulty d = Difficulty.draw(rng, images.hardFraction());
        return new VideoScenes(rng, d, images.style(index));
    }
}
