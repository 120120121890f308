package dev.gamagent.eval.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;

import java.util.Map;

/**
 * A {@link ResultRecord} as one line of results.jsonl and results.db: a flat object whose 25 keys, in this order, the
 * resume, the golden record and report.js read. Null fields are left out; a key missing from an older line reads as
 * null (or 0 / false).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record StoredLine(String questionId, String group, int rotation, String method, String category, String l2Category,
                  String outcome, String predicted, String groundTruth, String answer, String option, double confidence,
                  double uncertainty, int rounds, String termination, long promptTokens, long completionTokens,
                  boolean tokensEstimated, int calls, long millis, String rule, String error, String backend,
                  Map<String, UsageMeter.Tally> backends, JsonNode trace) {

    @JsonCreator
    StoredLine {
    }

    static StoredLine of(ResultRecord r) {
        ResultRecord.QuestionRef q = r.question();
        ResultRecord.Graded g = r.grade();
        ResultRecord.Cost c = r.cost();
        ResultRecord.TraceRef t = r.trace();
        return new StoredLine(q.id(), q.group(), q.rotation(), r.method(), q.category(), q.l2Category(), g.outcome(),
                g.predicted(), q.groundTruth(), g.answer(), g.option(), g.confidence(), g.uncertainty(), t.rounds(),
                t.termination(), c.promptTokens(), c.completionTokens(), c.tokensEstimated(), c.calls(), c.millis(),
                g.rule(), g.error(), c.backend(), c.backends(), t.json());
    }

    ResultRecord record() {
        return ResultRecord.of(new ResultRecord.QuestionRef(questionId, group, rotation, category, l2Category, groundTruth),
                method, new ResultRecord.Graded(outcome, predicted, answer, option, confidence, uncertainty, rule, error),
                new ResultRecord.Cost(promptTokens, completionTokens, tokensEstimated, calls, millis, backend, backends),
                new ResultRecord.TraceRef(rounds, termination, trace));
    }
}
