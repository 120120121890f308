package dev.gamagent.eval.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;

import java.util.Map;

/**
 * A {@code ResultRecord} as one line of results.jsonl and results.db: a flat object whose 26 keys, in this order, the
 * resume, the golden record and report.js read. Null fields are left out; a key missing from an older line reads as
 * null (or 0 / false). {@code cachedPromptTokens} is written only when a server reported it, so lines of runs against
 * servers that do not (the built-in model, the demo) are what they were before the key existed.
 * The record converts itself to and from this line; this class knows nothing of the record (no class cycle).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record StoredLine(String questionId, String group, int rotation, String method, String category, String l2Category,
                  String outcome, String predicted, String groundTruth, String answer, String option, double confidence,
                  double uncertainty, int rounds, String termination, long promptTokens, long completionTokens,
                  boolean tokensEstimated, Long cachedPromptTokens, int calls, long millis, String rule, String error, String backend,
                  Map<String, UsageMeter.Tally> backends, JsonNode trace) {

    @JsonCreator
    StoredLine {
    }
}
