package dev.gamagent.eval.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.eval.grade.Outcome;

import java.util.Map;

/**
 * One finished question × method: what was asked, how it was graded, what it cost and the trace it left. The method's
 * full trace is kept as JSON so metrics and the sweep can read rounds, weights and branches.
 *
 * <p>Built in one place, {@link #of}; a line of results.jsonl and results.db stays the flat object of 25 keys it has
 * always been, and a 26th, {@code cachedPromptTokens}, only when a server reported it ({@code StoredLine}), whatever the
 * nesting here.
 *
 * @param question which question (and which circular rotation of it) was asked
 * @param method   the method that answered it
 * @param grade    how the answer was graded
 * @param cost     what answering cost
 * @param trace    how the method ended and the trace it left
 */
public record ResultRecord(QuestionRef question, String method, Graded grade, Cost cost, TraceRef trace) {

    /** The canonical constructor: called by {@link #of} only (a test checks that no other code calls it). */
    public ResultRecord {
    }

    /** The one way to build a record. */
    public static ResultRecord of(QuestionRef question, String method, Graded grade, Cost cost, TraceRef trace) {
        return new ResultRecord(question, method, grade, cost, trace);
    }

    /**
     * The question asked.
     *
     * @param id          the question's id (with a rotation suffix for a circular copy)
     * @param group       the id of the original question, which its circular copies share (null in some graded files:
     *                    then the id stands for it)
     * @param rotation    which circular rotation (0 for the original)
     * @param groundTruth the expected answer; null when the benchmark has no public answer or the row was unreadable
     */
    public record QuestionRef(String id, String group, int rotation, String category, String l2Category,
                              String groundTruth) { }

    /**
     * How the answer was graded.
     *
     * @param outcome   an {@link Outcome} label
     * @param predicted the option or answer the grader read
     * @param rule      which grading mode and rule graded a multiple-choice answer, "mode:step" (vlmevalkit-2026:method,
     *                  vlmevalkit-2026:option, extended:explicit, ...: see docs/metrics.md), or how an open answer
     *                  matched (exact, normalised, numeric, none)
     * @param error     the failure message when {@code outcome} is {@code error}
     */
    public record Graded(String outcome, String predicted, String answer, String option, double confidence,
                         double uncertainty, String rule, String error) {

        /** The same answer graded again: a new outcome, reading and rule. */
        public Graded regraded(String newOutcome, String newPredicted, String newRule) {
            return new Graded(newOutcome, newPredicted, answer, option, confidence, uncertainty, newRule, error);
        }
    }

    /**
     * What answering cost.
     *
     * @param backend  the run's default backend ({@link dev.gamagent.backend.Backend#name()})
     * @param backends calls and tokens per backend name the method's agents used ({@code default}, {@code local},
     *                 configured names); null in records written before panels were counted
     * @param cachedPromptTokens of {@code promptTokens} (the tokens sent), those the servers reported read from their
     *                 prefix cache; null when no server of the answer reported it (docs/metrics.md)
     */
    public record Cost(long promptTokens, long completionTokens, boolean tokensEstimated, int calls, long millis,
                       String backend, Map<String, UsageMeter.Tally> backends, Long cachedPromptTokens) {

        /** A cost without server-reported cached prompt tokens. */
        public Cost(long promptTokens, long completionTokens, boolean tokensEstimated, int calls, long millis, String backend,
                    Map<String, UsageMeter.Tally> backends) {
            this(promptTokens, completionTokens, tokensEstimated, calls, millis, backend, backends, null);
        }

        /** This cost without the per-backend count. */
        public Cost withoutBackends() {
            return new Cost(promptTokens, completionTokens, tokensEstimated, calls, millis, backend, null, cachedPromptTokens);
        }

        /** The prompt tokens the servers computed (sent − cached); null when none reported a cached count. */
        public Long computedPromptTokens() { return cachedPromptTokens == null ? null : promptTokens - cachedPromptTokens; }
    }

    /**
     * How the method ended and what it left.
     *
     * @param termination a {@link dev.gamagent.api.Termination} label; null for methods without rounds and failures
     * @param json        the method's trace as JSON; null when the method left none
     */
    public record TraceRef(int rounds, String termination, JsonNode json) { }

    /** The flat line results.jsonl and results.db hold: Jackson writes and reads a record as this line only. */
    @JsonValue
    StoredLine line() {
        return new StoredLine(question.id(), question.group(), question.rotation(), method, question.category(),
                question.l2Category(), grade.outcome(), grade.predicted(), question.groundTruth(), grade.answer(),
                grade.option(), grade.confidence(), grade.uncertainty(), trace.rounds(), trace.termination(),
                cost.promptTokens(), cost.completionTokens(), cost.tokensEstimated(), cost.cachedPromptTokens(), cost.calls(), cost.millis(),
                grade.rule(), grade.error(), cost.backend(), cost.backends(), trace.json());
    }

    /** A record read from its flat line. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static ResultRecord read(StoredLine l) {
        return of(new QuestionRef(l.questionId(), l.group(), l.rotation(), l.category(), l.l2Category(), l.groundTruth()),
                l.method(), new Graded(l.outcome(), l.predicted(), l.answer(), l.option(), l.confidence(), l.uncertainty(),
                        l.rule(), l.error()),
                new Cost(l.promptTokens(), l.completionTokens(), l.tokensEstimated(), l.calls(), l.millis(), l.backend(),
                        l.backends(), l.cachedPromptTokens()),
                new TraceRef(l.rounds(), l.termination(), l.trace()));
    }

    public Outcome outcomeValue() { return Outcome.of(grade.outcome()); }

    public boolean correct() { return Outcome.CORRECT.label().equals(grade.outcome()); }

    public boolean isError() { return Outcome.ERROR.label().equals(grade.outcome()); }

    /** An answer to a question without a public answer: not counted right or wrong. */
    public boolean ungraded() { return Outcome.UNGRADED.label().equals(grade.outcome()); }
}
