package dev.gamagent.gam;

import dev.gamagent.engine.Role;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.influence.DebateRule;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.influence.StoppingRule;
import dev.gamagent.uncertainty.Scoring;
import dev.gamagent.uncertainty.UncertaintyFallback;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code gam} config section as typed values (defaults in {@code defaults.json}; every value settable
 * with {@code --set gam.x=..}). Agents come from {@code gam.agents} (entries {@code {"role","id","backend",
 * "scale"}}, experts and critics together) when present, else from {@code gam.experts} and
 * {@code gam.critics} (role names or such entries).
 */
public record GamSettings(InfluenceWeights game, StoppingRule stopping, int maxDisputed, Scoring scoring,
                          List<AgentSpec> experts, List<AgentSpec> critics, boolean noUncertainty,
                          boolean noDynamicWeights, boolean noDebate, boolean fixedRounds, boolean recordFull,
                          boolean judge, String judgeBackend, boolean zoom, String embedding, int maxTokens,
                          int topLogprobs, UncertaintyFallback fallback) {

    /** The uncertainty every agent gets under the "no uncertainty" ablation. */
    public static final double EQUAL_U = 0.5;

    /** The trigger and stopping rule with this run's ablation switches (shared with {@code gam sweep}). */
    public DebateRule rule() { return new DebateRule(stopping, noDebate, fixedRounds, recordFull, noUncertainty); }

    public static GamSettings from(Config c) {
        var game = game(c);
        var stop = stopping(c);
        List<AgentSpec> experts = new ArrayList<>(), critics = new ArrayList<>();
        JsonNode agents = c.node("gam.agents");
        if (agents.isArray() && agents.size() > 0) {
            readAgents(agents, "gam.agents", null, experts, critics);
        } else {
            readAgents(c.node("gam.experts"), "gam.experts", Role.Kind.EXPERT, experts, critics);
            readAgents(c.node("gam.critics"), "gam.critics", Role.Kind.CRITIC, experts, critics);
        }
        if (experts.isEmpty()) throw new Config.ConfigException("gam: no experts configured; set gam.experts, e.g. [\"scene\",\"ocr\",\"relational\"]");
        uniqueIds(experts, critics);
        return new GamSettings(game, stop, c.integer("gam.max_disputed"), Scoring.parse(c.string("gam.scoring")),
                List.copyOf(experts), List.copyOf(critics),
                c.bool("gam.ablation.no_uncertainty"), c.bool("gam.ablation.no_dynamic_weights"),
                c.bool("gam.ablation.no_debate"), c.bool("gam.ablation.fixed_rounds"),
                c.bool("gam.record_full"), c.bool("gam.judge"), c.optionalString("gam.judge_backend").orElse(null),
                c.bool("gam.zoom"), c.string("gam.embedding"),
                c.integer("gam.max_tokens"), c.integer("logprobs.top_k"), UncertaintyFallback.from(c, "gam"));
    }

    /** The influence weights λ, γ, τ ({@code gam.lambda}, {@code gam.gamma}, {@code gam.tau}; docs/design.md §6). */
    public static InfluenceWeights game(Config c) {
        return new InfluenceWeights(c.number("gam.lambda"), c.number("gam.gamma"), c.number("gam.tau"));
    }

    /**
     * The trigger and stopping rule: θ_U, θ_C, θ_term, ε, K_max and the token budget ({@code gam.theta_u}, …,
     * {@code gam.max_rounds}, {@code gam.token_budget}); {@code stopping(Config.defaults())} is the paper's rule.
     */
    public static StoppingRule stopping(Config c) {
        return new StoppingRule(c.number("gam.theta_u"), c.number("gam.theta_c"),
                c.number("gam.theta_term"), c.number("gam.epsilon"), c.integer("gam.max_rounds"),
                (long) c.number("gam.token_budget"));
    }

    /**
     * Where the {@code gam} section names a backend: {@code gam.experts[i].backend} (or {@code gam.critics[i]},
     * {@code gam.agents[i]}) and {@code gam.judge_backend} → name (see {@code Method.backendRefs}).
     */
    public static Map<String, String> backendRefs(Config c) {
        Map<String, String> refs = new LinkedHashMap<>();
        JsonNode agents = c.node("gam.agents");
        List<String> keys = agents.isArray() && agents.size() > 0 ? List.of("gam.agents") : List.of("gam.experts", "gam.critics");
        for (String key : keys) {
            JsonNode list = c.node(key);
            if (!list.isArray()) continue;
            for (int i = 0; i < list.size(); i++) {
                JsonNode b = list.get(i).path("backend");
                if (b.isTextual() && !b.asText().isBlank()) refs.put(key + "[" + i + "].backend", b.asText().strip());
                else if (!b.isMissingNode() && !b.isNull()) throw new Config.ConfigException(key + "[" + i + "].backend must be a backend name, got " + b);
            }
        }
        String judge = c.optionalString("gam.judge_backend").orElse(null);
        if (judge != null && !judge.isBlank()) refs.put("gam.judge_backend", judge.strip());
        return refs;
    }

    private static void readAgents(JsonNode list, String key, Role.Kind expected, List<AgentSpec> experts, List<AgentSpec> critics) {
        if (list.isMissingNode() || list.isNull()) return;
        if (!list.isArray()) throw new Config.ConfigException(key + " must be a list of role names or {\"role\":..} entries");
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String where = key + "[" + i + "]";
            Role role;
            String id = null, backend = null;
            double scale = 1.0;
            try {
                if (e.isTextual()) {
                    role = Role.parse(e.asText(), where);
                } else if (e.isObject()) {
                    role = Role.parse(e.path("role").asText(null), where);
                    id = e.hasNonNull("id") ? e.get("id").asText() : null;
                    backend = e.hasNonNull("backend") && !e.get("backend").asText().isBlank() ? e.get("backend").asText().strip() : null;
                    if (e.has("scale")) scale = Config.numberAt(where + ".scale", e.get("scale"));
                } else {
                    throw new IllegalArgumentException(where + " must be a role name or an object with \"role\"");
                }
                if (expected != null && role.kind() != expected) {
                    throw new IllegalArgumentException(where + ": '" + role.key() + "' is a " + role.kind().name().toLowerCase()
                            + " role; put it in gam." + (role.kind() == Role.Kind.EXPERT ? "experts" : "critics"));
                }
                AgentSpec spec = new AgentSpec(id == null ? role.key() : id, role, backend, scale);
                (role.kind() == Role.Kind.EXPERT ? experts : critics).add(spec);
            } catch (IllegalArgumentException ex) {
                throw new Config.ConfigException(ex.getMessage().startsWith(where) ? ex.getMessage() : where + ": " + ex.getMessage());
            }
        }
    }

    /** Two agents with the same role get ids ocr, ocr-2, ... so traces keep them apart. */
    private static void uniqueIds(List<AgentSpec> experts, List<AgentSpec> critics) {
        Set<String> seen = new HashSet<>();
        for (List<AgentSpec> l : List.of(experts, critics)) {
            for (int i = 0; i < l.size(); i++) {
                AgentSpec a = l.get(i);
                String id = a.id();
                for (int n = 2; !seen.add(id); n++) id = a.id() + "-" + n;
                if (!id.equals(a.id())) l.set(i, new AgentSpec(id, a.role(), a.backend(), a.scale()));
            }
        }
    }
}
