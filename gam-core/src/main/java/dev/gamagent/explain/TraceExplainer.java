package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Trace;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.util.Json;

import static dev.gamagent.explain.ExplainConfig.dreamConfig;
import static dev.gamagent.explain.ExplainConfig.gamConfig;
import static dev.gamagent.explain.ExplainConfig.panelConfig;


/**
 * Why a trace's answer won, as structured JSON the trace viewer draws (issue 42 item 2): the configuration that decided
 * (only the settings that act in the method), each agent's answer, distribution and weight per round, what moved each
 * weight, the winning margin, and for DREAM the branch, the rollback, the mixture after it and {@code decided_by}.
 * Every number is recomputed from the trace with the engine's own code (GAM's game: {@link GameState},
 * {@link InfluenceWeights}, {@link Consensus}; the panels' {@link MajorityVote}; DREAM's rollback decision: the inner
 * method's {@code decide}), and the wording is built from those numbers, so it cannot contradict them. {@code checks}
 * lists each recomputed value beside the one the trace stores; a check that fails says the trace and the explainer
 * disagree (a trace from older code, or a bug) instead of hiding it. The explanation is carried beside the trace
 * (the report's sidecar, {@code gam serve}'s {@code /v1/traces/{id}}), never stored in it.
 */
public final class TraceExplainer {
    private final JsonNode trace;
    private final ObjectNode out = Json.MAPPER.createObjectNode();
    private final ArrayNode checks;
    private final GamRounds gam;
    private final FinalDecision decision;
    private final DreamPart dreamPart;

    private TraceExplainer(JsonNode trace) {
        this.trace = trace;
        this.checks = Json.MAPPER.createArrayNode();
        this.gam = new GamRounds(trace, checks);
        this.decision = new FinalDecision(trace, checks);
        this.dreamPart = new DreamPart(trace, checks);
    }

    /** The explanation of a trace (its JSON as {@link Trace#toJson} writes it). Never throws: a failure is reported in {@code error}. */
    public static ObjectNode explain(JsonNode trace) {
        try {
            return new TraceExplainer(trace).build();
        } catch (RuntimeException e) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("error", "the decision could not be explained: " + e);
            return o;
        }
    }

    /** The explanation of a trace. */
    public static ObjectNode explain(Trace trace) { return explain(Json.MAPPER.valueToTree(trace)); }

    /**
     * {@code traceJson} with its explanation added under {@code explanation} (a copy; what the viewer is handed). Of the
     * checks only those that failed travel (the viewer lists them), with {@code checked}, how many were made.
     */
    public static ObjectNode withExplanation(JsonNode traceJson) {
        ObjectNode copy = traceJson.deepCopy();
        ObjectNode e = explain(traceJson);
        JsonNode checks = e.path("checks");
        if (checks.isArray()) {
            ArrayNode failed = Json.MAPPER.createArrayNode();
            for (JsonNode c : checks) if (!c.path("ok").asBoolean()) failed.add(c);
            e.put("checked", checks.size());
            e.set("checks", failed);
        }
        copy.set("explanation", e);
        return copy;
    }

    // ---- the whole trace --------------------------------------------------------------------------------------------

    private ObjectNode build() {
        String method = trace.path("method").asText("");
        boolean dream = method.startsWith("dream+");
        String inner = dream ? trace.at("/extra/inner_method").asText(method.substring("dream+".length())) : method;
        JsonNode cfg = trace.path("config");
        JsonNode innerCfg = dream ? cfg.path("inner") : cfg;
        out.put("method", method);
        ArrayNode config = out.putArray("config");
        if (dream) dreamConfig(cfg.path("dream"), config);
        if (inner.equals("gam")) gamConfig(innerCfg, config);
        else panelConfig(inner, innerCfg, config);
        out.set("rounds", inner.equals("gam") ? gam.gamRounds(innerCfg) : decision.panelRounds());
        out.set("final", decision.finalDecision(inner, innerCfg, dream, out.path("rounds")));
        out.put("termination_words", terminationWords(inner, trace.path("termination").asText("")));
        if (dream) {
            ObjectNode d = dreamPart.dreamPart(inner, innerCfg);
            out.set("dream", d);
            // the final answer is the rollback's decision: its words and margin, never the last round's
            ObjectNode f = (ObjectNode) out.get("final");
            JsonNode after = d.path("after_rollback");
            if (after.has("words")) f.put("words", after.path("words").asText());
            if (after.has("decision")) f.set("margin", after.get("decision").deepCopy());
        }
        out.set("checks", checks);
        boolean ok = true;
        for (JsonNode c : checks) ok &= c.path("ok").asBoolean();
        out.put("consistent", ok);
        return out;
    }

    /** The termination in words for this method (vote and sc end after one round of independent answers). */
    private static String terminationWords(String method, String termination) {
        if (termination.equals("single")) {
            return switch (method) {
                case "vote" -> "independent answers decided by majority vote (no debate)";
                case "sc" -> "sampled answers decided by majority (no debate)";
                default -> "one answer, no debate";
            };
        }
        return null;
    }

    /** Each branch in words (DREAM §3.1; dream.Branch). */
    static String branchWords(String branch) { return DreamPart.branchWords(branch); }

    /**
     * The decimals (at least 3) at which {@code x} reads on the correct side of {@code against}: u 0.0021 beside τ 0.0020
     * is never shown as 0.002 for both.
     */
    static int digitsNeeded(double x, double against) { return ExplainJson.digitsNeeded(x, against); }

    /** {@code x} with {@link #digitsNeeded} decimals against {@code against}. */
    static String digits(double x, double against) { return ExplainJson.digits(x, against); }
}
