package dev.gamagent.engine;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.game.OptionDistribution;
import dev.gamagent.game.Similarity;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.SampleAgreement;
import dev.gamagent.uncertainty.SemanticUncertainty;
import dev.gamagent.uncertainty.UncertaintyFallback;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The sampling fallback for one agent's reply when its backend gives no log-probs (docs/GAM.md, "Without
 * log-probs"): the answer is drawn n times at the configured temperature, in one request with {@code n} (the
 * backends turn it into n calls where the wire format has no {@code n}), and U comes from the samples'
 * agreement ({@link SampleAgreement}). The agent answers with the modal sample (open answers: the medoid).
 */
public final class AnswerSampler {
    private final UncertaintyFallback fallback;
    private final SemanticUncertainty semantic;

    public AnswerSampler(UncertaintyFallback fallback, SemanticUncertainty semantic) {
        this.fallback = fallback;
        this.semantic = semantic;
    }

    public UncertaintyFallback fallback() { return fallback; }

    /**
     * What the sampled reply stands for: the chosen sample, every sample's key (answer as read; null = unreadable),
     * the uncertainty and (multiple choice) the option distribution.
     */
    public record Sampled(Choice choice, List<String> keys, Estimate uncertainty, Map<String, Double> distribution) {
        public Sampled { keys = java.util.Collections.unmodifiableList(new ArrayList<>(keys)); }
    }

    /** What one agent call brought back: the reply, and its samples when its uncertainty must come from sampling (else null). */
    public record Reply(ChatResult result, List<Choice> samples) {
        public boolean sampled() { return samples != null; }
    }

    /**
     * Sends {@code request} and, when sampling is on and the backend gives no log-probs, draws the n samples: in
     * that one request (n samples at the sampling temperature, without log-probs) when the backend is known to
     * give none, else in one more request after the reply came back without them (the greedy reply is then not a
     * sample: all n are drawn alike). Every result goes to {@code counted} as it arrives, for tokens and calls.
     */
    public Reply chat(Backend backend, ChatRequest request, Consumer<ChatResult> counted) {
        if (fallback.sampling() && !backend.capabilities().logprobs()) {
            ChatResult r = backend.chat(sampled(request));
            counted.accept(r);
            return new Reply(r, r.choices());
        }
        ChatResult r = backend.chat(request);
        counted.accept(r);
        if (!fallback.sampling() || r.first().hasLogprobs()) return new Reply(r, null);
        ChatResult more = backend.chat(sampled(request));
        counted.accept(more);
        return new Reply(r, more.choices());
    }

    /**
     * Multiple choice: {@code keyOf} reads a sample's option letter (null when unreadable, any other string for a
     * non-answer such as "not applicable"); the agent answers with the first sample of the modal key.
     */
    public Sampled options(List<Choice> samples, Function<Choice, String> keyOf, List<String> letters, Function<Choice, String> hedgeTextOf) {
        List<String> keys = samples.stream().map(keyOf).toList();
        String mode = SampleAgreement.mode(keys);
        int chosen = mode == null ? 0 : keys.indexOf(mode);
        Map<String, Double> dist = SampleAgreement.frequencies(keys, letters);
        double u = SampleAgreement.optionUncertainty(dist, mode);
        Choice c = samples.get(chosen);
        String hedge = hedgeTextOf.apply(c);
        if (letters.contains(mode) && semantic.fires(hedge)) {
            double phi = semantic.of(hedge);
            dist = SampleAgreement.blend(dist, OptionDistribution.smoothed(letters, mode, phi));
            u = (u + phi) / 2;
        }
        return new Sampled(c, keys, new Estimate(u, UncertaintySignal.SAMPLING), dist);
    }

    /** Open answers: {@code answerOf} reads a sample's answer (null when none); the agent answers with the medoid. */
    public Sampled open(List<Choice> samples, Function<Choice, String> answerOf, Similarity similarity, Function<Choice, String> hedgeTextOf) {
        List<Integer> readable = new ArrayList<>();
        List<String> answers = new ArrayList<>(), keys = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            String a = answerOf.apply(samples.get(i));
            keys.add(a);
            if (a != null && !a.isBlank()) { readable.add(i); answers.add(a); }
        }
        if (readable.isEmpty()) return new Sampled(samples.get(0), keys, new Estimate(1.0, UncertaintySignal.SAMPLING), null);
        // an unreadable sample is a disagreement: similarity 0 to every other sample
        double[][] sim = new double[samples.size()][samples.size()];
        double[][] readSim = similarity.open(answers);
        for (int i = 0; i < samples.size(); i++) sim[i][i] = 1;
        for (int a = 0; a < readable.size(); a++) {
            for (int b = 0; b < readable.size(); b++) sim[readable.get(a)][readable.get(b)] = readSim[a][b];
        }
        double u = SampleAgreement.openUncertainty(sim);
        int chosen = readable.get(SampleAgreement.medoid(readSim));
        Choice c = samples.get(chosen);
        String hedge = hedgeTextOf.apply(c);
        if (semantic.fires(hedge)) u = (u + semantic.of(hedge)) / 2;
        return new Sampled(c, keys, new Estimate(u, UncertaintySignal.SAMPLING), null);
    }

    private ChatRequest sampled(ChatRequest r) {
        return r.withSampling(fallback.temperature(), r.maxTokens(), fallback.samples(), r.seed()).withLogprobs(false, 0);
    }
}
