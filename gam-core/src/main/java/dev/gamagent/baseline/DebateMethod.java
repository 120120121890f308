package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
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
    private static final DebateRounds ROUNDS = new DebateRounds("debate");

    @Override public String name() { return "debate"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "debate", q, ctx);
        List<Panel.Agent> agents = p.seat(ROUNDS.debaters(ctx.config()));
        int rounds = ROUNDS.rounds(p.config());
        var sampling = p.sampling(p.number("temperature"));
        List<Turn> last = DebateRounds.debate(p, agents, rounds, sampling, a -> ROUNDS.firstPrompt(p, a), (a, prev) -> revisePrompt(p, a, prev),
                DebateRounds.majority(p));
        return p.finish(Panel.majority(last), rounds, Termination.FIXED_ROUNDS, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return ROUNDS.backendRefs(c); }

    @Override public List<Agent> agents(Question q, Config c) { return ROUNDS.roster(c); }

    @Override public Optional<CallPlan> plannedCalls(Config c) { return ROUNDS.plannedCalls(c); }

    @Override public Optional<Opening> opening(Question q, RunContext ctx, int index, List<Picture> images) {
        return ROUNDS.opening(name(), q, ctx, index, images);
    }

    private static String revisePrompt(Panel p, Panel.Agent a, List<Turn> last) {
        return p.render("debate_revise", a, Map.of(
                "previous", Debaters.previous(last, a.id()),
                "peers", Panel.peers(a.id(), last, null, false)));
    }
}
