package dev.gamagent.uncertainty;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.UncertaintySignal;

import java.util.List;

/**
 * Picks the best available signal for one response (DESIGN.md §3): top-k log-probs → Φ_gen, chosen-token
 * log-probs → mean(1 − p), none → Φ_sem. The signal used is returned with the value, for the trace.
 */
public final class UncertaintyEstimator {
    private final GenerationUncertainty generation;
    private final SemanticUncertainty semantic;

    public UncertaintyEstimator(GenerationUncertainty generation, SemanticUncertainty semantic) {
        this.generation = generation;
        this.semantic = semantic;
    }

    public static UncertaintyEstimator defaults() {
        return new UncertaintyEstimator(GenerationUncertainty.paperDefaults(), new SemanticUncertainty());
    }

    /** Uncertainty over all generated tokens (the paper's default scoring). */
    public Estimate estimate(Choice choice) { return estimate(choice, choice.logprobs()); }

    /** Uncertainty over the given scored tokens (e.g. the answer span); falls back to Φ_sem without them. */
    public Estimate estimate(Choice choice, List<TokenLogprob> scored) {
        if (!choice.hasLogprobs() || scored.isEmpty()) {
            return new Estimate(semantic.of(choice.text()), UncertaintySignal.SEMANTIC);
        }
        UncertaintySignal s = choice.signal();
        return new Estimate(generation.mean(scored), s);
    }

    /** DREAM's ANLL uncertainty, or Φ_sem (marked) when the backend gave no log-probs. */
    public Estimate anll(Choice choice) {
        if (!choice.hasLogprobs()) return new Estimate(semantic.of(choice.text()), UncertaintySignal.SEMANTIC);
        return new Estimate(Anll.uncertainty(choice.logprobs()), choice.signal());
    }

    public SemanticUncertainty semantic() { return semantic; }

    public GenerationUncertainty generation() { return generation; }
}
