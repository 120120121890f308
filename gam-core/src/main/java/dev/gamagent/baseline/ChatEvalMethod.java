package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ChatEval (Chan et al., 2023), one-by-one strategy: role-played discussants (general public, critic,
 * domain expert) speak in turn, each seeing the whole discussion so far; after T turns each, the decision
 * is the majority of the last turn, or a judge's reading of the discussion ({@code chateval.decision}).
 */
public final class ChatEvalMethod implements MultiAgentMethod {
    @Override public String name() { return "chateval"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "chateval", q, ctx);
        List<String> roles = roles(p.config());
        int turns = turns(p.config());
        String decision = decision(p.config());
        var sampling = p.sampling(p.number("temperature"));
        List<Panel.Agent> agents = p.seat(panel(roles));
        List<Turn> history = new ArrayList<>();
        List<Turn> last = List.of();
        for (int k = 0; k < turns; k++) {
            ctx.progress().event(new ProgressEvent.RoundStarted(k));
            List<Turn> now = new ArrayList<>();
            for (Panel.Agent a : agents) {
                String task = history.isEmpty() ? "answer" : "revise";
                Turn t = p.ask(a, k, p.render("chateval_turn", a, Map.of("task", task, "history", transcript(history))), sampling);
                now.add(t);
                if (t.ok()) history.add(t);
            }
            p.record(k, now, null, null);
            last = DebateRounds.carryOver(now, last);
            p.decided(Panel.majority(last));
        }
        if (decision.equals("judge")) {
            var judge = new Panel.Agent("judge", "judge", 0);
            Turn j = p.ask(judge, turns, p.render("chateval_judge", judge, Map.of("history", transcript(history))), sampling);
            p.record(turns, List.of(j), null, Map.of("decided_by", "judge"));
            p.decided(Panel.majority(List.of(j)));
            return p.finish(Panel.majority(List.of(j)), turns - 1, Termination.FIXED_ROUNDS, Map.of("decided_by", "judge"));
        }
        return p.finish(Panel.majority(last), turns - 1, Termination.FIXED_ROUNDS, Map.of("decided_by", "majority"));
    }

    /** {@code chateval.backends}: one per role, in order; the judge runs on the first role's backend. */
    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("chateval", roles(c).size(), c); }

    /** The discussants, greedy by default, each in its role. */
    @Override public List<Agent> agents(Question q, Config c) {
        return Debaters.roster("chateval", c, panel(roles(c)), c.number("chateval.temperature"));
    }

    /** Every role speaks once per turn, then the judge when {@code chateval.decision} is judge. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) {
        boolean judge = decision(c).equals("judge");
        return java.util.Optional.of(CallPlan.fixed(roles(c).size() * turns(c) + (judge ? 1 : 0), "roles·turns" + (judge ? " + judge" : "")));
    }

    /** {@code chateval.turns}, at least 1. */
    private static int turns(Config c) { return Math.max(1, new Panel.Section("chateval", c).integer("turns")); }

    /** {@code chateval.decision}: majority or judge. */
    private static String decision(Config c) {
        String decision = c.string("chateval.decision").toLowerCase(Locale.ROOT);
        if (!decision.equals("majority") && !decision.equals("judge")) {
            throw new Config.ConfigException("chateval.decision must be 'majority' or 'judge', got '" + decision + "'");
        }
        return decision;
    }

    /** {@code chateval.roles}; an empty list means the default roles. */
    private static List<String> roles(Config c) { return new Panel.Section("chateval", c).strings("roles"); }

    private static List<Panel.Agent> panel(List<String> roles) {
        List<Panel.Agent> agents = new ArrayList<>();
        for (int i = 0; i < roles.size(); i++) agents.add(new Panel.Agent(roles.get(i).strip().replace(' ', '-'), roles.get(i), i));
        return agents;
    }

    private static String transcript(List<Turn> history) {
        StringBuilder sb = new StringBuilder();
        for (Turn t : history) {
            sb.append("<peer id=\"").append(t.id()).append("\" weight=\"")
                    .append(String.format(Locale.ROOT, "%.2f", 1.0 / Math.max(1, history.size()))).append("\">\n")
                    .append(t.role()).append(" (turn ").append(t.k() + 1).append("): ")
                    .append(Panel.body(t, false)).append("\n</peer>\n");
        }
        return sb.toString().strip();
    }
}
