package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.config.Config;
import dev.gamagent.influence.Consensus;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.explain.ExplainConfig.configFor;
import static dev.gamagent.explain.ExplainJson.digitsNeeded;
import static dev.gamagent.explain.ExplainJson.fmt;
import static dev.gamagent.explain.ExplainJson.label;
import static dev.gamagent.explain.ExplainJson.margin;
import static dev.gamagent.explain.ExplainJson.sig;
import static dev.gamagent.explain.ExplainJson.text;

/** DREAM: the branch, the probes against the threshold, the rollbacks and the decision over the answers they kept. */
final class DreamPart extends TraceContext {
    DreamPart(JsonNode trace, ArrayNode checks) { super(trace, checks); }

    ObjectNode dreamPart(String inner, JsonNode innerCfg) {
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
}
