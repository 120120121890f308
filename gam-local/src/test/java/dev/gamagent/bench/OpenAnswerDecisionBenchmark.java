package dev.gamagent.bench;

import dev.gamagent.influence.BgeSentenceEmbedder;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.influence.Similarity;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One GAM decision on an open-answer round of N agents through the embedding path (docs/design.md §4): the
 * similarity matrix of the answers, each answer's agreement with the consensus and the consensus
 * confidence, as the controller computes them, on a fresh similarity (nothing cached from an earlier
 * round). The answers are distinct, so every one is embedded by BGE-small. Run with {@code bench/jmh.sh}
 * or {@code bench/perf.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class OpenAnswerDecisionBenchmark {
    @Param({"6"})
    public int agents;

    private static final List<String> ANSWERS = List.of("a red circle", "the circle is red", "red", "a crimson disc", "an orange circle",
            "two red circles", "a red ring", "a circle");
    private final InfluenceWeights game = dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults());
    private List<String> answers;
    private double[] u;

    @Setup public void setup() {
        answers = ANSWERS.subList(0, agents);
        u = new double[agents];
        for (int i = 0; i < agents; i++) u[i] = 0.2 + 0.1 * i;
        BgeSentenceEmbedder.shared().embed("warm"); // load the model outside the measurement
    }

    @Benchmark public void gamOpenDecision(Blackhole bh) {
        Similarity similarity = new Similarity(BgeSentenceEmbedder.shared());
        GameState g = GameState.compute(u, similarity.open(answers), game, false);
        int best = 0;
        for (int i = 1; i < agents; i++) if (g.weights()[i] > g.weights()[best]) best = i;
        String consensus = answers.get(best);
        double confidence = 0;
        for (int i = 0; i < agents; i++) {
            bh.consume(similarity.open(answers.get(i), consensus) < 0.8); // does agent i dispute the consensus?
            confidence += g.weights()[i] * similarity.open(answers.get(i), consensus) * (1 - u[i]);
        }
        bh.consume(confidence);
    }
}
