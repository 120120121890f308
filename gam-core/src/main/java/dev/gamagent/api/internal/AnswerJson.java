package dev.gamagent.api.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;
import dev.gamagent.api.Answer;

/**
 * An {@link Answer} as JSON, the one shape of {@code gam ask --json} (docs/design.md §9) and of the {@code gam} object
 * {@code gam serve} adds to a completion (docs/SERVER.md): answer, option, confidence, uncertainty, rounds,
 * termination, tokens, calls and millis, in that order; each caller appends what only it reports.
 */
public final class AnswerJson {
    private AnswerJson() { }

    /**
     * The answer's fields; with {@code withSignal}, the uncertainty signal of the last round's first agent follows
     * {@code uncertainty} when the trace names one.
     */
    public static ObjectNode of(Answer a, boolean withSignal) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("answer", a.answer());
        if (a.option() == null) o.putNull("option"); else o.put("option", a.option());
        o.put("confidence", a.confidence());
        o.put("uncertainty", a.uncertainty());
        String signal = withSignal ? signal(a) : null;
        if (signal != null) o.put("signal", signal);
        o.put("rounds", a.rounds());
        o.put("termination", a.termination() == null ? null : a.termination().label());
        ObjectNode t = o.putObject("tokens");
        t.put("prompt", a.tokens().prompt());
        t.put("completion", a.tokens().completion());
        t.put("estimated", a.tokens().estimated());
        o.put("calls", a.calls());
        o.put("millis", a.millis());
        return o;
    }

    /** The uncertainty signal the last round's first agent ran on, or null when the trace has none. */
    public static String signal(Answer a) {
        if (a.trace() == null || a.trace().rounds() == null || a.trace().rounds().isEmpty()) return null;
        var agents = a.trace().rounds().get(a.trace().rounds().size() - 1).agents();
        return agents == null || agents.isEmpty() ? null : agents.get(0).signal();
    }
}
