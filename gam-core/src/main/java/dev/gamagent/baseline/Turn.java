package dev.gamagent.baseline;

import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.uncertainty.Estimate;

/**
 * One agent's reply in one round of a baseline, as parsed; {@code error} is set (and the answer null)
 * when the agent's call failed and it dropped out of the round. {@code backend} is the configured name the
 * agent ran on, {@code model} the model that answered (null when no answer came back).
 */
record Turn(String id, String role, int k, double scale, String answer, String option, Estimate uncertainty,
                   TokenCount tokens, String raw, String parse, String error, String backend, String model) {

    public boolean ok() { return error == null; }

    /** The agreement key: the option letter, else the normalised answer text. */
    public String key() { return ReplyParser.key(answer, option); }

    public double u() { return uncertainty.value(); }

    /** What a peer or a judge is shown: the option letter when there is one, else the answer. */
    public String shownAnswer() { return option != null ? option : answer; }

    public MajorityVote.Ballot ballot(double weight) {
        return new MajorityVote.Ballot(key(), answer, option, u(), weight);
    }

    public Trace.AgentTurn toTrace(Double weight) {
        return new Trace.AgentTurn(id, role, scale, answer, option, u(), uncertainty.signal().label(), weight,
                java.util.List.of(), tokens, raw, parse, error, null, backend, model);
    }
}
