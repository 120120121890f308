package dev.gamagent.api;

/** A strategy that turns a question into a final answer using backends (single, cot, gam, dream+gam, ...). */
public interface Method {
    /** The name users type: {@code single}, {@code gam}, {@code dream+debate}, ... */
    String name();

    /** Runs the method on one question. Never returns null; failures of every agent throw {@link MethodFailure}. */
    Answer run(Question question, RunContext context);
}
