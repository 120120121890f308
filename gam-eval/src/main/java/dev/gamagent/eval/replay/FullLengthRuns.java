package dev.gamagent.eval.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.gam.GamSettings;
import dev.gamagent.influence.StoppingRule;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs made with {@code gam.record_full=true} debate to K_max whatever the stopping rule says, so their own
 * figures (rounds, calls, tokens, termination {@code max_rounds}) are not the method's. This re-decides each
 * recorded debate with the default rule at the run's recorded settings, through {@link Sweep#run} (what
 * {@code gam sweep} prints), giving records as the method would have produced them; the forced figures are
 * reported beside them under {@link #FORCED_SUFFIX}.
 */
public final class FullLengthRuns {
    public static final String FORCED_SUFFIX = " (forced full length)";
    /** The rule's values where a trace does not record them: the defaults (defaults.json through GamSettings). */
    private static final StoppingRule DEFAULT_RULE = GamSettings.stopping(Config.defaults());

    private FullLengthRuns() { }

    /** True when the records' traces say they were recorded with {@code gam.record_full=true}. */
    public static boolean recordedFull(List<ResultRecord> records) {
        return records.stream().anyMatch(r -> { JsonNode c = RecordedRule.config(r); return c != null && c.path("record_full").asBoolean(false); });
    }

    /**
     * The records re-decided at their recorded settings: stopping round, termination, tokens, calls and answer as
     * the default rule picks them; the trace cut after that round; wall time pro-rated by calls (the rounds'
     * own times are not recorded). Errors and records the sweep cannot use are returned as they are.
     */
    public static List<ResultRecord> redecided(List<ResultRecord> records) {
        List<ResultRecord> out = new ArrayList<>();
        for (ResultRecord r : records) out.add(redecide(r));
        return out;
    }

    private static ResultRecord redecide(ResultRecord r) {
        if (r.isError() || r.trace().json() == null) return r;
        StoppingRule at = RecordedRule.of(RecordedRule.config(r), DEFAULT_RULE);
        Sweep.Result s;
        try {
            s = Sweep.run(List.of(r), List.of(at)).get(0);
        } catch (IllegalArgumentException e) {
            return r; // no rounds with U_sys: nothing to re-decide
        }
        int k = (int) Math.round(s.meanRounds());
        String termination = s.terminations().keySet().iterator().next();
        JsonNode round = roundAt(r.trace().json(), k);
        JsonNode decision = round == null ? null : round.path("extra").path("decision");
        String option = text(decision, "option", round == null ? null : round.path("extra").path("consensus_option"));
        String answer = text(decision, "answer", round == null ? null : round.path("extra").path("consensus_answer"));
        double confidence = round == null ? r.grade().confidence() : round.path("extra").path("consensus_confidence").asDouble(r.grade().confidence());
        double uncertainty = round == null ? r.grade().uncertainty() : round.path("U_sys").asDouble(r.grade().uncertainty());
        boolean right = s.accuracy() != null && s.accuracy() == 1.0;
        long calls = Math.round(s.callsPerQuestion());
        long millis = r.cost().calls() == 0 ? r.cost().millis() : Math.round((double) r.cost().millis() * calls / r.cost().calls());
        return ResultRecord.of(r.question(), r.method(),
                new ResultRecord.Graded(right ? Outcome.CORRECT.label() : Outcome.WRONG.label(), option, answer, option, confidence,
                        uncertainty, "redecided", null),
                new ResultRecord.Cost(Math.round(s.promptTokensPerQuestion()), Math.round(s.completionTokensPerQuestion()),
                        r.cost().tokensEstimated(), (int) calls, millis, r.cost().backend(), null),
                new ResultRecord.TraceRef(k, termination, cut(r.trace().json(), k, termination, option, answer, confidence)));
    }

    /** The trace as the default rule would have left it: rounds 0..k, its termination and final answer. */
    private static JsonNode cut(JsonNode trace, int k, String termination, String option, String answer, double confidence) {
        ObjectNode t = trace.deepCopy();
        ArrayNode kept = Json.MAPPER.createArrayNode();
        for (JsonNode round : trace.path("rounds")) if (round.path("k").asInt() <= k) kept.add(round.deepCopy());
        t.set("rounds", kept);
        t.put("termination", termination);
        ObjectNode fin = t.putObject("final");
        fin.put("answer", answer);
        fin.put("option", option);
        fin.put("confidence", confidence);
        ObjectNode extra = t.with("extra");
        extra.put("redecided_from", "record_full");
        return t;
    }

    private static JsonNode roundAt(JsonNode trace, int k) {
        for (JsonNode round : trace.path("rounds")) if (round.path("k").asInt() == k) return round;
        return null;
    }

    private static String text(JsonNode decision, String field, JsonNode fallback) {
        if (decision != null && decision.hasNonNull(field)) return decision.get(field).asText();
        return fallback == null || fallback.isMissingNode() || fallback.isNull() ? null : fallback.asText();
    }

}
