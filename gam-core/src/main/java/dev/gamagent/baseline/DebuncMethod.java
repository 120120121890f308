package dev.gamagent.baseline;

import dev.gamagent.engine.ReplyParser;
import dev.gamagent.api.Answer;
import dev.gamagent.api.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DebUnc (Yoffe et al., 2024): debate in which every message carries its author's confidence 1 − U from
 * token uncertainty, so agents can discount unsure peers; the final answer is a confidence-weighted vote.
 */
public final class DebuncMethod implements MultiAgentMethod {
    @Override public String name() { return "debunc"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "debunc", q, ctx);
        List<Panel.Agent> agents = p.seat(panel(ctx.config()));
        int rounds = p.integer("rounds", 2);
        var sampling = p.sampling(p.number("temperature", 0.7));
        List<Turn> prev = p.round(0, agents, a -> p.render("debunc_answer", a, Map.of()), sampling);
        p.record(0, prev, weights(prev), null);
        p.decided(verdict(prev));
        for (int k = 1; k <= rounds; k++) {
            List<Turn> last = prev;
            List<Double> w = weights(last);
            List<Turn> now = p.round(k, agents, a -> {
                Turn own = Debaters.find(last, a.id());
                return p.render("debunc_revise", a, Map.of(
                        "previous", own != null && own.ok() ? Panel.body(own, true) : "(no previous answer)",
                        "peers", Panel.peers(a.id(), last, w, true)));
            }, sampling);
            p.record(k, now, weights(now), null);
            prev = DebateMethod.carryOver(now, last);
            p.decided(verdict(prev));
        }
        return p.finish(verdict(prev), rounds, Termination.FIXED_ROUNDS, null);
    }

    /** The confidence-weighted vote: each answering agent's ballot weighs 1 − U. */
    private static MajorityVote.Verdict verdict(List<Turn> turns) {
        return MajorityVote.decide(Panel.voters(turns).stream().map(t -> t.ballot(1 - t.u())).toList());
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("debunc", panel(c).size(), c); }

    @Override public List<Agent> agents(Question q, Config c) { return Debaters.roster("debunc", c, panel(c), c.number("debunc.temperature", 0.7)); }

    private static List<Panel.Agent> panel(Config c) { return Debaters.of(c.integer("debunc.agents", 3), "debater"); }

    /** DebUnc's own rule over answers DREAM's rollback kept: the vote weighted by 1 − U, read replies only. */
    @Override public Optional<Decision> decide(Question q, List<Trace.AgentTurn> answers, Config c) {
        List<Trace.AgentTurn> read = answers.stream().filter(t -> !"unmatched".equals(t.parse())).toList();
        var v = MajorityVote.decide((read.isEmpty() ? answers : read).stream().map(t -> new MajorityVote.Ballot(
                ReplyParser.key(t.answer(), t.option()), t.answer(), t.option(), t.uncertainty(), 1 - t.uncertainty())).toList());
        return Optional.of(new Decision(v.answer(), v.option(), v.confidence(), v.uncertainty()));
    }

    /** Each agent's share of the panel's total confidence Σ(1 − U), the weight its message carries. */
    static List<Double> weights(List<Turn> turns) {
        double total = turns.stream().filter(Turn::ok).mapToDouble(t -> 1 - t.u()).sum();
        List<Double> w = new ArrayList<>();
        for (Turn t : turns) {
            double c = t.ok() ? 1 - t.u() : 0;
            w.add(total > 0 ? c / total : 1.0 / turns.size());
        }
        return w;
    }
}
