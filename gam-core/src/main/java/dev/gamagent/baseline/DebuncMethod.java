package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Choice;
import dev.gamagent.config.Config;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.MeanTokenEntropy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * DebUnc (Yoffe et al. 2024), the prompt variant of the authors' code (github.com/lukeyoffe/debunc, {@code *_prompt.py};
 * their attention-scaling variants rescale the model's attention to each peer's tokens, which an HTTP server does not
 * expose): N agents answer; in each of R rounds every agent sees the others' previous answers, each with its author's
 * confidence level from 1 to 10, mapped from the round's uncertainties as the authors map them ({@link #confidenceLevels},
 * their {@code unc_to_confidence}: relative within the round); the uncertainty is the reply's mean token entropy (their
 * {@code MeanTokenEntropy}), or without log-probs the project's fallback signal (the trace says which). The final answer is
 * a plain majority of the last round (their {@code compute_accuracy} / {@code most_frequent}), ties to the answer given
 * first. {@code debunc.decision = weighted} keeps the earlier confidence-weighted vote (weight 1 − U) as an option.
 */
public final class DebuncMethod implements MultiAgentMethod {
    private static final DebateRounds ROUNDS = new DebateRounds("debunc");

    @Override public String name() { return "debunc"; }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "debunc", q, ctx);
        List<Panel.Agent> agents = p.seat(ROUNDS.debaters(ctx.config()));
        boolean weighted = weighted(ctx.config());
        int rounds = ROUNDS.rounds(p.config());
        var sampling = p.sampling(p.number("temperature"));
        // each round's levels are computed from the turns kept (after carry-over), recorded with the round as answered, and
        // shown to the agents of the next round
        Levels[] shown = new Levels[1];
        List<Turn> last = DebateRounds.debate(p, agents, rounds, sampling, a -> ROUNDS.firstPrompt(p, a), (a, prev) -> p.render("debunc_revise", a,
                Map.of("previous", Debaters.previous(prev, a.id()), "peers", peers(a.id(), prev, shown[0]))), (k, answered, kept) -> {
                    shown[0] = levels(p, kept);
                    p.record(k, answered, weighted ? weights(answered) : null, shown[0].extra());
                    p.decided(verdict(kept, weighted));
                });
        return p.finish(verdict(last, weighted), rounds, Termination.FIXED_ROUNDS, null);
    }

    /** {@code debunc.decision}: {@code majority} (the authors' evaluation, default) or {@code weighted} (1 − U weighted vote). */
    static boolean weighted(Config c) {
        String d = c.string("debunc.decision").strip().toLowerCase(Locale.ROOT);
        if (!d.equals("majority") && !d.equals("weighted")) {
            throw new Config.ConfigException("debunc.decision must be majority (the authors' plain majority of the last round) "
                    + "or weighted (the vote weighted by 1 − U), got '" + d + "'");
        }
        return d.equals("weighted");
    }

    /** The last round's answer: a plain majority, ties to the first answer given; or the 1 − U weighted vote. */
    private static MajorityVote.Verdict verdict(List<Turn> turns, boolean weighted) {
        List<Turn> voters = Panel.voters(turns);
        return weighted ? MajorityVote.decide(voters.stream().map(t -> t.ballot(1 - t.u())).toList())
                : MajorityVote.decide(voters.stream().map(t -> t.ballot(1.0)).toList(), false);
    }

    /**
     * The authors' {@code unc_to_confidence}: c_i = (1/u_i)·14 / Σ_j (1/u_j) + 1/N, clipped to [1, 10] and rounded
     * (half to even, as numpy rounds). Relative: the surest agent of a round gets the highest level whatever the scale of
     * u. A zero uncertainty is read as 1e-9 (the authors' 1/0 would make every level NaN).
     */
    public static int[] confidenceLevels(double[] u) {
        int n = u.length;
        int[] out = new int[n];
        if (n == 0) return out;
        double[] inv = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            inv[i] = 1 / Math.max(1e-9, u[i]);
            sum += inv[i];
        }
        for (int i = 0; i < n; i++) out[i] = (int) Math.rint(Math.max(1, Math.min(10, inv[i] * 14 / sum + 1.0 / n)));
        return out;
    }

    /** One round's DebUnc uncertainties and the confidence levels they map to (shown to the agents of the next round). */
    record Levels(Map<String, Double> uncertainty, Map<String, Integer> level, String measure) {
        Map<String, Object> extra() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("measure", measure);
            d.put("uncertainty", uncertainty);
            d.put("confidence", level);
            return Map.of("debunc", d);
        }
    }

    /**
     * Each answering agent's mean token entropy (its reply's log-probs; {@code mean-token-entropy}, or
     * {@code mean-token-entropy (chosen token)} with only the chosen token's probability), else its U from the project's
     * fallback (its signal's name, e.g. {@code semantic}), and the levels of {@link #confidenceLevels} over the round.
     */
    static Levels levels(Panel p, List<Turn> turns) {
        Map<String, Double> u = new LinkedHashMap<>();
        TreeSet<String> measures = new TreeSet<>();
        for (Turn t : turns) {
            if (!t.ok()) continue;
            Choice c = p.choice(t);
            if (c != null && c.hasLogprobs()) {
                u.put(t.id(), MeanTokenEntropy.of(c.logprobs()));
                boolean topK = c.logprobs().stream().anyMatch(x -> x.top().size() >= 2);
                measures.add(topK ? "mean-token-entropy" : "mean-token-entropy (chosen token)");
            } else {
                u.put(t.id(), t.u());
                measures.add(t.uncertainty().signal().label());
            }
        }
        int[] lv = confidenceLevels(u.values().stream().mapToDouble(Double::doubleValue).toArray());
        Map<String, Integer> level = new LinkedHashMap<>();
        int i = 0;
        for (String id : u.keySet()) level.put(id, lv[i++]);
        return new Levels(u, level, String.join(" + ", measures));
    }

    /** The peers block: every other answering agent's reasoning and answer with its confidence level, as a tenth. */
    static String peers(String selfId, List<Turn> previous, Levels levels) {
        StringBuilder sb = new StringBuilder();
        int n = previous.size();
        for (Turn t : previous) {
            if (t.id().equals(selfId) || !t.ok()) continue;
            int level = levels.level().getOrDefault(t.id(), 1);
            sb.append(String.format(Locale.ROOT, "<peer id=\"%s\" weight=\"%.2f\">%n", t.id(), 1.0 / n));
            sb.append(Panel.body(t, false));
            // CONTRACTS §1 writes confidences in [0, 1]: level 7 of 10 is 0.7
            sb.append(String.format(Locale.ROOT, "%nCONFIDENCE: %.1f (level %d of 10)%n</peer>%n", level / 10.0, level));
        }
        return sb.toString().strip();
    }

    @Override public Map<String, String> backendRefs(Config c) { return ROUNDS.backendRefs(c); }

    @Override public List<Agent> agents(Question q, Config c) { return ROUNDS.roster(c); }

    @Override public Optional<CallPlan> plannedCalls(Config c) { return ROUNDS.plannedCalls(c); }

    @Override public Optional<Opening> opening(Question q, RunContext ctx, int index, List<Picture> images) {
        return ROUNDS.opening(name(), q, ctx, index, images);
    }

    /** DebUnc's own rule over the answers DREAM's rollback kept: the plain majority (or the 1 − U vote), read replies only. */
    @Override public Optional<Decision> decide(Question q, List<Trace.AgentTurn> answers, Config c) {
        boolean weighted = weighted(c);
        List<Trace.AgentTurn> read = answers.stream().filter(t -> !"unmatched".equals(t.parse())).toList();
        var ballots = (read.isEmpty() ? answers : read).stream().map(t -> new MajorityVote.Ballot(ReplyParser.key(t.answer(), t.option()),
                t.answer(), t.option(), t.uncertainty(), weighted ? 1 - t.uncertainty() : 1.0)).toList();
        var v = MajorityVote.decide(ballots, weighted);
        return Optional.of(new Decision(v.answer(), v.option(), v.confidence(), v.uncertainty()));
    }

    /** Each agent's share of the panel's total confidence Σ(1 − U), the weight its vote carries under {@code debunc.decision=weighted}. */
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
