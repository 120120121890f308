package dev.gamagent.bench;

import dev.gamagent.api.Termination;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.influence.OptionDistribution;
import dev.gamagent.influence.Similarity;
import dev.gamagent.influence.StoppingRule;
import dev.gamagent.uncertainty.Scoring;
import dev.gamagent.uncertainty.UncertaintyEstimator;
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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One GAM controller decision on a multiple-choice round of N agents (no model calls, no embeddings):
 * Φ_gen of every reply (64 tokens, top-5), option distributions, Bhattacharyya similarity, weights,
 * U_sys, conflict, trigger and stopping rule. Baseline: the plain majority vote over the same replies.
 * Run with {@code bench/jmh.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ControllerDecisionBenchmark {
    @Param({"3", "6"})
    public int agents;

    private static final List<String> LETTERS = List.of("A", "B", "C", "D");
    private final UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
    private final Similarity similarity = Similarity.lexical();
    private final InfluenceWeights game = dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults());
    private final StoppingRule rule = dev.gamagent.gam.GamSettings.stopping(dev.gamagent.config.Config.defaults());
    private List<Choice> replies;
    private List<String> chosen;

    @Setup public void setup() {
        Random r = new Random(42);
        replies = new ArrayList<>();
        chosen = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            String letter = LETTERS.get(r.nextInt(2));
            List<TokenLogprob> ts = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (int t = 0; t < 64; t++) {
                String tok = t == 2 ? " " + letter : t == 0 ? "ANSWER" : t == 1 ? ":" : " w" + t;
                double p = 0.5 + 0.5 * r.nextDouble();
                List<TokenLogprob.Alternative> top = new ArrayList<>();
                top.add(new TokenLogprob.Alternative(tok, Math.log(p)));
                double rest = 1 - p;
                for (int k = 0; k < 4; k++) {
                    double q = rest * r.nextDouble() * 0.5;
                    rest -= q;
                    top.add(new TokenLogprob.Alternative(t == 2 ? " " + LETTERS.get((LETTERS.indexOf(letter) + k + 1) % 4) : " x" + k, Math.log(q)));
                }
                ts.add(new TokenLogprob(tok, Math.log(p), top));
                text.append(tok);
            }
            replies.add(new Choice(text.toString(), ts, "stop"));
            chosen.add(letter);
        }
    }

    @Benchmark public void gamDecision(Blackhole bh) {
        int n = replies.size();
        double[] u = new double[n];
        List<Map<String, Double>> dists = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Choice c = replies.get(i);
            u[i] = estimator.estimate(c, Scoring.ALL, chosen.get(i), null).value();
            Map<String, Double> d = OptionDistribution.fromLogprobs(c.logprobs(), LETTERS, chosen.get(i));
            dists.add(d != null ? d : OptionDistribution.smoothed(LETTERS, chosen.get(i), u[i]));
        }
        GameState g = GameState.compute(u, similarity.multipleChoice(dists), game, false);
        boolean trigger = rule.triggers(g.uSys(), g.conflict());
        Termination stop = rule.after(1, g.uSys(), 0.9, 0);
        bh.consume(g);
        bh.consume(trigger);
        bh.consume(stop);
    }

    @Benchmark public String majorityVoteBaseline() {
        Map<String, Integer> votes = new HashMap<>();
        for (String c : chosen) votes.merge(c, 1, Integer::sum);
        String best = null;
        int most = -1;
        for (String l : LETTERS) {
            int v = votes.getOrDefault(l, 0);
            if (v > most) { most = v; best = l; }
        }
        return best;
    }
}
