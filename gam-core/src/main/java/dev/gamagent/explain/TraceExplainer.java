package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.config.Config;
import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.influence.Similarity;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
    /** Values closer than this are the same number (the trace stores doubles as JSON, which round-trips exactly). */
    static final double SAME = 1e-9;

    private final JsonNode trace;
    private final ObjectNode out = Json.MAPPER.createObjectNode();
    private final ArrayNode checks;

    private TraceExplainer(JsonNode trace) {
        this.trace = trace;
        this.checks = Json.MAPPER.createArrayNode();
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
        out.set("rounds", inner.equals("gam") ? gamRounds(innerCfg) : panelRounds());
        out.set("final", finalDecision(method, inner, innerCfg, dream));
        out.put("termination_words", terminationWords(inner, trace.path("termination").asText("")));
        if (dream) {
            ObjectNode d = dreamPart(inner, innerCfg);
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

    // ---- configuration: the settings that act in this method, each with its symbol and what it does ----------------

    private static void put(ArrayNode config, String symbol, String key, JsonNode value, String meaning) {
        ObjectNode o = config.addObject();
        o.put("symbol", symbol);
        o.put("key", key);
        if (value == null || value.isMissingNode()) o.put("value", "not recorded"); else o.set("value", value);
        o.put("meaning", meaning);
    }

    private static void gamConfig(JsonNode c, ArrayNode config) {
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

    private static void dreamConfig(JsonNode d, ArrayNode config) {
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
    private static void panelConfig(String method, JsonNode c, ArrayNode config) {
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

    // ---- GAM: the game of every round, recomputed ------------------------------------------------------------------

    private ArrayNode gamRounds(JsonNode c) {
        ArrayNode rounds = Json.MAPPER.createArrayNode();
        boolean mc = !trace.at("/question/options").isEmpty();
        InfluenceWeights game = c.has("lambda") && c.has("gamma") && c.has("tau")
                ? new InfluenceWeights(c.path("lambda").asDouble(), c.path("gamma").asDouble(), c.path("tau").asDouble()) : null;
        boolean uniform = c.at("/ablation/no_dynamic_weights").asBoolean(false);
        Map<String, ObjectNode> before = new HashMap<>();
        for (JsonNode r : trace.path("rounds")) {
            ObjectNode ro = rounds.addObject();
            int k = r.path("k").asInt();
            ro.put("k", k);
            List<JsonNode> live = new ArrayList<>();
            for (JsonNode a : r.path("agents")) if (!a.hasNonNull("error") && a.hasNonNull("weight")) live.add(a);
            int n = live.size();
            double[] u = new double[n];
            boolean[] opinion = new boolean[n];
            List<Map<String, Double>> dists = new ArrayList<>();
            List<String> answers = new ArrayList<>();
            boolean canRecompute = game != null && n > 0;
            for (int i = 0; i < n; i++) {
                JsonNode a = live.get(i);
                u[i] = a.path("uncertainty").asDouble();
                opinion[i] = !r.at("/extra/no_opinion").has(a.path("id").asText());
                Map<String, Double> d = doubles(a.path("optionDistribution"));
                if (mc && d == null) canRecompute = false;
                dists.add(d);
                answers.add(a.path("answer").asText(""));
            }
            String similarity = trace.at("/extra/similarity").asText(mc ? "bhattacharyya" : "");
            if (!mc && !similarity.equals("jaccard")) {
                canRecompute = false;
                ro.put("not_recomputed", "open answers compared by " + (similarity.isEmpty() ? "an unrecorded similarity" : similarity)
                        + ": the embedding model is not loaded to explain a trace, so the weights are the trace's");
            }
            GameState g = null;
            if (canRecompute) {
                double[][] sim = mc ? new Similarity(null).multipleChoice(dists) : Similarity.lexical().open(answers);
                g = GameState.compute(u, sim, game, uniform, opinion);
            }
            Map<String, ObjectNode> now = new HashMap<>();
            ArrayNode agents = ro.putArray("agents");
            for (JsonNode a : r.path("agents")) {
                String id = a.path("id").asText();
                ObjectNode ao = agent(a);
                int i = live.indexOf(a);
                if (g != null && i >= 0) {
                    double agree = 0;
                    for (int j = 0; j < n; j++) if (j != i) agree += g.sim()[j][i];
                    ObjectNode terms = ao.putObject("terms");
                    terms.put("confidence", 1 - u[i]);
                    terms.put("agreement", game.lambda() * agree);
                    terms.put("penalty", game.gamma() * n * u[i]);
                    terms.put("s", g.scores()[i]);
                    ao.put("weight", g.weights()[i]);
                    check("round " + k + " weight of " + id, a.path("weight").asDouble(), g.weights()[i]);
                    check("round " + k + " score of " + id + " = (1 − U) + λΣSim − γNU", g.scores()[i],
                            (1 - u[i]) + game.lambda() * agree - game.gamma() * n * u[i]);
                }
                if (r.at("/extra/no_opinion").has(id)) ao.put("no_opinion", r.at("/extra/no_opinion").path(id).asText());
                critiquesOn(r, id, ao);
                ObjectNode was = before.get(id);
                if (k > 0 && was != null) moved(ao, was);
                agents.add(ao);
                now.put(id, ao);
            }
            before.putAll(now);
            if (g != null) {
                ro.put("U_sys", g.uSys());
                ro.put("conflict", g.conflict());
                if (r.has("U_sys")) check("round " + k + " U_sys = Σ w·U", r.path("U_sys").asDouble(), g.uSys());
                if (r.has("conflict")) check("round " + k + " conflict C", r.path("conflict").asDouble(), g.conflict());
                if (mc) {
                    List<Consensus.Vote> votes = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        JsonNode a = live.get(i);
                        votes.add(new Consensus.Vote(text(a, "option"), text(a, "answer"), dists.get(i), opinion[i]));
                    }
                    Consensus.Verdict v = Consensus.multipleChoice(votes, g.weights(), letters(), options());
                    ro.set("decision", mixtureDecision(v, votes, g.weights(), "round " + k, r.path("extra")));
                }
            } else if (r.hasNonNull("U_sys")) {
                ro.put("U_sys", r.path("U_sys").asDouble());
                if (r.hasNonNull("conflict")) ro.put("conflict", r.path("conflict").asDouble());
            }
        }
        return rounds;
    }

    /** What moved an agent's weight from the previous round: each term of its score, its answer, the critiques of its claims. */
    private static void moved(ObjectNode now, ObjectNode was) {
        if (!now.has("weight") || !was.has("weight")) return;
        double w0 = was.path("weight").asDouble(), w1 = now.path("weight").asDouble();
        ObjectNode m = now.putObject("moved");
        m.put("weight_before", w0);
        m.put("weight_change", w1 - w0);
        StringBuilder words = new StringBuilder(String.format(Locale.ROOT, "w %.3f → %.3f (%s)", w0, w1, signed(w1 - w0)));
        JsonNode t0 = was.path("terms"), t1 = now.path("terms");
        if (!t0.isMissingNode() && !t1.isMissingNode()) {
            double dc = t1.path("confidence").asDouble() - t0.path("confidence").asDouble();
            double da = t1.path("agreement").asDouble() - t0.path("agreement").asDouble();
            double dp = t1.path("penalty").asDouble() - t0.path("penalty").asDouble();
            m.put("confidence_change", dc);
            m.put("agreement_change", da);
            m.put("penalty_change", -dp);
            double u0 = was.path("u").asDouble(), u1 = now.path("u").asDouble();
            words.append(Math.abs(u1 - u0) < 5e-4
                    ? String.format(Locale.ROOT, ": U unchanged at %.3f", u1)
                    : String.format(Locale.ROOT, ": U %.3f → %.3f moved (1 − U) by %s and −γ·N·U by %s", u0, u1, signed(dc), signed(-dp)));
            words.append(String.format(Locale.ROOT, "; agreement λ·ΣSim %.3f → %.3f (%s)", t0.path("agreement").asDouble(),
                    t1.path("agreement").asDouble(), signed(da)));
        }
        String a0 = was.path("option").asText(was.path("answer").asText("")), a1 = now.path("option").asText(now.path("answer").asText(""));
        if (!a0.equals(a1)) words.append("; answer changed ").append(a0.isEmpty() ? "–" : a0).append(" → ").append(a1.isEmpty() ? "–" : a1);
        JsonNode cr = now.path("critiques");
        if (!cr.isMissingNode()) {
            words.append(String.format(Locale.ROOT, "; critiques of its claims this round: %d accurate, %d partly, %d inaccurate (they reach the weight through its revised answer and U)",
                    cr.path("accurate").asInt(), cr.path("partial").asInt(), cr.path("inaccurate").asInt()));
        }
        m.put("words", words.toString());
    }

    /** The verdicts a round's critics gave on one expert's claims, by kind (the viewer's colours: inaccurate, partly, accurate). */
    private static void critiquesOn(JsonNode r, String id, ObjectNode ao) {
        int ok = 0, partial = 0, bad = 0;
        for (JsonNode c : r.path("critiques")) {
            if (!id.equals(c.path("expert").asText())) continue;
            String a = c.path("assessment").asText("").toLowerCase(Locale.ROOT);
            if (a.contains("partial")) partial++;
            else if (a.contains("inaccurate") || a.contains("wrong") || a.contains("false") || a.contains("unsupported")) bad++;
            else ok++;
        }
        if (ok + partial + bad == 0) return;
        ObjectNode o = ao.putObject("critiques");
        o.put("accurate", ok);
        o.put("partial", partial);
        o.put("inaccurate", bad);
    }

    /** A multiple-choice decision: the mixture, the winner, the best other option and the margin between them. */
    private ObjectNode mixtureDecision(Consensus.Verdict v, List<Consensus.Vote> votes, double[] w, String where, JsonNode recorded) {
        ObjectNode d = Json.MAPPER.createObjectNode();
        d.put("measure", "Σ w·p");
        ObjectNode mix = d.putObject("mixture");
        v.mixture().forEach(mix::put);
        d.put("rule", v.rule().label());
        if (v.option() == null) {
            d.put("words", "no expert held an opinion: no answer");
            return d;
        }
        Map<String, Double> scores = v.mixture();
        String measure = "Σ w·p";
        if (v.rule() == Consensus.Rule.CHOICES) {
            // the mixture was too flat or tied: the weight of the experts behind each choice decided
            Map<String, Double> behind = new LinkedHashMap<>();
            for (int i = 0; i < votes.size(); i++) {
                Consensus.Vote vote = votes.get(i);
                if (vote.opinion() && vote.option() != null) behind.merge(vote.option(), w[i], Double::sum);
            }
            scores = behind;
            measure = "weight behind each choice";
            ObjectNode b = d.putObject("behind");
            behind.forEach(b::put);
        }
        margin(d, v.option(), scores);
        d.put("option", v.option());
        d.put("answer", v.answer());
        d.put("confidence", v.confidence());
        String runner = d.path("runner_up").asText(null);
        String words = runner == null
                ? String.format(Locale.ROOT, "%s wins with %s %.3f; no other option was chosen", v.option(), measure, scores.get(v.option()))
                : String.format(Locale.ROOT, "%s wins %.3f to %s %.3f by %s: margin %.3f", v.option(), scores.get(v.option()), runner,
                scores.get(runner), measure, d.path("margin").asDouble());
        if (v.rule() == Consensus.Rule.CHOICES) words += " (the mixture Σ w·p was tied or too flat to decide: spread below " + Consensus.NEAR_UNIFORM + ")";
        d.put("words", words);
        if (recorded != null && !recorded.isMissingNode()) {
            check(where + " option", recorded.path("consensus_option").asText(null), v.option());
            for (var e : v.mixture().entrySet()) if (recorded.path("mixture").has(e.getKey())) {
                check(where + " Σ w·p(" + e.getKey() + ")", recorded.path("mixture").path(e.getKey()).asDouble(), e.getValue());
            }
            if (recorded.has("consensus_confidence")) check(where + " confidence", recorded.path("consensus_confidence").asDouble(), v.confidence());
        }
        return d;
    }

    /** {@code winner}, the best other key of {@code scores}, and the difference. */
    private static void margin(ObjectNode d, String winner, Map<String, Double> scores) {
        String runner = null;
        for (var e : scores.entrySet()) {
            if (e.getKey().equals(winner)) continue;
            if (runner == null || e.getValue() > scores.get(runner)) runner = e.getKey();
        }
        d.put("winner", winner);
        d.put("winner_value", scores.getOrDefault(winner, 0.0));
        if (runner != null && scores.get(runner) > 0) {
            d.put("runner_up", runner);
            d.put("runner_up_value", scores.get(runner));
            d.put("margin", scores.getOrDefault(winner, 0.0) - scores.get(runner));
        } else {
            d.put("margin", scores.getOrDefault(winner, 0.0));
        }
    }

    // ---- the panels: majority votes over the rounds --------------------------------------------------------------------

    private ArrayNode panelRounds() {
        ArrayNode rounds = Json.MAPPER.createArrayNode();
        for (JsonNode r : trace.path("rounds")) {
            ObjectNode ro = rounds.addObject();
            ro.put("k", r.path("k").asInt());
            ArrayNode agents = ro.putArray("agents");
            for (JsonNode a : r.path("agents")) agents.add(agent(a));
            Map<String, Double> tally = new LinkedHashMap<>();
            for (JsonNode a : r.path("agents")) {
                if (a.hasNonNull("error") || isJudge(a)) continue;
                tally.merge(Consensus.key(text(a, "answer"), text(a, "option")), 1.0, Double::sum);
            }
            if (!tally.isEmpty()) {
                ObjectNode t = ro.putObject("tally");
                tally.forEach(t::put);
            }
            JsonNode d = r.at("/extra/decision");
            if (!d.isMissingNode()) ro.set("decision", d.deepCopy());
        }
        return rounds;
    }

    private static boolean isJudge(JsonNode a) {
        String role = a.path("role").asText("");
        return role.equals("judge") || role.equals("moderator");
    }

    /** The turns a panel decided on: the last round's (an agent whose call failed keeps its previous answer), judges apart. */
    private List<JsonNode> lastKept() {
        Map<String, JsonNode> kept = new LinkedHashMap<>();
        JsonNode rounds = trace.path("rounds");
        for (int i = 0; i < rounds.size(); i++) {
            JsonNode r = rounds.get(i);
            boolean last = i == rounds.size() - 1;
            Map<String, JsonNode> now = new LinkedHashMap<>();
            for (JsonNode a : r.path("agents")) {
                if (isJudge(a)) continue;
                String id = a.path("id").asText();
                now.put(id, a.hasNonNull("error") && kept.containsKey(id) ? kept.get(id) : a);
            }
            if (last || !now.isEmpty()) kept = now;
        }
        return new ArrayList<>(kept.values());
    }

    /** The turn named {@code id} (else the last with that role) of the last round, or null. */
    private JsonNode lastRoundTurn(String id) {
        JsonNode rounds = trace.path("rounds");
        if (rounds.isEmpty()) return null;
        JsonNode found = null;
        for (JsonNode a : rounds.get(rounds.size() - 1).path("agents")) {
            if (a.path("id").asText().equals(id)) return a;
            if (a.path("role").asText().equals(id)) found = a;
        }
        return found;
    }

    // ---- the final answer ----------------------------------------------------------------------------------------------

    private ObjectNode finalDecision(String method, String inner, JsonNode innerCfg, boolean dream) {
        ObjectNode f = Json.MAPPER.createObjectNode();
        JsonNode fin = trace.path("final");
        f.put("option", text(fin, "option"));
        f.put("answer", text(fin, "answer"));
        f.put("confidence", fin.path("confidence").asDouble());
        JsonNode ex = trace.path("extra");
        if (dream) {
            String by = ex.path("decided_by").asText(null);
            f.put("decided_by", by);
            if (ex.path("debate_skipped").asBoolean(false)) {
                f.put("decided_by", "probe consensus");
                f.put("words", String.format(Locale.ROOT, "every probe agreed on %s and dream.consensus_skips_debate is on: no debate ran; confidence 1 − mean u of the probes = %.3f",
                        label(fin), fin.path("confidence").asDouble()));
            }
            // the rest is in the DREAM part: the rollback and the decision over the answers it kept
            return f;
        }
        if (inner.equals("gam")) {
            f.put("decided_by", "gam");
            JsonNode rounds = out.path("rounds");
            JsonNode last = rounds.isEmpty() ? null : rounds.get(rounds.size() - 1).path("decision");
            if (ex.has("judge")) {
                f.put("words", "the judge chose the open answer after the debate (gam.judge)");
            } else if (last != null && !last.isMissingNode()) {
                f.set("margin", last.deepCopy());
                f.put("words", "the last round's weighted consensus decided: " + last.path("words").asText()
                        + String.format(Locale.ROOT, "; the confidence %.3f is Σ w·p of %s", fin.path("confidence").asDouble(), label(fin)));
                check("final option = the last round's consensus", text(fin, "option"), text(last, "option"));
                check("final confidence = Σ w·p of the winner", fin.path("confidence").asDouble(), last.path("confidence").asDouble());
            } else {
                JsonNode r = trace.path("rounds");
                JsonNode lr = r.isEmpty() ? null : r.get(r.size() - 1);
                f.put("words", lr != null && lr.at("/extra/consensus_rule").asText("").equals("heaviest")
                        ? "open answer: the heaviest expert with an opinion gave it" : "the last round's consensus decided");
            }
            return f;
        }
        // the panels
        String by = ex.path("decided_by").asText(null);
        List<JsonNode> voters;
        String who;
        if ("judge".equals(by) || "moderator".equals(by)) {
            JsonNode j = lastRoundTurn(by);
            voters = j == null ? List.of() : List.of(j);
            who = "the " + by + "'s answer";
        } else {
            voters = lastKept();
            who = voters.size() == 1 ? "its only answer" : "the majority of the last round's answers";
        }
        f.put("decided_by", by != null ? by : voters.size() == 1 ? "single answer" : "majority");
        List<JsonNode> read = voters.stream().filter(a -> !a.hasNonNull("error") && !"unmatched".equals(a.path("parse").asText())).toList();
        if (read.isEmpty()) read = voters.stream().filter(a -> !a.hasNonNull("error")).toList();
        if (read.isEmpty()) {
            f.put("words", "no answer was read");
            return f;
        }
        boolean weighted = inner.equals("debunc") && innerCfg.at("/debunc/decision").asText("").equalsIgnoreCase("weighted");
        boolean ties = !(inner.equals("debunc") && !weighted);
        List<MajorityVote.Ballot> ballots = new ArrayList<>();
        for (JsonNode a : read) {
            double u = a.path("uncertainty").asDouble();
            ballots.add(new MajorityVote.Ballot(Consensus.key(text(a, "answer"), text(a, "option")), text(a, "answer"), text(a, "option"), u,
                    weighted ? 1 - u : 1.0));
        }
        MajorityVote.Verdict v = MajorityVote.decide(ballots, ties);
        ObjectNode m = Json.MAPPER.createObjectNode();
        m.put("measure", weighted ? "Σ (1 − u) of its voters" : "votes");
        ObjectNode t = m.putObject("tally");
        v.scores().forEach(t::put);
        margin(m, v.key(), v.scores());
        f.set("margin", m);
        check("final answer = " + who, text(fin, "option") != null ? text(fin, "option") : text(fin, "answer"),
                v.option() != null ? v.option() : v.answer());
        check("final confidence = Σ (1 − u) of the winner's voters / N", fin.path("confidence").asDouble(), v.confidence());
        String runner = m.path("runner_up").asText(null);
        String tally = String.format(Locale.ROOT, "%s %s", fmt(v.scores().get(v.key())), weighted ? "(Σ 1 − u)" : v.scores().get(v.key()) == 1 ? "vote" : "votes");
        String words = read.size() == 1
                ? "decided by " + who + " (" + label(fin) + ")"
                : "decided by " + who + ": " + v.key() + " " + tally + (runner == null ? ", no other answer"
                : " to " + runner + " " + fmt(v.scores().get(runner)) + String.format(Locale.ROOT, ", margin %s", fmt(m.path("margin").asDouble())))
                + (ties ? "; a tie goes to the lower mean uncertainty" : "; a tie goes to the answer given first");
        f.put("words", words + (read.size() == 1 ? String.format(Locale.ROOT, "; confidence %.3f = 1 − u", v.confidence())
                : String.format(Locale.ROOT, "; confidence %.3f = Σ (1 − u) of the winner's voters / %d", v.confidence(), read.size())));
        return f;
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

    // ---- DREAM ---------------------------------------------------------------------------------------------------------

    private ObjectNode dreamPart(String inner, JsonNode innerCfg) {
        JsonNode ex = trace.path("extra");
        ObjectNode d = Json.MAPPER.createObjectNode();
        String branch = ex.path("branch").asText(null);
        d.put("branch", branch);
        if (branch != null) d.put("branch_words", branchWords(branch));
        if (ex.has("branch_reason")) d.put("why", ex.path("branch_reason").asText());
        double tau = ex.path("threshold").asDouble(Double.NaN);
        if (!Double.isNaN(tau)) {
            d.put("threshold", tau);
            d.put("threshold_kind", ex.path("threshold_kind").asText(""));
        }
        // one number of decimals for τ and every probe's u, enough for each to read on its side of τ
        int precision = 3;
        if (!Double.isNaN(tau)) for (JsonNode p : ex.path("probes")) precision = Math.max(precision, digitsNeeded(p.path("u").asDouble(), tau));
        if (!Double.isNaN(tau)) d.put("threshold_text", sig(tau, precision));
        ArrayNode probes = d.putArray("probes");
        for (JsonNode p : ex.path("probes")) {
            ObjectNode po = probes.addObject();
            po.put("agent", p.path("agent").asText());
            po.put("scale", p.path("scale").asDouble());
            double u = p.path("u").asDouble();
            po.put("u", u);
            po.put("u_text", sig(u, precision));
            boolean readable = !p.hasNonNull("error") && !p.path("key").asText("").isBlank();
            boolean under = !Double.isNaN(tau) && u <= tau + 1e-12;
            po.put("u_le_tau", under);
            po.put("confident", p.path("confident").asBoolean());
            if (under && !readable) po.put("why_not", p.hasNonNull("error") ? "the call failed" : "no readable answer: a refusal or unread reply is never confident");
            // the probe table's mark is the engine's own (ResolutionAssignment.mark: readable and u ≤ τ)
            check("probe " + p.path("agent").asText() + " ×" + fmt(p.path("scale").asDouble()) + " confident = readable and u ≤ τ",
                    p.path("confident").asBoolean() ? 1 : 0, readable && under ? 1 : 0);
        }
        int innerRounds = trace.path("rounds").size();
        d.put("inner_rounds", innerRounds);
        d.put("debate_rounds", Math.max(0, innerRounds - 1));
        boolean consensus = ex.path("consensus").asBoolean(false);
        if (ex.path("debate_skipped").asBoolean(false)) {
            d.put("debate_words", "every probe agreed and dream.consensus_skips_debate is on: the debate was skipped");
        } else if (consensus) {
            d.put("debate_words", "every readable probe agreed, but dream.consensus_skips_debate is off, so " + inner + " ran"
                    + (innerRounds <= 1 ? ": its round 0 only (its own rule started no debate round)" : " " + (innerRounds - 1) + " debate round(s)"));
        } else if (ex.has("consensus")) {
            d.put("debate_words", "the probes did not all agree; " + inner + " ran " + (innerRounds <= 1 ? "its round 0 only (its own rule started no debate round)"
                    : (innerRounds - 1) + " debate round(s)"));
        }
        String uName = "anll".equals(ex.path("rollback_uncertainty").asText()) ? "u_ANLL" : "u";
        d.put("rollback_uncertainty", ex.path("rollback_uncertainty").asText(null));
        d.put("rollback_u_name", "anll".equals(ex.path("rollback_uncertainty").asText())
                ? "u_ANLL (mean negative log-likelihood of the reply's tokens, recorded as each reply came back; not the round table's u, which is the agent's own signal)"
                : "u (the round table's own uncertainty of each turn)");
        double rho = trace.at("/config/dream/rho").asDouble(Double.NaN);
        if (!Double.isNaN(rho)) d.put("rho", rho);
        ArrayNode rbs = d.putArray("rollbacks");
        Map<String, Integer> restored = new LinkedHashMap<>();
        for (JsonNode b : ex.path("rollbacks")) {
            ObjectNode o = b.deepCopy();
            restored.put(b.path("agent").asText(), b.path("restoredRound").asInt());
            o.put("words", String.format(Locale.ROOT, "%s: round %d “%s” (%s %s) → round %d “%s” (%s %s), because %s %s > (1 + ρ)·%s = (1 + %s)·%s = %s",
                    b.path("agent").asText(), b.path("finalRound").asInt(), b.path("finalAnswer").asText(), uName, fmt(b.path("finalU").asDouble()),
                    b.path("restoredRound").asInt(), b.path("restoredAnswer").asText(), uName, fmt(b.path("restoredU").asDouble()),
                    uName, fmt(b.path("finalU").asDouble()), uName, fmt(rho), fmt(b.path("restoredU").asDouble()),
                    fmt((1 + rho) * b.path("restoredU").asDouble())));
            check("rollback of " + b.path("agent").asText() + ": u(final) > (1 + ρ)·u(r*)", 1,
                    b.path("finalU").asDouble() > (1 + rho) * b.path("restoredU").asDouble() ? 1 : 0);
            rbs.add(o);
        }
        String by = ex.path("decided_by").asText(null);
        d.put("decided_by", by);
        JsonNode innerFinal = ex.path("inner_final");
        if (!innerFinal.isMissingNode()) {
            d.put("inner_answer", label(innerFinal));
            d.put("inner_confidence", innerFinal.path("confidence").asDouble());
        }
        if (by != null && !trace.path("rounds").isEmpty()) d.set("after_rollback", afterRollback(inner, innerCfg, by, restored));
        return d;
    }

    /** The answers the rollback kept and the decision over them: the inner method's own rule (gam: Σ w·p), else the majority. */
    private ObjectNode afterRollback(String inner, JsonNode innerCfg, String by, Map<String, Integer> restored) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        // each agent's last answered turn, or the earlier turn the rollback restored, carrying the last turn's weight
        Map<String, JsonNode> last = new LinkedHashMap<>();
        Map<String, Integer> lastRound = new LinkedHashMap<>();
        for (JsonNode r : trace.path("rounds")) {
            for (JsonNode a : r.path("agents")) {
                if (a.hasNonNull("error") || !a.hasNonNull("answer")) continue;
                last.put(a.path("id").asText(), a);
                lastRound.put(a.path("id").asText(), r.path("k").asInt());
            }
        }
        List<Trace.AgentTurn> answers = new ArrayList<>();
        ArrayNode kept = o.putArray("answers");
        for (var e : last.entrySet()) {
            JsonNode turn = e.getValue();
            int from = lastRound.get(e.getKey());
            Integer back = restored.get(e.getKey());
            if (back != null) {
                JsonNode earlier = turnOf(back, e.getKey());
                if (earlier != null) {
                    ObjectNode c = earlier.deepCopy();
                    if (turn.hasNonNull("weight")) c.set("weight", turn.get("weight")); else c.remove("weight");
                    turn = c;
                    from = back;
                }
            }
            ObjectNode ko = kept.addObject();
            ko.put("id", e.getKey());
            ko.put("answer", text(turn, "answer"));
            ko.put("option", text(turn, "option"));
            ko.put("from_round", from);
            ko.put("rolled_back", back != null);
            if (turn.hasNonNull("weight")) ko.put("weight", turn.path("weight").asDouble());
            ko.put("u", turn.path("uncertainty").asDouble());
            answers.add(Json.MAPPER.convertValue(turn, Trace.AgentTurn.class));
        }
        JsonNode fin = trace.path("final");
        if (by.equals(inner)) {
            Method m = MethodRegistry.create(inner);
            Question q = question();
            Config config = configFor(inner, innerCfg);
            var decided = ((MultiAgentMethod) m).decide(q, answers, config).orElse(null);
            if (decided == null) {
                o.put("words", inner + " recorded that it decided, yet its rule gives no decision over these answers");
                return o;
            }
            check("final answer = " + inner + "'s rule over the answers after the rollback", text(fin, "option") != null ? text(fin, "option") : text(fin, "answer"),
                    decided.option() != null ? decided.option() : decided.answer());
            check("final confidence after the rollback", fin.path("confidence").asDouble(), decided.confidence());
            if (q.isMultipleChoice() && inner.equals("gam")) {
                // the same mixture GamDecision reads, over the kept answers with the last round's weights
                List<Consensus.Vote> votes = new ArrayList<>();
                List<Double> ws = new ArrayList<>();
                for (Trace.AgentTurn t : answers) {
                    if (t.weight() == null) continue;
                    boolean opinion = Consensus.noOpinion(false, !"none".equals(t.parse()), t.answer(), t.option(), true) == null;
                    votes.add(new Consensus.Vote(t.option(), t.answer(), t.optionDistribution(), opinion));
                    ws.add(t.weight());
                }
                double[] w = ws.stream().mapToDouble(Double::doubleValue).toArray();
                Consensus.Verdict v = Consensus.multipleChoice(votes, w, letters(), options());
                ObjectNode dec = mixtureDecision(v, votes, w, "after the rollback", null);
                o.set("decision", dec);
                check("after the rollback: the mixture's winner is the final option", text(fin, "option"), v.option());
                o.put("words", "decided by gam's rule Σ w·p over the answers after the rollback, each with its last round's weight: "
                        + dec.path("words").asText() + String.format(Locale.ROOT, "; confidence %.3f", decided.confidence()));
            } else {
                o.put("words", "decided by " + inner + "'s own rule over the answers after the rollback: " + label(fin)
                        + String.format(Locale.ROOT, ", confidence %.3f", decided.confidence()));
            }
        } else {
            // the majority vote, ties to the lower uncertainty (the rollback's u, which may be ANLL: the trace records the tally)
            Map<String, Double> tally = new LinkedHashMap<>();
            for (Trace.AgentTurn t : answers) tally.merge(Consensus.key(t.answer(), t.option()), 1.0, Double::sum);
            ObjectNode dec = o.putObject("decision");
            dec.put("measure", "votes");
            ObjectNode tl = dec.putObject("tally");
            tally.forEach(tl::put);
            String winner = Consensus.key(text(fin, "answer"), text(fin, "option"));
            margin(dec, winner, tally);
            JsonNode votes = trace.at("/extra/votes");
            for (var e : tally.entrySet()) if (votes.has(e.getKey())) check("after the rollback: votes for " + e.getKey(), votes.path(e.getKey()).asDouble(), e.getValue());
            String runner = dec.path("runner_up").asText(null);
            o.put("words", "decided by majority vote over the answers after the rollback: " + winner + " " + fmt(tally.getOrDefault(winner, 0.0))
                    + (runner == null ? "" : " to " + runner + " " + fmt(tally.get(runner))) + "; a tie goes to the lower mean uncertainty");
        }
        return o;
    }

    private JsonNode turnOf(int k, String id) {
        for (JsonNode r : trace.path("rounds")) {
            if (r.path("k").asInt() != k) continue;
            for (JsonNode a : r.path("agents")) if (a.path("id").asText().equals(id)) return a;
        }
        return null;
    }

    /** The defaults the recorded sections overlay (read once: every value the decision reads is the trace's own). */
    private static Config defaults;

    private static synchronized Config defaults() {
        if (defaults == null) defaults = Config.defaults();
        return defaults;
    }

    /** The last configurations built from recorded sections: a run's traces share one, and building it reads the schema. */
    private static final Map<String, Config> CONFIGS = java.util.Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Config> eldest) { return size() > 8; }
    });

    private static Config configFor(String method, JsonNode cfg) {
        ObjectNode tree = section(method, cfg);
        return CONFIGS.computeIfAbsent(tree.toString(), k -> defaults().withTree(tree));
    }

    private static ObjectNode section(String method, JsonNode cfg) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        if (method.equals("gam")) o.set("gam", cfg.deepCopy());
        else o.setAll((ObjectNode) (cfg.isObject() ? cfg.deepCopy() : Json.MAPPER.createObjectNode()));
        return o;
    }

    /** Each branch in words: what the probes showed and what every agent then debates at (DREAM §3.1; dream.Branch). */
    static String branchWords(String branch) {
        return switch (branch) {
            case "StaticAll" -> "no probe was confident: every agent debates at the base scale ×1";
            case "PerAgent" -> "the confident probes agree and every agent that answered was confident at some scale: each debates at its own most confident scale";
            case "MixRes" -> "the confident probes agree, but an agent that answered was confident at no scale: every agent receives the confident scales";
            case "ConflictMixRes" -> "the confident probes disagree: every agent receives every probed scale and is told the probes disagreed";
            case "Consensus" -> "every probe agreed confidently (a run recorded before DREAM's four branches)";
            default -> branch;
        };
    }

    // ---- helpers ----------------------------------------------------------------------------------------------------------

    private ObjectNode agent(JsonNode a) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", a.path("id").asText());
        if (a.hasNonNull("error")) { o.put("error", a.path("error").asText()); return o; }
        o.put("answer", text(a, "answer"));
        o.put("option", text(a, "option"));
        o.put("u", a.path("uncertainty").asDouble());
        o.put("u_signal", a.path("signal").asText(""));
        if (a.hasNonNull("weight")) o.put("weight", a.path("weight").asDouble());
        return o;
    }

    private void check(String what, double recorded, double computed) {
        ObjectNode c = checks.addObject();
        c.put("what", what);
        c.put("trace", recorded);
        c.put("explainer", computed);
        c.put("ok", Math.abs(recorded - computed) <= SAME || (Double.isNaN(recorded) && Double.isNaN(computed)));
    }

    private void check(String what, String recorded, String computed) {
        ObjectNode c = checks.addObject();
        c.put("what", what);
        c.put("trace", recorded);
        c.put("explainer", computed);
        c.put("ok", recorded == null ? computed == null : recorded.equals(computed));
    }

    private List<String> letters() {
        List<String> l = new ArrayList<>();
        trace.at("/question/options").fieldNames().forEachRemaining(l::add);
        return l;
    }

    private Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        trace.at("/question/options").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    private Question question() {
        JsonNode q = trace.path("question");
        Map<String, String> opts = options();
        return new Question(q.path("id").asText("q"), List.of(), q.path("text").asText(""), text(q, "hint"), opts.isEmpty() ? null : opts);
    }

    private static Map<String, Double> doubles(JsonNode n) {
        if (n == null || !n.isObject()) return null;
        Map<String, Double> m = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asDouble()));
        return m;
    }

    private static String text(JsonNode n, String field) { return n.hasNonNull(field) ? n.get(field).asText() : null; }

    private static String label(JsonNode fin) {
        String o = text(fin, "option"), a = text(fin, "answer");
        return o != null && a != null && !o.equals(a) ? o + ". " + a : o != null ? o : a == null ? "no answer" : a;
    }

    /** A change with its sign, 3 decimals, never "-0.000". */
    static String signed(double x) {
        String s = String.format(Locale.ROOT, "%+.3f", x);
        return s.equals("-0.000") ? "+0.000" : s;
    }

    /** A number in at most 3 decimals, without trailing zeros (1, 0.5, 0.333). */
    static String fmt(double x) {
        if (Double.isNaN(x)) return "–";
        String s = String.format(Locale.ROOT, "%.3f", x);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /**
     * The decimals (at least 3) at which {@code x} reads on the correct side of {@code against}: u 0.0021 beside τ 0.0020
     * is never shown as 0.002 for both.
     */
    static int digitsNeeded(double x, double against) {
        for (int d = 3; d <= 17; d++) {
            double rx = Double.parseDouble(sig(x, d)), ra = Double.parseDouble(sig(against, d));
            if (Integer.signum(Double.compare(rx, ra)) == Integer.signum(Double.compare(x, against))) return d;
        }
        return 17;
    }

    /** {@code x} with {@link #digitsNeeded} decimals against {@code against}. */
    static String digits(double x, double against) { return sig(x, digitsNeeded(x, against)); }

    /** {@code x} with {@code decimals} decimals (half up). */
    private static String sig(double x, int decimals) {
        if (Double.isInfinite(x) || Double.isNaN(x)) return Double.toString(x);
        return new java.math.BigDecimal(x).setScale(decimals, java.math.RoundingMode.HALF_UP).toPlainString();
    }
}
