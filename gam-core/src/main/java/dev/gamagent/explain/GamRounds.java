package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.InfluenceWeights;
import dev.gamagent.influence.Similarity;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.explain.ExplainJson.agent;
import static dev.gamagent.explain.ExplainJson.doubles;
import static dev.gamagent.explain.ExplainJson.signed;
import static dev.gamagent.explain.ExplainJson.text;

/** GAM: the game of every round recomputed with the engine's own code, and what moved each weight. */
final class GamRounds extends TraceContext {
    GamRounds(JsonNode trace, ArrayNode checks) { super(trace, checks); }

    ArrayNode gamRounds(JsonNode c) {
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
}
