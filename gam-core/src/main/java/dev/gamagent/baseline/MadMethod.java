package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MAD (Liang et al., 2023; DREAM's "Div-MAD"), as in the authors' code (github.com/Skytliang/Multi-Agents-Debate):
 * the affirmative answers; in the first round the negative is told it disagrees and gives its own answer
 * ("tit for tat"); in later rounds each side sees the other's latest argument and is asked whether it
 * agrees. After every round a moderator says whether one answer is clearly preferable, which ends the
 * debate with that answer. Without a decision after {@code mad.rounds} rounds a judge lists the answer
 * candidates, then picks the final one. Every agent keeps its own conversation (memory) across rounds.
 * Calls = 3 per round (+2 for the judge).
 */
public final class MadMethod implements MultiAgentMethod {
    private static final Pattern DECISION = Pattern.compile("(?im)^[\\s*]*decision\\s*\\**\\s*[:=]\\s*\\**\\s*([a-z]+)");
    private static final Pattern SIDE = Pattern.compile("(?im)^[\\s*]*supported\\s+side\\s*\\**\\s*[:=]\\s*\\**\\s*(affirmative|negative)");
    /** A side's name is not an answer (M3MAD's Div-MAD rejects it too). */
    private static final Pattern SIDE_NAME = Pattern.compile("(?i)^(?:the\\s+)?(?:affirmative|negative)(?:\\s+side)?[.!]?$");
    private static final List<String> ORDINALS = List.of("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth");

    private final String name;

    public MadMethod() { this("mad"); }

    /** @param name the name it runs under: {@code mad}, or {@code div-mad} as DREAM calls it; both read {@code mad.*} */
    public MadMethod(String name) { this.name = name; }

    @Override public String name() { return name; }

    /** The debate's agents: affirmative, negative, moderator (image indices 0..2); the judge shares the moderator's images. */
    static List<Panel.Agent> agents() {
        return List.of(new Panel.Agent("affirmative", "affirmative debater", 0),
                new Panel.Agent("negative", "negative debater", 1), new Panel.Agent("moderator", "moderator", 2));
    }

    /** {@code mad.backends}: affirmative, negative, moderator; the judge runs on the moderator's. */
    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("mad", agents().size(), c); }

    /** The same agents as DREAM probes them (the judge speaks only at the end), greedy by default. */
    @Override public List<Agent> agents(Question q, Config c) { return Debaters.roster("mad", c, agents(), c.number("mad.temperature")); }

    /** 3 calls per round until the moderator stops, then 2 judge calls when it never did. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) {
        int r = maxRounds(c);
        return java.util.Optional.of(new CallPlan(3, 3 * r + 2, "3 per round until the moderator stops, at most " + r + " rounds, + 2 judge calls"));
    }

    /** {@code mad.rounds}, at least 1: the rounds before the judge decides. */
    private static int maxRounds(Config c) { return Math.max(1, new Panel.Section("mad", c).integer("rounds")); }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name, "mad", q, ctx);
        int maxRounds = maxRounds(p.config());
        String judgeSees = p.string("judge_sees").toLowerCase(Locale.ROOT);
        if (!judgeSees.equals("first") && !judgeSees.equals("all")) {
            throw new Config.ConfigException("mad.judge_sees must be 'first' (the authors' code) or 'all' (every round), got '" + judgeSees + "'");
        }
        Sampling sampling = p.sampling(p.number("temperature"));
        List<Panel.Agent> agents = p.seat(agents());
        Panel.Agent aff = agents.get(0), neg = agents.get(1), mod = agents.get(2);
        String debaterSystem = p.render("mad_system_debater", aff, Map.of());
        String moderatorSystem = p.render("mad_system_moderator", mod, Map.of());
        List<ChatMessage> affMemory = new ArrayList<>(), negMemory = new ArrayList<>(), modMemory = new ArrayList<>();
        List<Turn> affSaid = new ArrayList<>(), negSaid = new ArrayList<>();
        Turn lastAff = null, lastNeg = null;
        for (int k = 0; k < maxRounds; k++) {
            ctx.progress().event(new ProgressEvent.RoundStarted(k));
            String round = ordinal(k + 1);
            String ua = k == 0 ? p.render("mad_affirmative", aff, Map.of())
                    : p.render("mad_debate", aff, Map.of("peers", shown(lastNeg), "round", round));
            Turn a = p.converse(aff, k, debaterSystem, List.copyOf(affMemory), ua, List.of(), sampling);
            remember(affMemory, ua, a);
            if (a.ok()) lastAff = a;
            String un = p.render(k == 0 ? "mad_negative" : "mad_debate", neg, Map.of("peers", shown(lastAff), "round", round));
            Turn n = p.converse(neg, k, debaterSystem, List.copyOf(negMemory), un, List.of(), sampling);
            remember(negMemory, un, n);
            if (n.ok()) lastNeg = n;
            if (a.ok()) affSaid.add(a);
            if (n.ok()) negSaid.add(n);
            String um = p.render("mad_moderator", mod, Map.of("peers", sides(lastAff, lastNeg), "round", round));
            Turn m = p.converse(mod, k, moderatorSystem, List.copyOf(modMemory), um, List.of(), sampling);
            remember(modMemory, um, m);
            boolean stop = m.ok() && decidedToStop(m.raw()) && readable(m);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("moderator_decision", stop ? "stop" : "continue");
            String side = m.ok() ? supportedSide(m.raw()) : null;
            if (side != null) extra.put("supported_side", side);
            if (stop) {
                p.record(k, List.of(a, n, m), null, extra);
                p.decided(Panel.majority(List.of(m)));
                return p.finish(Panel.majority(List.of(m)), k + 1, Termination.MODERATOR, Map.of("decided_by", "moderator"));
            }
            if (k == maxRounds - 1) {
                List<Turn> judged = judge(p, judgeSees.equals("first") ? firstOf(affSaid, negSaid) : interleave(affSaid, negSaid),
                        judgeSees.equals("all"), k, moderatorSystem, sampling);
                List<Turn> recorded = new ArrayList<>(List.of(a, n, m));
                recorded.addAll(judged);
                p.record(k, recorded, null, extra);
                Turn j = judged.get(judged.size() - 1);
                boolean byJudge = j.ok() && readable(j);
                var verdict = Panel.majority(byJudge ? List.of(j) : List.of(lastAff == null ? a : lastAff, lastNeg == null ? n : lastNeg));
                p.decided(verdict);
                return p.finish(verdict, maxRounds, Termination.MAX_ROUNDS, Map.of("decided_by", byJudge ? "judge" : "vote",
                        "judge_sees", judgeSees));
            }
            p.record(k, List.of(a, n, m), null, extra);
            // between rounds the moderator's current answer is MAD's decision; the debaters' majority without one
            p.decided(Panel.majority(m.ok() && readable(m) ? List.of(m) : List.of(a, n, m)));
        }
        throw new IllegalStateException("unreachable: mad.rounds >= 1");
    }

    /**
     * The judge of the authors' code: it first lists the answer candidates from the sides' arguments, then
     * (continuing that conversation) gives the final answer. Returns both turns, the deciding one last.
     */
    private static List<Turn> judge(Panel p, List<Turn> arguments, boolean byRound, int k, String system, Sampling sampling) {
        var candidates = new Panel.Agent("judge-candidates", "judge", 2);
        var judge = new Panel.Agent("judge", "judge", 2);
        String debate = transcript(arguments, byRound);
        String uc = p.render("mad_judge_candidates", candidates, Map.of("debate", debate));
        Turn c = p.converse(candidates, k, system, List.of(), uc, List.of(), sampling);
        List<ChatMessage> memory = new ArrayList<>();
        remember(memory, uc, c);
        String uf = p.render("mad_judge", judge, Map.of("debate", debate));
        Turn j = p.converse(judge, k, system, memory, uf, List.of(), sampling);
        return List.of(c, j);
    }

    /** A call answered: its user turn and the reply join the agent's memory (a failed call leaves no trace in it). */
    private static void remember(List<ChatMessage> memory, String user, Turn t) {
        if (!t.ok()) return;
        memory.add(ChatMessage.user(user, List.of()));
        memory.add(ChatMessage.assistant(t.raw()));
    }

    /** A reply that names an answer: a multiple-choice reply must name an option, any reply an answer that is not a side's name. */
    private static boolean readable(Turn t) {
        return t.answer() != null && !t.answer().isBlank() && !"unmatched".equals(t.parse())
                && !SIDE_NAME.matcher(t.answer().strip()).matches();
    }

    private static String shown(Turn t) {
        return t == null ? "" : Panel.peers("", List.of(t), List.of(1.0), false);
    }

    private static String sides(Turn aff, Turn neg) {
        List<Turn> both = new ArrayList<>();
        if (aff != null) both.add(aff);
        if (neg != null) both.add(neg);
        return Panel.peers("", both, both.stream().map(t -> 1.0 / both.size()).toList(), false);
    }

    /** The authors' judge reads each side's first argument only. */
    private static List<Turn> firstOf(List<Turn> aff, List<Turn> neg) {
        List<Turn> out = new ArrayList<>();
        if (!aff.isEmpty()) out.add(aff.get(0));
        if (!neg.isEmpty()) out.add(neg.get(0));
        return out;
    }

    private static List<Turn> interleave(List<Turn> aff, List<Turn> neg) {
        List<Turn> out = new ArrayList<>();
        for (int i = 0; i < Math.max(aff.size(), neg.size()); i++) {
            if (i < aff.size()) out.add(aff.get(i));
            if (i < neg.size()) out.add(neg.get(i));
        }
        return out;
    }

    /** True when the moderator's reply says the debate is over (DECISION: STOP / YES / END). */
    static boolean decidedToStop(String reply) {
        Matcher mm = DECISION.matcher(reply == null ? "" : reply);
        String last = null;
        while (mm.find()) last = mm.group(1).toLowerCase(Locale.ROOT);
        return last != null && (last.equals("stop") || last.equals("yes") || last.equals("end"));
    }

    /** The side the moderator supports ("SUPPORTED SIDE: negative"), or null. */
    static String supportedSide(String reply) {
        Matcher m = SIDE.matcher(reply == null ? "" : reply);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    static String ordinal(int n) { return n >= 1 && n <= ORDINALS.size() ? ORDINALS.get(n - 1) : n + "th"; }

    private static String transcript(List<Turn> arguments, boolean byRound) {
        StringBuilder sb = new StringBuilder();
        String w = String.format(Locale.ROOT, "%.2f", 1.0 / Math.max(1, arguments.size()));
        for (Turn t : arguments) {
            sb.append("<peer id=\"").append(t.id()).append(byRound ? "-round" + (t.k() + 1) : "").append("\" weight=\"")
                    .append(w).append("\">\n").append(Panel.body(t, false)).append("\n</peer>\n");
        }
        return sb.toString().strip();
    }
}
