package dev.gamagent.eval.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.eval.grade.Outcome;

import java.util.Map;

/**
 * One finished question × method: what was asked, how it was graded and what it cost. The method's
 * full trace is kept as JSON so metrics and the sweep can read rounds, weights and branches.
 *
 * @param rule     which grading mode and rule graded a multiple-choice answer, "mode:step" (vlmevalkit-2026:method,
 *                 vlmevalkit-2026:option, extended:explicit, ...: see docs/metrics.md), or how an open answer matched
 *                 (exact, normalised, numeric, none)
 * @param error    the failure message when {@code outcome} is {@code error}
 * @param backend  the run's default backend ({@link dev.gamagent.backend.Backend#name()})
 * @param backends calls and tokens per backend name the method's agents used ({@code default}, {@code local},
 *                 configured names); null in records written before panels were counted
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResultRecord(String questionId, String group, int rotation, String method, String category,
                           String l2Category, String outcome, String predicted, String groundTruth, String answer,
                           String option, double confidence, double uncertainty, int rounds, String termination,
                           long promptTokens, long completionTokens, boolean tokensEstimated, int calls, long millis,
                           String rule, String error, String backend, Map<String, UsageMeter.Tally> backends,
                           JsonNode trace) {

    /** The canonical constructor, named for Jackson (the record has a second one). */
    @JsonCreator
    public ResultRecord {
    }

    /** A record without a per-backend count (one backend answered everything). */
    public ResultRecord(String questionId, String group, int rotation, String method, String category,
                        String l2Category, String outcome, String predicted, String groundTruth, String answer,
                        String option, double confidence, double uncertainty, int rounds, String termination,
                        long promptTokens, long completionTokens, boolean tokensEstimated, int calls, long millis,
                        String rule, String error, String backend, JsonNode trace) {
        this(questionId, group, rotation, method, category, l2Category, outcome, predicted, groundTruth, answer, option,
                confidence, uncertainty, rounds, termination, promptTokens, completionTokens, tokensEstimated, calls, millis,
                rule, error, backend, null, trace);
    }

    @JsonIgnore
    public Outcome outcomeValue() { return Outcome.of(outcome); }

    @JsonIgnore
    public boolean correct() { return Outcome.CORRECT.label().equals(outcome); }

    @JsonIgnore
    public boolean isError() { return Outcome.ERROR.label().equals(outcome); }

    /** An answer to a question without a public answer: not counted right or wrong. */
    @JsonIgnore
    public boolean ungraded() { return Outcome.UNGRADED.label().equals(outcome); }

    @JsonIgnore
    public long totalTokens() { return promptTokens + completionTokens; }
}
