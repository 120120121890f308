package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;
import dev.gamagent.engine.Prompts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DMAD (diverse multi-agent debate, Liu et al., 2025): agents that reason in different ways — answer
 * directly, build a scene graph first, or split the question into sub-questions — exchange answers over
 * R rounds, each keeping its own way of reasoning; majority over the last round. Calls = N·(R+1).
 */
public final class DmadMethod implements MultiAgentMethod {
    @Override public String name() { return "dmad"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "dmad", q, ctx);
        List<String> strategies = strategies(p.config());
        int rounds = rounds(p.config());
        List<Panel.Agent> agents = p.seat(panel(strategies));
        var sampling = p.sampling(p.number("temperature"));
        List<Turn> last = DebateRounds.debate(p, agents, rounds, sampling, a -> firstPrompt(p, strategies, a), (a, prev) -> p.render("dmad_revise", a,
                Map.of("strategy", strategy(p, strategies.get(a.index())),
                        "previous", Debaters.previous(prev, a.id()),
                        "peers", Panel.peers(a.id(), prev, null, false))), DebateRounds.majority(p));
        return p.finish(Panel.majority(last), rounds, Termination.FIXED_ROUNDS, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("dmad", strategies(c).size(), c); }

    /** Every strategy's agent answers, then answers again in each of R rounds. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(strategies(c).size() * (rounds(c) + 1), "strategies·(R+1)")); }

    private static int rounds(Config c) { return new Panel.Section("dmad", c).integer("rounds"); }

    /** {@code dmad.strategies}; an empty list means the default strategies. */
    private static List<String> strategies(Config c) { return new Panel.Section("dmad", c).strings("strategies"); }

    /** One agent per strategy: id {@code scene-graph}, role {@code scene graph reasoner}. */
    private static List<Panel.Agent> panel(List<String> strategies) {
        List<Panel.Agent> agents = new ArrayList<>();
        for (int i = 0; i < strategies.size(); i++) {
            String s = strategies.get(i);
            agents.add(new Panel.Agent(s.replace('_', '-'), s.replace('_', ' ') + " reasoner", i));
        }
        return agents;
    }

    /** Each strategy's agent, greedy, with its reasoning instruction ({@code dmad_strategy_<name>}). */
    @Override public List<Agent> agents(Question q, Config c) {
        List<String> strategies = strategies(c);
        Prompts prompts = new Prompts(c);
        return Debaters.roster("dmad", c, panel(strategies), c.number("dmad.temperature"), a -> prompts.render(
                "dmad_strategy_" + strategies.get(a.index()), java.util.Map.of("question", q.render(), "role", a.role(), "note", "", "format", "")));
    }

    private static String firstPrompt(Panel p, List<String> strategies, Panel.Agent a) {
        return p.render("dmad_answer", a.role(), Map.of("strategy", strategy(p, strategies.get(a.index()))));
    }

    /** Agent {@code index}'s round-0 request with the given images (DREAM's probe asks exactly this). */
    @Override public java.util.Optional<Opening> opening(Question q, RunContext ctx, int index, List<dev.gamagent.image.Picture> images) {
        List<String> strategies = strategies(ctx.config());
        List<Panel.Agent> agents = panel(strategies);
        if (index < 0 || index >= agents.size()) return java.util.Optional.empty();
        Panel p = new Panel(name(), "dmad", q, ctx);
        return java.util.Optional.of(p.opening(agents.get(index), firstPrompt(p, strategies, agents.get(index)),
                p.sampling(p.number("temperature")), images));
    }

    /** The reasoning instruction of one strategy: template {@code dmad_strategy_<name>}. */
    private static String strategy(Panel p, String name) {
        return p.render("dmad_strategy_" + name, name, Map.of());
    }
}
