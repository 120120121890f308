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
    /**
     * The text of a reply whose method reached no answer (the agents hold no opinion): a sentence, never null, that
     * no grader reads as an option.
     */
    public static final String NO_ANSWER = "Cannot determine the answer: the agents hold no opinion on this question.";

    private AnswerJson() { }

    /**
     * The answer as a chat reply's text ({@code gam serve}'s content, gam-langchain4j's AI message): "B. text" for a
     * chosen option (so that matchers reading the letter and those reading the text both work), the text for an open
     * answer, {@link #NO_ANSWER} when there is none.
     */
    public static String text(Answer a) {
        if (a.answer() == null || a.answer().isBlank()) return NO_ANSWER;
        return a.option() != null && !a.option().equals(a.answer()) ? a.option() + ". " + a.answer() : a.answer();
    }

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
        if (a.tokens().cached() != null) t.put("cached", a.tokens().cached()); // only when a server reported it
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
