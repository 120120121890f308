package dev.gamagent.backend.internal;

import dev.gamagent.backend.Choice;

import dev.gamagent.backend.internal.SecretScrubber;
import java.util.List;

/**
 * What one wire response said: choices, the server's token counts (null when absent: {@code promptTokens} are all the
 * prompt's tokens, {@code cachedPromptTokens} those of them read from the server's prefix cache) and model name.
 */
public record WireAnswer(List<Choice> choices, Long promptTokens, Long completionTokens, Long cachedPromptTokens, String model) {
    /**
     * This answer with every secret {@code scrubber} knows removed from everything the server wrote into it: the
     * choices' text and tokens (also a key spelled across tokens) and the model name, which reaches results, reports
     * and recordings as the answering model.
     */
    public WireAnswer scrubbed(SecretScrubber scrubber) {
        if (scrubber.isEmpty()) return this;
        return new WireAnswer(choices.stream().map(scrubber::scrub).toList(), promptTokens, completionTokens, cachedPromptTokens,
                scrubber.scrub(model));
    }
}
