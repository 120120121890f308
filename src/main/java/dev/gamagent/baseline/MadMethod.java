package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MAD (Liang et al., 2023): an affirmative and a negative debater argue (the negative always contests the
 * affirmative's answer); after each round a moderator decides whether one side is clearly right, which
 * ends the debate with its answer. If no decision comes within {@code mad.rounds}, a judge reads the whole
 * debate and picks the final answer. Calls = 3 per round (+1 for the judge).
 */
public final class MadMethod implements Method {
    private static final Pattern DECISION = Pattern.compile("(?im)^[\\s*]*decision\\s*\\**\\s*[:=]\\s*\\**\\s*([a-z]+)");

    @Override public String name() { return "mad"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "mad", q, ctx);
        int maxRounds = Math.max(1, p.integer("rounds", 3));
        var sampling = p.sampling(p.number("temperature", 0));
        var aff = new Panel.Agent("affirmative", "affirmative debater", 0);
        var neg = new Panel.Agent("negative", "negative debater", 1);
        var mod = new Panel.Agent("moderator", "moderator", 2);
        List<Turn> history = new ArrayList<>();
        Turn lastAff = null, lastNeg = null;
        for (int k = 0; k < maxRounds; k++) {
            ctx.progress().event("round_started", Map.of("k", k));
            Map<String, Object> va = new LinkedHashMap<>();
            va.put("task", k == 0 ? "answer" : "revise");
            va.put("previous", lastAff == null ? "" : "<previous>\n" + Panel.body(lastAff, false) + "\n</previous>");
            va.put("peers", lastNeg == null ? "" : Panel.peers(aff.id(), List.of(lastNeg), List.of(1.0), false));
            Turn a = p.ask(aff, k, p.render("mad_affirmative", aff, va), sampling);
            Map<String, Object> vn = new LinkedHashMap<>();
            vn.put("previous", lastNeg == null ? "" : "<previous>\n" + Panel.body(lastNeg, false) + "\n</previous>");
            vn.put("peers", Panel.peers(neg.id(), List.of(a), List.of(1.0), false));
            Turn n = p.ask(neg, k, p.render("mad_negative", neg, vn), sampling);
            Turn m = p.ask(mod, k, p.render("mad_moderator", mod.role(),
                    Map.of("peers", Panel.peers(mod.id(), List.of(a, n), List.of(0.5, 0.5), false))), sampling);
            boolean stop = m.ok() && m.answer() != null && decidedToStop(m.raw());
            Map<String, Object> extra = Map.of("moderator_decision", stop ? "stop" : "continue");
            if (stop) {
                p.record(k, List.of(a, n, m), null, extra);
                p.decided(Panel.majority(List.of(m)));
                return p.finish(Panel.majority(List.of(m)), k + 1, Termination.MODERATOR, Map.of("decided_by", "moderator"));
            }
            if (a.ok()) lastAff = a;
            if (n.ok()) lastNeg = n;
            history.add(a);
            history.add(n);
            if (k == maxRounds - 1) {
                var judge = new Panel.Agent("judge", "judge", 2);
                Turn j = p.ask(judge, k, p.render("mad_judge", judge, Map.of("debate", transcript(history))), sampling);
                p.record(k, List.of(a, n, m, j), null, extra);
                List<Turn> fallback = j.ok() ? List.of(j) : List.of(a, n, m);
                p.decided(Panel.majority(fallback));
                return p.finish(Panel.majority(fallback), maxRounds, Termination.MAX_ROUNDS, Map.of("decided_by", j.ok() ? "judge" : "vote"));
            }
            p.record(k, List.of(a, n, m), null, extra);
            // between rounds the moderator's current answer is MAD's decision; the debaters' majority without one
            p.decided(Panel.majority(m.ok() && m.answer() != null ? List.of(m) : List.of(a, n, m)));
        }
        throw new IllegalStateException("unreachable: mad.rounds >= 1");
    }

    /** True when the moderator's reply says the debate is over (DECISION: STOP / YES / END). */
    static boolean decidedToStop(String reply) {
        Matcher mm = DECISION.matcher(reply == null ? "" : reply);
        String last = null;
        while (mm.find()) last = mm.group(1).toLowerCase(java.util.Locale.ROOT);
        return last != null && (last.equals("stop") || last.equals("yes") || last.equals("end"));
    }

    private static String transcript(List<Turn> history) {
        StringBuilder sb = new StringBuilder();
        for (Turn t : history) {
            if (!t.ok()) continue;
            sb.append("<peer id=\"").append(t.id()).append("-round").append(t.k() + 1).append("\" weight=\"0.50\">\n")
                    .append(Panel.body(t, false)).append("\n</peer>\n");
        }
        return sb.toString().strip();
    }
}
