package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Question;
import dev.gamagent.influence.Consensus;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.explain.ExplainJson.SAME;
import static dev.gamagent.explain.ExplainJson.margin;
import static dev.gamagent.explain.ExplainJson.text;

/** The trace being explained and the checks made so far, with the readings of the trace every part shares. */
class TraceContext {
    final JsonNode trace;
    final ArrayNode checks;

    TraceContext(JsonNode trace, ArrayNode checks) {
        this.trace = trace;
        this.checks = checks;
    }

    void check(String what, double recorded, double computed) {
        ObjectNode c = checks.addObject();
        c.put("what", what);
        c.put("trace", recorded);
        c.put("explainer", computed);
        c.put("ok", Math.abs(recorded - computed) <= SAME || (Double.isNaN(recorded) && Double.isNaN(computed)));
    }

    void check(String what, String recorded, String computed) {
        ObjectNode c = checks.addObject();
        c.put("what", what);
        c.put("trace", recorded);
        c.put("explainer", computed);
        c.put("ok", recorded == null ? computed == null : recorded.equals(computed));
    }

    List<String> letters() {
        List<String> l = new ArrayList<>();
        trace.at("/question/options").fieldNames().forEachRemaining(l::add);
        return l;
    }

    Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        trace.at("/question/options").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    Question question() {
        JsonNode q = trace.path("question");
        Map<String, String> opts = options();
        return new Question(q.path("id").asText("q"), List.of(), q.path("text").asText(""), text(q, "hint"), opts.isEmpty() ? null : opts);
    }

    JsonNode turnOf(int k, String id) {
        for (JsonNode r : trace.path("rounds")) {
            if (r.path("k").asInt() != k) continue;
            for (JsonNode a : r.path("agents")) if (a.path("id").asText().equals(id)) return a;
        }
        return null;
    }

    /** A multiple-choice decision: the mixture, the winner, the best other option and the margin between them. */
    ObjectNode mixtureDecision(Consensus.Verdict v, List<Consensus.Vote> votes, double[] w, String where, JsonNode recorded) {
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
}
