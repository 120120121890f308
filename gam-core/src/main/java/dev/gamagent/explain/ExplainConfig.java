package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.gamagent.explain.ExplainJson.put;

/** The settings that act in a method, each with its symbol and what it does; and the configuration a trace recorded. */
final class ExplainConfig {
    private ExplainConfig() {}

    static void gamConfig(JsonNode c, ArrayNode config) {
        put(config, "θ_U", "gam.theta_u", c.path("theta_u"), "a debate starts when U_sys > θ_U");
        put(config, "θ_C", "gam.theta_c", c.path("theta_c"), "a debate starts when the conflict C > θ_C");
        put(config, "θ_term", "gam.theta_term", c.path("theta_term"), "the debate stops when U_sys < θ_term");
        put(config, "ε", "gam.epsilon", c.path("epsilon"), "the debate stops when |ΔU_sys| < ε (stagnation)");
        put(config, "K_max", "gam.max_rounds", c.path("max_rounds"), "the most debate rounds");
        put(config, "λ", "gam.lambda", c.path("lambda"), "weight of agreement: s_j gains λ·Σ_i Sim_ij");
        put(config, "γ", "gam.gamma", c.path("gamma"), "uncertainty penalty: s_j loses γ·N·U_j");
        put(config, "τ", "gam.tau", c.path("tau"), "softmax temperature: w = softmax(s/τ)");
        if (c.path("token_budget").asLong(0) > 0) put(config, "budget", "gam.token_budget", c.path("token_budget"), "the debate stops past this many tokens");
        for (Iterator<Map.Entry<String, JsonNode>> it = c.path("ablation").fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().asBoolean(false)) put(config, "ablation", "gam.ablation." + e.getKey(), e.getValue(), ablationWords(e.getKey()));
        }
    }

    private static String ablationWords(String key) {
        return switch (key) {
            case "no_uncertainty" -> "U_sys is not read: only C starts a debate, agreement ends it";
            case "no_dynamic_weights" -> "every weight is 1/N whatever the game";
            case "no_debate" -> "round 0 decides, no debate";
            case "fixed_rounds" -> "the debate runs K_max rounds";
            default -> "ablation " + key;
        };
    }

    static void dreamConfig(JsonNode d, ArrayNode config) {
        put(config, "ρ", "dream.rho", d.path("rho"), "an agent's answer is rolled back when u(final) > (1 + ρ)·u(its most confident earlier round) and they differ");
        String kind = d.path("threshold").asText("");
        if (kind.equals("static")) {
            put(config, "τ_probe", "dream.static_tau", d.path("static_tau"), "a probe is confident when u ≤ τ_probe");
        } else {
            put(config, "α", "dream.alpha", d.path("alpha"), "adaptive threshold τ_probe = mean(u) − α·std(u) over the readable probes");
        }
        put(config, "scales", "dream.scales", d.path("scales"), "the image scales each agent is probed at");
        put(config, "rollback u", "dream.rollback_uncertainty", d.path("rollback_uncertainty"), "the uncertainty the rollback compares (anll: from log-probs when every reply has them)");
        put(config, "mode", "dream.mode", d.path("mode"), "full, probe_only or rollback_only");
        put(config, "skip on consensus", "dream.consensus_skips_debate", d.path("consensus_skips_debate"), "whether probes that all agree skip the debate");
    }

    /** A panel method's own section: its scalar settings (rounds, agents, samples, temperature, decision rule). */
    static void panelConfig(String method, JsonNode c, ArrayNode config) {
        // the method's own section (div-mad runs in mad's): the one the trace's config holds besides runtime
        String name = method.replace('-', '_');
        for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("runtime")) name = f;
        }
        JsonNode sec = c.path(name);
        Map<String, String[]> known = new LinkedHashMap<>();
        known.put("agents", new String[] {"N", "agents answering in parallel"});
        known.put("rounds", new String[] {"R", "debate rounds after the first answers (fixed: no stop rule)"});
        known.put("turns", new String[] {"turns", "turns of the discussion (fixed)"});
        known.put("samples", new String[] {"k", "answers sampled; the majority wins"});
        known.put("temperature", new String[] {"T", "sampling temperature"});
        known.put("decision", new String[] {"decision", "how the final answer is chosen"});
        known.put("judge_sees", new String[] {"judge sees", "what the judge reads when the moderator does not end the debate"});
        for (var e : known.entrySet()) {
            JsonNode v = sec.path(e.getKey());
            if (!v.isMissingNode()) put(config, e.getValue()[0], name + "." + e.getKey(), v, e.getValue()[1]);
        }
    }

    /** The configuration built from the recorded sections over the defaults (every value the decision reads is the trace's own). */
    static Config configFor(String method, JsonNode cfg) {
        return Config.defaults().withTree(section(method, cfg));
    }

    private static ObjectNode section(String method, JsonNode cfg) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        if (method.equals("gam")) o.set("gam", cfg.deepCopy());
        else o.setAll((ObjectNode) (cfg.isObject() ? cfg.deepCopy() : Json.MAPPER.createObjectNode()));
        return o;
    }
}
