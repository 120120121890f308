package dev.gamagent.backend;

import java.util.List;

/** One generated alternative: text, per-token log-probs (empty when the server gave none), finish reason. */
public record Choice(String text, List<TokenLogprob> logprobs, String finishReason) {
    public Choice {
        text = text == null ? "" : text;
        logprobs = logprobs == null ? List.of() : List.copyOf(logprobs);
    }

    public boolean hasLogprobs() { return !logprobs.isEmpty(); }

    /** Which uncertainty signal these log-probs support. */
    public UncertaintySignal signal() {
        if (logprobs.isEmpty()) return UncertaintySignal.SEMANTIC;
        for (TokenLogprob t : logprobs) if (t.top().size() >= 2) return UncertaintySignal.TOP_K;
        return UncertaintySignal.CHOSEN;
    }
}
