package dev.gamagent.eval.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.eval.grade.OpenAnswerMatcher;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which answers a debate changed (docs/metrics.md, "Flips"): per question, the method's decision after
 * round 0 ({@code rounds[k].extra.decision}, recorded by every debate method) against its graded final
 * answer; per agent, its answer in one round against its answer in the next.
 */
public final class FlipAccounting {
    /** Open answers whose text differs from the graded final answer are matched with the default tolerance. */
    private static final OpenAnswerMatcher OPEN = new OpenAnswerMatcher(0.01);

    private FlipAccounting() { }

    /**
     * Per-question outcome over the graded records that were debated (a round after round 0): right/wrong after round 0
     * → right/wrong at the end. {@code changed} counts questions whose final answer differs from the round-0 decision (a
     * wrong→wrong change included). A question answered in round 0 had nothing a debate could change: it is counted in
     * {@code undebated}, never as right→right or wrong→wrong.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Flips(int questions, int wrongToRight, int rightToWrong, int rightToRight, int wrongToWrong, int changed,
                        AgentChanges agents, int undebated) { }

    /** Agent-level: consecutive rounds of one agent (both answered); {@code changed} = answer differs. */
    public record AgentChanges(int transitions, int changed, int wrongToRight, int rightToWrong) { }

    /** The flips of one method's graded records; null when none of its traces records a decision (not a debate method). */
    public static Flips of(List<ResultRecord> graded) {
        if (graded.stream().noneMatch(r -> !decisions(r).isEmpty())) return null;
        int wr = 0, rw = 0, rr = 0, ww = 0, changed = 0;
        int transitions = 0, agentChanged = 0, agentWr = 0, agentRw = 0, undebated = 0;
        for (ResultRecord r : graded) {
            if (!debated(r)) { undebated++; continue; }
            List<JsonNode> ds = decisions(r);
            boolean end = r.correct();
            boolean start = end;
            if (!ds.isEmpty()) {
                JsonNode first = ds.get(0);
                String option = text(first, "option"), answer = text(first, "answer");
                start = right(r, option, answer);
                if (!ReplyParser.key(answer, option).equals(ReplyParser.key(r.grade().answer(), r.grade().option()))) changed++;
            }
            if (start && end) rr++;
            else if (start) rw++;
            else if (end) wr++;
            else ww++;
            Map<String, JsonNode> last = new LinkedHashMap<>();
            for (JsonNode round : sortedRounds(r)) {
                for (JsonNode a : round.path("agents")) {
                    if (!a.hasNonNull("id") || a.hasNonNull("error") || !a.hasNonNull("answer")) continue;
                    JsonNode prev = last.put(a.get("id").asText(), a);
                    if (prev == null) continue;
                    transitions++;
                    String po = text(prev, "option"), pa = text(prev, "answer"), no = text(a, "option"), na = text(a, "answer");
                    if (!ReplyParser.key(pa, po).equals(ReplyParser.key(na, no))) agentChanged++;
                    boolean was = right(r, po, pa), is = right(r, no, na);
                    if (!was && is) agentWr++;
                    if (was && !is) agentRw++;
                }
            }
        }
        return new Flips(graded.size() - undebated, wr, rw, rr, ww, changed, new AgentChanges(transitions, agentChanged, agentWr, agentRw),
                undebated);
    }

    /** One record's outcome, "w→r", "r→w", "r→r" or "w→w"; null when its trace records no decision or it was not debated. */
    public static String flipOf(ResultRecord r) {
        List<JsonNode> ds = decisions(r);
        if (ds.isEmpty() || !debated(r)) return null;
        boolean start = right(r, text(ds.get(0), "option"), text(ds.get(0), "answer")), end = r.correct();
        return (start ? "r" : "w") + "→" + (end ? "r" : "w");
    }

    /** The recorded decisions in round order (empty for methods that record none, and for DREAM's consensus branch). */
    static List<JsonNode> decisions(ResultRecord r) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode round : sortedRounds(r)) {
            JsonNode d = round.path("extra").path("decision");
            if (d.isObject()) out.add(d);
        }
        return out;
    }

    private static List<JsonNode> sortedRounds(ResultRecord r) {
        JsonNode rounds = Sweep.rounds(r);
        if (rounds == null || !rounds.isArray()) return List.of();
        List<JsonNode> out = new ArrayList<>();
        rounds.forEach(out::add);
        out.sort(Comparator.comparingInt(n -> n.path("k").asInt()));
        return out;
    }

    /** Whether an answer (option letter and/or text) is right for this record's question, graded like the final one. */
    static boolean right(ResultRecord r, String option, String answer) {
        if (r.question().groundTruth() == null) return false;
        Map<String, String> options = options(r);
        if (!options.isEmpty()) {
            String letter = option != null && options.containsKey(option) ? option : AnswerExtractor.option(answer, options);
            return r.question().groundTruth().equals(letter);
        }
        if (answer == null) return false;
        if (r.grade().answer() != null && ReplyParser.key(answer, null).equals(ReplyParser.key(r.grade().answer(), null))) return r.correct();
        return OPEN.match(answer, r.question().groundTruth()) != OpenAnswerMatcher.Match.NONE;
    }

    private static Map<String, String> options(ResultRecord r) {
        JsonNode o = r.trace().json() == null ? null : r.trace().json().path("question").get("options");
        if (o == null || !o.isObject() || o.isEmpty()) return Map.of();
        return Json.MAPPER.convertValue(o, new com.fasterxml.jackson.core.type.TypeReference<LinkedHashMap<String, String>>() { });
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Whether a question was debated: its trace has a round after round 0. */
    static boolean debated(ResultRecord r) {
        JsonNode rounds = Sweep.rounds(r);
        if (rounds == null || !rounds.isArray()) return false;
        for (JsonNode round : rounds) if (round.path("k").asInt() > 0) return true;
        return false;
    }
}
