package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;

import java.util.List;
import java.util.Map;

/**
 * Self-debate (the GAM-Agent paper's Base-Debate): one model answers, then in each of R rounds critiques
 * and refines its own previous answer; the last answer is final. Calls = R + 1.
 */
public final class SelfDebateMethod implements MultiAgentMethod {
    private static final Panel.Agent AGENT = new Panel.Agent("agent-1", "debater", 0);

    @Override public String name() { return "self-debate"; }

    @Override public List<Agent> agents(Question q, Config c) {
        return Debaters.roster("self_debate", c, List.of(AGENT), c.number("self_debate.temperature"));
    }

    /** One answer, then one refinement per round. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(rounds(c) + 1, "R+1")); }

    private static int rounds(Config c) { return new Panel.Section("self_debate", c).integer("rounds"); }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "self_debate", q, ctx);
        Panel.Agent a = p.seat(List.of(AGENT)).get(0);
        int rounds = rounds(p.config());
        var sampling = p.sampling(p.number("temperature"));
        Turn prev = p.ask(a, 0, p.render("self_debate_answer", a, Map.of()), sampling);
        p.record(0, List.of(prev), null, null);
        p.decided(Panel.majority(List.of(prev)));
        for (int k = 1; k <= rounds; k++) {
            Turn now = p.ask(a, k, p.render("self_debate_revise", a.role(),
                    Map.of("previous", Panel.body(prev, false))), sampling);
            p.record(k, List.of(now), null, null);
            if (now.ok()) prev = now;
            p.decided(Panel.majority(List.of(prev)));
        }
        return p.finish(Panel.majority(List.of(prev)), rounds, Termination.FIXED_ROUNDS, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("self_debate", 1, c); }

    /** The agent's round-0 request with the given images (DREAM's probe asks exactly this). */
    @Override public java.util.Optional<Opening> opening(Question q, RunContext ctx, int index, List<dev.gamagent.image.Picture> images) {
        if (index != 0) return java.util.Optional.empty();
        Panel p = new Panel(name(), "self_debate", q, ctx);
        return java.util.Optional.of(p.opening(AGENT, p.render("self_debate_answer", AGENT, Map.of()), p.sampling(p.number("temperature")), images));
    }
}
