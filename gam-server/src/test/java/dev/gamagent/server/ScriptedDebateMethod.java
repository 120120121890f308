package dev.gamagent.server;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A test tool, never a result: a fixed three-round, two-expert "debate" that asks the backend once per
 * expert per round and fills a trace with weights, claims with regions and critiques, so the server's
 * streaming and the web page's trace view have something debate-shaped to show.
 */
final class ScriptedDebateMethod implements Method {
    @Override public String name() { return "scripted-debate"; }

    @Override public Answer run(Question q, RunContext ctx) {
        List<Trace.Round> rounds = new ArrayList<>();
        String[] experts = {"scene", "ocr"};
        double[][] weights = {{0.5, 0.5}, {0.62, 0.38}, {0.74, 0.26}};
        double[] uSys = {0.6, 0.35, 0.12};
        String answer = "";
        int calls = 0;
        for (int k = 0; k < 3; k++) {
            ctx.progress().event(new ProgressEvent.RoundStarted(k));
            List<Trace.AgentTurn> turns = new ArrayList<>();
            for (int i = 0; i < experts.length; i++) {
                ChatResult r = ctx.backend().chat(Sampling.greedy(16, 0).request(List.of(ChatMessage.user(
                        "round " + k + " expert " + experts[i] + ": " + q.render(), q.images()))));
                calls++;
                answer = r.first().text().strip();
                // overlapping regions: the ocr box lies partly inside the scene box
                var claim = new Trace.Claim(1, experts[i] + " sees " + answer, 0.8, "pixels",
                        i == 0 ? new Region(0.1, 0.2, 0.6, 0.8) : new Region(0.3, 0.3, 0.85, 0.8));
                String option = q.options().containsKey(answer) ? answer : null;
                turns.add(new Trace.AgentTurn(experts[i], "expert", 1.0, option != null ? q.options().get(option) : answer, option, 0.3 - 0.1 * k,
                        "semantic", weights[k][i], List.of(claim), new TokenCount(10, 2, false), answer, null, null, null));
                ctx.progress().event(ProgressEvent.AgentAnswered.answer(k, experts[i], answer));
            }
            Map<String, Double> w = new LinkedHashMap<>();
            for (int i = 0; i < experts.length; i++) w.put(experts[i], weights[k][i]);
            ctx.progress().event(new ProgressEvent.Weights(k, w, uSys[k], null));
            // two critics on the same ocr claim and one on the scene claim: the page groups them by claim
            List<Trace.Critique> critiques = k == 0 ? List.of() : List.of(
                    new Trace.Critique("fact", "ocr", 1, "ocr sees " + answer, "supported", "matches the image", null, 0.7),
                    new Trace.Critique("logic", "ocr", 1, "ocr sees " + answer, "inaccurate", "the text is cut off", "blue", 0.6),
                    new Trace.Critique("fact", "scene", 1, "scene sees " + answer, "supported", "the shape is there", null, 0.8));
            rounds.add(new Trace.Round(k, turns, critiques, uSys[k], 0.2, null));
        }
        String option = q.options().containsKey(answer) ? answer : null;
        String text = option != null ? q.options().get(option) : answer;
        TokenCount tokens = new TokenCount(60, 12, false);
        var trace = new Trace(Trace.QuestionInfo.of(q), name(), Map.of(), rounds, "consensus",
                new Trace.Final(text, option, 0.88), tokens, calls, 5,
                Map.of("probes", List.of(
                                new dev.gamagent.dream.Probe("agent-1", 0, "expert", null, 0.5, 80, 50, "blue", "B", "B", 0.4, "anll", false, TokenCount.ZERO, null),
                                new dev.gamagent.dream.Probe("agent-1", 0, "expert", null, 1.0, 160, 100, "blue", "B", "B", 0.2, "anll", true, TokenCount.ZERO, null)),
                        "branch", "PerAgent", "threshold", 0.3));
        return new Answer(text, option, 0.88, uSys[2], 2, Termination.CONSENSUS, tokens, calls, 5, trace);
    }
}
