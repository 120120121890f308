package dev.gamagent.langchain4j;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.langchain4j.model.chat.response.ChatResponseMetadata;

import java.util.Objects;

/**
 * The debate behind a {@link GamChatModel} reply, in the response's metadata ({@code response.metadata()}, cast to
 * this type): what {@code gam ask --json} says of an answer besides its text. Token usage and the id are the base
 * class's ({@code tokenUsage()}, {@code id()}).
 */
public final class GamResponseMetadata extends ChatResponseMetadata {
    private final String method;
    private final String traceId;
    private final Answer answer;

    private GamResponseMetadata(Builder builder) {
        super(builder);
        this.method = builder.method;
        this.traceId = builder.traceId;
        this.answer = Objects.requireNonNull(builder.answer, "answer");
    }

    /** The method that answered: {@code gam}, {@code dream+gam}, {@code single}, ... */
    public String method() { return method; }

    /** The trace's id: the question id of {@link #trace()}, also the response's {@code id()}. */
    public String traceId() { return traceId; }

    /** Debate rounds run (0: no debate). */
    public int rounds() { return answer.rounds(); }

    /** Why the method stopped: {@code consensus}, {@code uncertainty}, {@code max_rounds}, ... */
    public String termination() { return answer.termination() == null ? null : answer.termination().label(); }

    /** The answer's confidence in [0, 1] (GAM: Σ_i w_i·p_i(answer)). */
    public double confidence() { return answer.confidence(); }

    /** The system's uncertainty in [0, 1] (GAM: U_sys). */
    public double uncertainty() { return answer.uncertainty(); }

    /** The chosen option's letter, or null for an open question. */
    public String option() { return answer.option(); }

    /** Backend calls made. */
    public int calls() { return answer.calls(); }

    /** The whole record of the run: every round, agent turn, claim and critique ({@code trace().toJson()}). */
    public Trace trace() { return answer.trace(); }

    /** The library's answer as {@code Gam.ask} returns it. */
    public Answer answer() { return answer; }

    @Override public boolean equals(Object o) {
        return o instanceof GamResponseMetadata m && super.equals(o) && Objects.equals(traceId, m.traceId) && Objects.equals(method, m.method);
    }

    @Override public int hashCode() { return Objects.hash(super.hashCode(), traceId, method); }

    @Override public String toString() {
        return "GamResponseMetadata{method=" + method + ", traceId=" + traceId + ", rounds=" + rounds() + ", termination=" + termination()
                + ", confidence=" + confidence() + ", tokenUsage=" + tokenUsage() + "}";
    }

    static Builder gamBuilder() { return new Builder(); }

    static final class Builder extends ChatResponseMetadata.Builder<Builder> {
        private String method;
        private String traceId;
        private Answer answer;

        Builder method(String m) { this.method = m; return this; }

        Builder traceId(String t) { this.traceId = t; return this; }

        Builder answer(Answer a) { this.answer = a; return this; }

        @Override public GamResponseMetadata build() { return new GamResponseMetadata(this); }
    }
}
