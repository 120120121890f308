package dev.gamagent.cli;

import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.BenchmarkWriter;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.VideoRows;
import dev.gamagent.bench.RenderStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code gam bench}: the synthetic visual benchmark and the benchmark tools (measure, serve-sim). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Synthetic visual benchmark tools.",
        subcommands = {BenchCommand.Generate.class, BenchMeasureCommand.class, BenchServeSimCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code gam bench generate --n N --seed S --out FILE [--families text,count,...] [--render varied|classic]}. */
    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Generate N questions with exact ground truth; the format follows the extension (.tsv, .json, .jsonl).")
    static final class Generate implements Callable<Integer> {
        @Option(names = "--n", required = true, description = "number of questions")
        int n;

        @Option(names = "--seed", defaultValue = "7", description = "random seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--out", required = true, description = "output file: .tsv (VLMEvalKit), .json (M3MAD) or .jsonl")
        Path out;

        @Option(names = "--families", split = ",", description = "families to cycle through (default: all image families): text,count,color,shape,spatial,chart, "
                + "and video (clips of moving objects and blinking lamps, rows naming a folder of frames; .jsonl only)")
        List<String> families = new ArrayList<>();

        @Option(names = "--hard-fraction", description = "share of hard items, 0..1 (default: the generator's mix, "
                + "40 %% easy, 35 %% medium, 25 %% hard); easy and medium share the rest 8:7")
        Double hardFraction;

        @Option(names = "--render", defaultValue = "varied", description = "varied: each image in its own style (anti-aliasing on/off, "
                + "filled or outlined shapes, several fonts, JPEG compression, sizes and aspect ratios), fixed by the seed; "
                + "classic: the original look (anti-aliased, filled, sans-serif, lossless, 4:3) (default: ${DEFAULT-VALUE})")
        String render;

        @Override public Integer call() throws Exception {
            BenchmarkWriter.formatOf(out);
            List<Family> fams = families.isEmpty() ? Arrays.asList(Family.values())
                    : families.stream().map(VideoRows::parse).collect(java.util.stream.Collectors.toList()); // null: the video family
            long t0 = System.nanoTime();
            if (fams.contains(null)) {
                long[] last = {System.nanoTime()};
                int written = VideoRows.generate(BenchmarkGenerator.withMix(seed, hardFraction, RenderStyle.Render.parse(render)), n, fams, out, i -> {
                    long now = System.nanoTime();
                    if (i + 1 == n || now - last[0] > 2_000_000_000L) {
                        last[0] = now;
                        System.err.printf("generated %d/%d%n", i + 1, n);
                    }
                });
                System.err.printf("wrote %d questions to %s in %.1f s%n", written, out, (System.nanoTime() - t0) / 1e9);
                return 0;
            }
            // each item is written as soon as it and those before it are drawn: memory stays a few items whatever --n is
            int threads = Runtime.getRuntime().availableProcessors();
            long[] lastReport = {System.nanoTime()};
            int written = BenchmarkWriter.generate(BenchmarkGenerator.withMix(seed, hardFraction, RenderStyle.Render.parse(render)), n, fams, out,
                    threads, it -> {
                        int done = it.index() + 1;
                        long now = System.nanoTime();
                        if (done == n || now - lastReport[0] > 2_000_000_000L) {
                            lastReport[0] = now;
                            System.err.printf("generated %d/%d%n", done, n);
                        }
                    });
            System.err.printf("wrote %d questions to %s in %.1f s%n", written, out, (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }
}
