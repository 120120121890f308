package dev.gamagent.eval.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.influence.StoppingRule;

import java.util.List;

/**
 * The stopping rule a recorded run ran with, read from its traces: the one place that reads {@code theta_u},
 * {@code theta_c}, {@code theta_term}, {@code epsilon}, {@code max_rounds} and {@code token_budget} back from a trace's
 * {@code config} (what GAM writes of its {@code gam.*} settings), for {@code gam sweep}, a {@code record_full} run
 * re-decided ({@link FullLengthRuns}) and a reproduction's rows of a sweep.
 */
public final class RecordedRule {
    private RecordedRule() { }

    /** The gam settings the records' traces recorded (the first trace that has them), or null. */
    public static JsonNode config(List<ResultRecord> records) {
        for (ResultRecord r : records) {
            JsonNode c = config(r);
            if (c != null) return c;
        }
        return null;
    }

    /** One record's recorded gam settings, or null. */
    public static JsonNode config(ResultRecord r) {
        JsonNode c = r.trace().json() == null ? null : r.trace().json().get("config");
        return c != null && c.isObject() ? c : null;
    }

    /** The rule of {@code config} (a trace's recorded settings; null: none), each value it does not record taken from {@code fallback}. */
    public static StoppingRule of(JsonNode config, StoppingRule fallback) {
        return new StoppingRule(number(config, "theta_u", fallback.thetaU()), number(config, "theta_c", fallback.thetaC()),
                number(config, "theta_term", fallback.thetaTerm()), number(config, "epsilon", fallback.epsilon()),
                (int) Math.round(number(config, "max_rounds", fallback.maxRounds())),
                Math.round(number(config, "token_budget", fallback.tokenBudget())));
    }

    private static double number(JsonNode config, String key, double fallback) {
        JsonNode v = config == null ? null : config.get(key);
        return v != null && v.isNumber() ? v.asDouble() : fallback;
    }
}
