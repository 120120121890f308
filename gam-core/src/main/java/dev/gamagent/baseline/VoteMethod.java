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

/** Majority voting: N independent agents answer once (in parallel, each with its own images), majority wins. */
public final class VoteMethod implements MultiAgentMethod {
    @Override public String name() { return "vote"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "vote", q, ctx);
        List<Panel.Agent> agents = p.seat(panel(ctx.config()));
        List<Turn> turns = p.round(0, agents, a -> p.render("vote_answer", a, Map.of()), p.sampling(p.number("temperature")));
        p.record(0, turns, null, null);
        return p.finish(Panel.majority(turns), 0, Termination.SINGLE, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("vote", panel(c).size(), c); }

    @Override public List<Agent> agents(Question q, Config c) { return Debaters.roster("vote", c, panel(c), c.number("vote.temperature")); }

    /** N agents, one call each. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(panel(c).size(), "N agents")); }

    private static List<Panel.Agent> panel(Config c) { return Debaters.of(c.integer("vote.agents"), "voter"); }

    /** Agent {@code index}'s one request with the given images (DREAM's probe asks exactly this). */
    @Override public java.util.Optional<Opening> opening(Question q, RunContext ctx, int index, List<dev.gamagent.image.Picture> images) {
        List<Panel.Agent> agents = panel(ctx.config());
        if (index < 0 || index >= agents.size()) return java.util.Optional.empty();
        Panel p = new Panel(name(), "vote", q, ctx);
        Panel.Agent a = agents.get(index);
        return java.util.Optional.of(p.opening(a, p.render("vote_answer", a, Map.of()), p.sampling(p.number("temperature")), images));
    }
}
