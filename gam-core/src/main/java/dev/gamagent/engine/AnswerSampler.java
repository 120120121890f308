package dev.gamagent.engine;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.influence.OptionDistribution;
import dev.gamagent.influence.Similarity;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.SampleAgreement;
import dev.gamagent.uncertainty.SemanticUncertainty;
import dev.gamagent.uncertainty.UncertaintyFallback;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The sampling fallback for one agent's reply when its backend gives no log-probs (docs/GAM.md, "Without
 * log-probs"): the agent keeps the answer it gave, and the same request is drawn n more times at the configured
 * temperature, in one request with {@code n} (the backends turn it into n calls where the wire format has no
 * {@code n}); U is how far those samples agree with the answer ({@link SampleAgreement}). Keeping the greedy answer
 * keeps the answers of a run with log-probs: the samples change the uncertainty only.
 *
 * @param fallback whether to sample, how many samples and at which temperature
 * @param semantic Φ_sem, for what a reply's hedges say of itself (the pseudo-sample)
 */
public record AnswerSampler(UncertaintyFallback fallback, SemanticUncertainty semantic) {
    /**
     * What the samples say about an answer: every sample's key (its answer as read; null = unreadable), the
     * uncertainty, and for multiple choice the option distribution (smoothed sample frequencies).
     */
    public record Sampled(List<String> keys, Estimate uncertainty, Map<String, Double> distribution) {
        public Sampled { keys = Collections.unmodifiableList(new ArrayList<>(keys)); }
    }

    /** Whether this reply's uncertainty must come from samples: sampling is configured and the reply has no log-probs. */
    public boolean applies(Choice reply) { return fallback.sampling() && !reply.hasLogprobs(); }

    /**
     * Draws n samples of {@code request}'s answer: one request for n choices at the sampling temperature, without
     * log-probs; the result goes to {@code counted} (tokens and calls).
     */
    public List<Choice> draw(Backend backend, ChatRequest request, Consumer<ChatResult> counted) {
        ChatResult r = backend.chat(request.withSampling(fallback.temperature(), request.maxTokens(), fallback.samples(), request.seed())
                .withLogprobs(false, 0));
        counted.accept(r);
        return r.choices();
    }

    /**
     * Multiple choice: {@code chosen} is the answer's option letter, {@code keyOf} reads a sample's letter (null when
     * unreadable); the distribution is the samples' frequencies plus one pseudo-sample and U = (1 − p(chosen))·K/(K − 1).
     * The pseudo-sample is what the reply says of itself: Φ_sem of {@code hedgeText}'s smoothed one-hot (DESIGN §3–4)
     * when a hedge or a reported confidence makes Φ_sem say something, else uniform (the reply said nothing).
     */
    public Sampled options(String chosen, List<Choice> samples, Function<Choice, String> keyOf, List<String> letters, String hedgeText) {
        List<String> keys = samples.stream().map(keyOf).toList();
        Map<String, Double> prior = letters.contains(chosen) && semantic.fires(hedgeText)
                ? OptionDistribution.smoothed(letters, chosen, semantic.of(hedgeText)) : null;
        Map<String, Double> dist = SampleAgreement.frequencies(keys, letters, prior);
        double u = SampleAgreement.optionUncertainty(dist, chosen);
        return new Sampled(keys, new Estimate(u, UncertaintySignal.SAMPLING), dist);
    }

    /**
     * Open answers: U = 1 − the mean pairwise similarity of the answer and its samples (an unreadable sample is
     * similarity 0 to the rest); when Φ_sem of {@code hedgeText} says something it counts as one more sample,
     * U = (n·U + Φ_sem)/(n + 1), as the pseudo-sample of multiple choice.
     */
    public Sampled open(String answer, List<Choice> samples, Function<Choice, String> answerOf, Similarity similarity, String hedgeText) {
        List<String> keys = samples.stream().map(answerOf).toList();
        List<String> all = new ArrayList<>();
        all.add(answer);
        all.addAll(keys);
        List<Integer> readable = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) if (all.get(i) != null && !all.get(i).isBlank()) readable.add(i);
        double[][] sim = new double[all.size()][all.size()];
        double[][] readSim = similarity.open(readable.stream().map(all::get).toList());
        for (int i = 0; i < all.size(); i++) sim[i][i] = 1;
        for (int a = 0; a < readable.size(); a++) {
            for (int b = 0; b < readable.size(); b++) sim[readable.get(a)][readable.get(b)] = readSim[a][b];
        }
        double u = SampleAgreement.openUncertainty(sim);
        if (semantic.fires(hedgeText)) u = SampleAgreement.withPrior(u, samples.size(), semantic.of(hedgeText));
        return new Sampled(keys, new Estimate(u, UncertaintySignal.SAMPLING), null);
    }
}
