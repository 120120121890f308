package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.influence.Consensus;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.explain.ExplainJson.agent;
import static dev.gamagent.explain.ExplainJson.fmt;
import static dev.gamagent.explain.ExplainJson.isJudge;
import static dev.gamagent.explain.ExplainJson.label;
import static dev.gamagent.explain.ExplainJson.margin;
import static dev.gamagent.explain.ExplainJson.text;

/** The final answer and how it was decided; for the panels also their rounds' majority votes. */
final class FinalDecision extends TraceContext {
    FinalDecision(JsonNode trace, ArrayNode checks) { super(trace, checks); }

    // ---- the panels: majority votes over the rounds --------------------------------------------------------------------

    ArrayNode panelRounds() {
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

    ObjectNode finalDecision(String inner, JsonNode innerCfg, boolean dream, JsonNode rounds) {
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
}
