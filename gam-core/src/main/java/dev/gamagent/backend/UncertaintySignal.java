package dev.gamagent.backend;

/** Which signal an uncertainty came from, best first. Names are written to traces. */
public enum UncertaintySignal {
    /** Per-token top-k log-probabilities with k ≥ 2: entropy + top-two gap. */
    TOP_K("logprobs-topk"),
    /** Only the chosen token's log-probability: 1 - p. */
    CHOSEN("logprobs-chosen"),
    /** No log-probabilities: agreement of n sampled answers (with what the reply says of itself as one more sample). */
    SAMPLING("sampling"),
    /** No log-probabilities: hedge language (and a reported confidence). */
    SEMANTIC("semantic"),
    /** Set by an ablation or by an agent declaring itself not applicable. */
    FIXED("fixed");

    private final String label;

    UncertaintySignal(String label) { this.label = label; }

    public String label() { return label; }

    @Override public String toString() { return label; }
}
