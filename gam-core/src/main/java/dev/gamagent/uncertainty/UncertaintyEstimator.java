package dev.gamagent.uncertainty;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.UncertaintySignal;

import java.util.List;

/**
 * Picks the best available signal for one response (docs/design.md §3): top-k log-probs → Φ_gen, chosen-token
 * log-probs → mean(1 − p), none → Φ_sem. The signal used is returned with the value, for the trace.
 *
 * @param generation Φ_gen, for replies with log-probs
 * @param semantic   Φ_sem, for replies without
 */
public record UncertaintyEstimator(GenerationUncertainty generation, SemanticUncertainty semantic) {
    private static final UncertaintyEstimator DEFAULTS =
            new UncertaintyEstimator(GenerationUncertainty.paperDefaults(), new SemanticUncertainty());

    /** The paper's defaults (α = β = 0.5, our hedge lexicon); immutable, so one instance serves every run. */
    public static UncertaintyEstimator defaults() { return DEFAULTS; }

    /** Uncertainty over all generated tokens (the paper's default scoring). */
    public Estimate estimate(Choice choice) { return estimate(choice, choice.logprobs()); }

    /** Uncertainty over the given scored tokens (e.g. the answer span); falls back to Φ_sem without them. */
    public Estimate estimate(Choice choice, List<TokenLogprob> scored) {
        if (!choice.hasLogprobs() || scored.isEmpty()) {
            return new Estimate(semantic.of(choice.text()), UncertaintySignal.SEMANTIC);
        }
        return new Estimate(generation.mean(scored), signalOf(scored));
    }

    /**
     * Uncertainty with the configured scoring, reading content as free prose (every token is content). See
     * {@link #estimate(Choice, Scoring, String, String, ContentSpans)}.
     */
    public Estimate estimate(Choice choice, Scoring scoring, String answer, String hedgeText) {
        return estimate(choice, scoring, answer, hedgeText, text -> null);
    }

    /**
     * Uncertainty with the configured scoring: {@code content} scores the tokens {@code content} finds in the reply
     * (all tokens when it reads no format or finds none); {@code answer} is the answer as the model wrote it (for
     * answer-span scoring; when it cannot be found among the tokens, all tokens are scored). Without log-probs,
     * Φ_sem of {@code hedgeText} (prose with a "CONFIDENCE: c" line when the agent reported one), or of the raw
     * text when null: JSON keys would otherwise dilute the hedge density.
     */
    public Estimate estimate(Choice choice, Scoring scoring, String answer, String hedgeText, ContentSpans content) {
        if (!choice.hasLogprobs()) {
            return new Estimate(semantic.of(hedgeText != null ? hedgeText : choice.text()), UncertaintySignal.SEMANTIC);
        }
        List<TokenLogprob> scored = choice.logprobs();
        if (scoring == Scoring.ANSWER_SPAN) {
            List<TokenLogprob> span = AnswerSpan.tokens(choice.logprobs(), answer);
            if (!span.isEmpty()) scored = span;
        } else if (scoring == Scoring.CONTENT) {
            List<TokenLogprob> found = ContentSpans.select(choice.logprobs(), content);
            if (found != null && !found.isEmpty()) scored = found;
        }
        return estimate(choice, scored);
    }

    /** The signal the scored tokens support: top-k when any has ≥ 2 alternatives, else the chosen token. */
    static UncertaintySignal signalOf(List<TokenLogprob> scored) {
        for (TokenLogprob t : scored) if (t.top().size() >= 2) return UncertaintySignal.TOP_K;
        return UncertaintySignal.CHOSEN;
    }

    /** DREAM's ANLL uncertainty, or Φ_sem (marked) when the backend gave no log-probs. */
    public Estimate anll(Choice choice) {
        if (!choice.hasLogprobs()) return new Estimate(semantic.of(choice.text()), UncertaintySignal.SEMANTIC);
        return new Estimate(Anll.uncertainty(choice.logprobs()), choice.signal());
    }
}
