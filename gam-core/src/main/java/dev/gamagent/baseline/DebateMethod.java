package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Multi-agent debate (Du et al., 2023): N agents answer; in each of R debate rounds every agent sees its
 * own previous answer and the others' previous answers and updates; majority over the last round.
 * {@code debate.rounds} counts the rounds after the first answers, so calls = N·(R+1).
 */
public final class DebateMethod implements MultiAgentMethod {
    @Override public String name() { return "debate"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "debate", q, ctx);
        List<Panel.Agent> agents = p.seat(panel(ctx.config()));
        int rounds = rounds(p.config());
        var sampling = p.sampling(p.number("temperature"));
        List<Turn> prev = p.round(0, agents, a -> firstPrompt(p, a), sampling);
        p.record(0, prev, null, null);
        p.decided(Panel.majority(prev));
        for (int k = 1; k <= rounds; k++) {
            List<Turn> last = prev;
            List<Turn> now = p.round(k, agents, a -> revisePrompt(p, a, last), sampling);
            p.record(k, now, null, null);
            prev = carryOver(now, last);
            p.decided(Panel.majority(prev));
        }
        return p.finish(Panel.majority(prev), rounds, Termination.FIXED_ROUNDS, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("debate", panel(c).size(), c); }

    @Override public List<Agent> agents(Question q, Config c) { return Debaters.roster("debate", c, panel(c), c.number("debate.temperature")); }

    /** N agents answer, then answer again in each of R rounds. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(panel(c).size() * (rounds(c) + 1), "N·(R+1)")); }

    private static int rounds(Config c) { return new Panel.Section("debate", c).integer("rounds"); }

    private static List<Panel.Agent> panel(Config c) { return Debaters.of(c.integer("debate.agents"), "debater"); }

    private static String firstPrompt(Panel p, Panel.Agent a) { return p.render("debate_answer", a, Map.of()); }

    /** Agent {@code index}'s round-0 request with the given images (DREAM's probe asks exactly this). */
    @Override public Optional<Opening> opening(Question q, RunContext ctx, int index, List<Picture> images) {
        List<Panel.Agent> agents = panel(ctx.config());
        if (index < 0 || index >= agents.size()) return Optional.empty();
        Panel p = new Panel(name(), "debate", q, ctx);
        return Optional.of(p.opening(agents.get(index), firstPrompt(p, agents.get(index)), p.sampling(p.number("temperature")), images));
    }

    private static String revisePrompt(Panel p, Panel.Agent a, List<Turn> last) {
        Turn own = Debaters.find(last, a.id());
        return p.render("debate_revise", a, Map.of(
                "previous", own != null && own.ok() ? Panel.body(own, false) : "(no previous answer)",
                "peers", Panel.peers(a.id(), last, null, false)));
    }

    /** An agent whose call failed keeps its previous answer, so one dropped call does not lose its vote. */
    static List<Turn> carryOver(List<Turn> now, List<Turn> last) {
        return java.util.stream.IntStream.range(0, now.size())
                .mapToObj(i -> now.get(i).ok() || i >= last.size() ? now.get(i) : last.get(i)).toList();
    }
}
