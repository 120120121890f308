package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;

import java.util.List;
import java.util.Map;

/** Majority voting: N independent agents answer once (in parallel, each with its own images), majority wins. */
public final class VoteMethod implements Method {
    @Override public String name() { return "vote"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "vote", q, ctx);
        List<Panel.Agent> agents = p.seat(Debaters.of(p.integer("agents", 3), "voter"));
        List<Turn> turns = p.round(0, agents, a -> p.render("vote_answer", a, Map.of()),
                p.sampling(p.number("temperature", 0.7)));
        p.record(0, turns, null, null);
        return p.finish(Panel.majority(turns), 0, Termination.SINGLE, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("vote", c.integer("vote.agents", 3), c); }
}
