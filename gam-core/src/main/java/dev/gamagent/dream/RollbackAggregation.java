package dev.gamagent.dream;

import dev.gamagent.api.Trace;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.engine.ReplyParser;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;

/**
 * DREAM's uncertainty-guided rollback aggregation (URA, DREAM §3.2; docs/design.md §7), read from any method's
 * trace: for each agent (stable id across rounds), r* is its most confident earlier round with a readable answer; its answer is
 * restored when u(final) > (1 + ρ)·u(r*) and the final answer differs. Then a majority vote, ties to the
 * lower uncertainty, unless the inner method decides with its own rule over {@link Outcome#answers}.
 */
final class RollbackAggregation {
    private static final String UNREAD = "unmatched";

    private RollbackAggregation() { }

    /** A restored answer: agent, the final round it replaced and the earlier round it came back from. */
    public record Rollback(String agent, int finalRound, String finalAnswer, double finalU,
                           int restoredRound, String restoredAnswer, double restoredU) { }

    /**
     * The majority vote, the rollbacks behind it, and each agent's answer after rollback ({@code answers}: its
     * last answered turn, or the restored earlier turn carrying the last turn's weight), in first-seen order.
     */
    public record Outcome(MajorityVote.Verdict verdict, List<MajorityVote.Ballot> ballots, List<Rollback> rollbacks,
                          List<Trace.AgentTurn> answers) { }

    /** Aggregates a trace's rounds with the uncertainties the trace records; null when no agent answered. */
    public static Outcome aggregate(List<Trace.Round> rounds, double rho) {
        return aggregate(rounds, rho, (k, t) -> t.uncertainty());
    }

    /**
     * Aggregates a trace's rounds with {@code uncertainty} giving the u of each turn of round k (e.g. the ANLL
     * recorded from the backend); null when no agent answered in any round.
     */
    public static Outcome aggregate(List<Trace.Round> rounds, double rho, ToDoubleBiFunction<Integer, Trace.AgentTurn> uncertainty) {
        Map<String, List<Step>> trajectories = new LinkedHashMap<>();
        for (Trace.Round r : rounds) {
            if (r.agents() == null) continue;
            for (Trace.AgentTurn t : r.agents()) {
                if (t.error() != null || t.answer() == null) continue;
                trajectories.computeIfAbsent(t.id(), id -> new ArrayList<>()).add(new Step(r.k(), t, uncertainty.applyAsDouble(r.k(), t)));
            }
        }
        if (trajectories.isEmpty()) return null;
        // on a multiple-choice question (some turn named an option) a turn naming none holds no answer to restore
        boolean anyOption = trajectories.values().stream().flatMap(List::stream).anyMatch(st -> st.turn.option() != null);
        List<MajorityVote.Ballot> ballots = new ArrayList<>(), unread = new ArrayList<>();
        List<Rollback> rollbacks = new ArrayList<>();
        List<Trace.AgentTurn> answers = new ArrayList<>();
        for (var e : trajectories.entrySet()) {
            List<Step> steps = e.getValue();
            Step fin = steps.get(steps.size() - 1);
            Step chosen = fin;
            Step best = null;
            for (int i = 0; i < steps.size() - 1; i++) {
                Step st = steps.get(i);
                // r* is the most confident earlier round that answered: a confident refusal or unread reply is never restored
                if (UNREAD.equals(st.turn.parse()) || (anyOption && st.turn.option() == null)) continue;
                if (best == null || st.u < best.u) best = st;
            }
            if (best != null && fin.u > (1 + rho) * best.u
                    && !key(fin.turn).equals(key(best.turn))) {
                chosen = best;
                rollbacks.add(new Rollback(e.getKey(), fin.k, fin.turn.answer(), fin.u, best.k, best.turn.answer(), best.u));
            }
            answers.add(chosen == fin ? fin.turn : withWeight(chosen.turn, fin.turn.weight()));
            // a reply that named no option (unparsed, or an expert declaring itself NOT APPLICABLE) votes
            // only when no agent named one: on open questions no reply has an option and all vote
            (UNREAD.equals(chosen.turn.parse()) || chosen.turn.option() == null ? unread : ballots).add(new MajorityVote.Ballot(key(chosen.turn),
                    chosen.turn.answer(), chosen.turn.option(), chosen.u, 1.0));
        }
        if (ballots.isEmpty()) ballots = unread;
        return new Outcome(MajorityVote.decide(ballots), ballots, rollbacks, answers);
    }

    /** A restored turn keeps its own answer, distribution and u but carries the weight of the agent's last turn. */
    private static Trace.AgentTurn withWeight(Trace.AgentTurn t, Double weight) {
        return new Trace.AgentTurn(t.id(), t.role(), t.scale(), t.answer(), t.option(), t.uncertainty(), t.signal(), weight,
                t.claims(), t.tokens(), t.raw(), t.parse(), t.error(), t.optionDistribution());
    }

    private static String key(Trace.AgentTurn t) { return ReplyParser.key(t.answer(), t.option()); }

    private record Step(int k, Trace.AgentTurn turn, double u) { }
}
