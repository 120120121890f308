package dev.gamagent.telemetry;

import dev.gamagent.api.Answer;
import dev.gamagent.api.RunContext;

/**
 * One question's trace while its method runs ({@link DebateTracing#start}): the context the method runs in, whose backend
 * calls and progress events make the question's child spans, then the answer or the failure that ends it.
 * {@link #NONE} when OpenTelemetry is not on the class path.
 */
public interface QuestionSpan {
    /** No trace: the context as it is. */
    QuestionSpan NONE = new QuestionSpan() {
        @Override public RunContext around(RunContext ctx) { return ctx; }

        @Override public void end(Answer answer) { }

        @Override public void fail(Throwable error) { }
    };

    /** {@code ctx} with its backends and progress listener traced: each call a span, each round a span. */
    RunContext around(RunContext ctx);

    /** The method answered: the answer's figures on the question's span, which ends with its rounds. */
    void end(Answer answer);

    /** The method failed: the error on the question's span, which ends with its rounds. */
    void fail(Throwable error);
}
