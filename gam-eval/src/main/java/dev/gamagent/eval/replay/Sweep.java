package dev.gamagent.eval.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.OpenAnswerMatcher;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.DebateRule;
import dev.gamagent.influence.StoppingRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Re-decides GAM's debate trigger and termination from recorded full-length debates
 * ({@code gam.record_full=true}: every round up to K_max is in the trace) without new model calls. It runs the
 * controller's own rule ({@link DebateRule}: trigger, stop, budget, carried rounds) and consensus
 * ({@link Consensus}) over the recorded rounds instead of played ones, so a setting gives what a fresh run with it
 * gives. Weights, U_i and U_sys are taken as recorded, so λ, γ, τ cannot be swept this way. A run recorded with an
 * ablation ({@code no_debate}, {@code fixed_rounds}, {@code no_uncertainty}) is re-decided with it.
 */
public final class Sweep {
    private Sweep() { }

    /**
     * The outcome of one setting. {@code incomplete} counts questions whose trace ended before this
     * setting would stop (a longer debate would need new calls); they are scored at their last round.
     */
    public record Result(StoppingRule setting, int groups, Double accuracy, double tokensPerQuestion, double meanRounds,
                         double triggerRate, int incomplete, Map<String, Integer> terminations,
                         double promptTokensPerQuestion, double completionTokensPerQuestion, double callsPerQuestion) { }

    /** The decision for one trace under one setting; usage is summed over rounds 0..round. */
    public record Decision(int round, String termination, String option, String answer, Usage usage, boolean incomplete) {
        public long tokens() { return usage.prompt() + usage.completion(); }
    }

    /**
     * Model usage of one or more rounds: the agents' tokens and calls (one call per agent that answered) plus the
     * round's {@code extra.tokens} / {@code extra.calls} (the critics, which are not trace agents).
     */
    public record Usage(long prompt, long completion, long calls) {

        Usage plus(Usage o) { return new Usage(prompt + o.prompt, completion + o.completion, calls + o.calls); }

        static Usage of(JsonNode round) {
            long p = 0, c = 0, n = 0;
            for (JsonNode a : round.path("agents")) {
                p += a.path("tokens").path("prompt").asLong();
                c += a.path("tokens").path("completion").asLong();
                if (!a.hasNonNull("error")) n++;
            }
            JsonNode extra = round.path("extra");
            p += extra.path("tokens").path("prompt").asLong();
            c += extra.path("tokens").path("completion").asLong();
            n += extra.path("calls").asLong();
            return new Usage(p, c, n);
        }
    }

    /** A recorded round as the rule reads it, with its consensus. */
    record Recorded(int k, double uSys, double conflict, boolean answered, boolean agreed, Consensus.Verdict verdict)
            implements DebateRule.Standing { }

    /**
     * The rule a record is re-decided with: the setting's thresholds and the ablations its run was recorded with
     * ({@code gam.ablation.no_debate}, {@code fixed_rounds}, {@code no_uncertainty} in the trace's config), as the
     * controller ran them ({@link dev.gamagent.gam.GamSettings#rule}); a run without them, as the default rule.
     */
    static DebateRule rule(ResultRecord r, StoppingRule s) {
        JsonNode a = ablations(r);
        return new DebateRule(s, a.path("no_debate").asBoolean(false), a.path("fixed_rounds").asBoolean(false), false,
                a.path("no_uncertainty").asBoolean(false));
    }

    /** The {@code gam.ablation} switches a record's run was made with (a missing node when none were recorded). */
    static JsonNode ablations(ResultRecord r) {
        return r.trace().json() == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : r.trace().json().path("config").path("ablation");
    }

    /** The ablation switches that are on in any of the records, by name ({@code no_debate}, {@code fixed_rounds}, ...): what a sweep honours. */
    public static java.util.SortedSet<String> ablationsOn(List<ResultRecord> records) {
        java.util.SortedSet<String> on = new java.util.TreeSet<>();
        for (ResultRecord r : records) ablations(r).fields().forEachRemaining(e -> { if (e.getValue().asBoolean(false)) on.add(e.getKey()); });
        return on;
    }

    /** Sweeps with the default open-answer tolerance (numbers within 1 %). */
    public static List<Result> run(List<ResultRecord> records, List<StoppingRule> grid) {
        return run(records, grid, new OpenAnswerMatcher(0.01));
    }

    /** Sweeps {@code grid}; open answers are graded with {@code open}, as {@code gam eval} grades them. */
    public static List<Result> run(List<ResultRecord> records, List<StoppingRule> grid, OpenAnswerMatcher open) {
        List<ResultRecord> usable = records.stream().filter(r -> !r.isError() && roundsByK(r).containsKey(0)
                && roundsByK(r).get(0).hasNonNull("U_sys")).toList();
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no results with recorded debate rounds (U_sys per round); run gam eval with a debate "
                    + "method and --set gam.record_full=true first");
        }
        List<Result> out = new ArrayList<>();
        for (StoppingRule s : grid) {
            Map<String, boolean[]> groups = new HashMap<>(); // group -> {all right}
            long tokens = 0, prompt = 0, completion = 0, calls = 0, rounds = 0, triggered = 0;
            int incomplete = 0;
            Map<String, Integer> terms = new TreeMap<>();
            for (ResultRecord r : usable) {
                Decision d = decide(r, s);
                tokens += d.tokens();
                prompt += d.usage().prompt();
                completion += d.usage().completion();
                calls += d.usage().calls();
                rounds += d.round();
                if (d.round() > 0) triggered++;
                if (d.incomplete()) incomplete++;
                terms.merge(d.termination(), 1, Integer::sum);
                String g = r.question().group() == null ? r.question().id() : r.question().group();
                groups.computeIfAbsent(g, k -> new boolean[]{true})[0] &= right(r, d, open);
            }
            long ok = groups.values().stream().filter(b -> b[0]).count();
            int n = usable.size();
            out.add(new Result(s, groups.size(), groups.isEmpty() ? null : (double) ok / groups.size(), (double) tokens / n,
                    (double) rounds / n, (double) triggered / n, incomplete, terms, (double) prompt / n, (double) completion / n,
                    (double) calls / n));
        }
        return out;
    }

    /** Grade as {@link Grader} grades a fresh run: the option letter, or the open answer against the ground truth. */
    private static boolean right(ResultRecord r, Decision d, OpenAnswerMatcher open) {
        if (d.option() != null) return d.option().equals(r.question().groundTruth());
        if (options(r).isEmpty()) return open.match(d.answer() == null ? "" : d.answer(), r.question().groundTruth()) != OpenAnswerMatcher.Match.NONE;
        return false; // multiple choice without an option: no expert chose one
    }
public 
    static Decision decide(ResultRecord r, StoppingRule s) {
        Map<Integer, JsonNode> byK = roundsByK(r);
        int recorded = byK.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<String, String> options = options(r);
        Usage[] used = {Usage.of(byK.get(0))};
        Recorded r0 = read(byK.get(0), 0, options);
        DebateRule.Outcome<Recorded> end = rule(r, s).run(r0, new DebateRule.Rounds<>() {
            @Override public Recorded play(int k, Recorded current) {
                JsonNode round = byK.get(k);
                if (round == null || !round.hasNonNull("U_sys")) return null;
                used[0] = used[0].plus(Usage.of(round));
                return read(round, k, options);
            }

            @Override public Recorded carry(Recorded previous, Recorded failed) { return previous; }

            @Override public long tokensUsed() { return used[0].prompt() + used[0].completion(); }
        });
        Recorded last = end.last();
        if (!end.complete()) return new Decision(recorded, "recorded_end", last.verdict().option(), last.verdict().answer(), used[0], true);
        String answer = last.verdict().answer();
        boolean incomplete = false;
        JsonNode trace = r.trace().json();
        if (options.isEmpty() && end.rounds() > 0 && trace != null && trace.path("config").path("judge").asBoolean(false)) {
            // the judge synthesised the recorded answer after the recorded last round; another stop needs a new call
            if (end.rounds() == recorded) answer = trace.path("final").path("answer").asText(answer);
            else incomplete = true;
        }
        return new Decision(end.rounds(), end.termination().label(), last.verdict().option(), answer, used[0], incomplete);
    }

    /** The round's U_sys, C and consensus from its recorded agents (weights as recorded; experts that failed left out). */
    private static Recorded read(JsonNode round, int k, Map<String, String> options) {
        List<Consensus.Vote> votes = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        JsonNode none = round.path("extra").path("no_opinion");
        int live = 0;
        for (JsonNode a : round.path("agents")) if (!a.hasNonNull("error")) live++;
        for (JsonNode a : round.path("agents")) {
            if (a.hasNonNull("error")) continue;
            String option = a.hasNonNull("option") ? a.get("option").asText() : null;
            String answer = a.hasNonNull("answer") ? a.get("answer").asText() : null;
            Map<String, Double> dist = null;
            JsonNode d = a.get("optionDistribution");
            if (d != null && d.isObject() && d.size() > 0) {
                Map<String, Double> m = new LinkedHashMap<>();
                d.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asDouble()));
                dist = m;
            }
            // traces written before the no_opinion note: an agent without an option (or answer) held none
            boolean opinion = none.isObject() ? !none.has(a.path("id").asText()) : options.isEmpty() ? answer != null : option != null;
            votes.add(new Consensus.Vote(option, answer, dist, opinion));
            weights.add(a.hasNonNull("weight") ? a.get("weight").asDouble() : 1.0 / Math.max(1, live));
        }
        double[] w = weights.stream().mapToDouble(Double::doubleValue).toArray();
        Consensus.Verdict v = options.isEmpty() ? Consensus.open(votes, w)
                : Consensus.multipleChoice(votes, w, List.copyOf(options.keySet()), options);
        return new Recorded(k, round.get("U_sys").asDouble(), round.path("conflict").asDouble(0), live > 0, Consensus.agreed(votes), v);
    }

    /**
     * The question's options in their order, from the trace (empty for an open question); a trace without its
     * question is multiple choice when its agents named options, over the letters they used.
     */
    private static Map<String, String> options(ResultRecord r) {
        Map<String, String> m = new LinkedHashMap<>();
        JsonNode o = r.trace().json() == null ? null : r.trace().json().path("question").path("options");
        if (o != null && o.isObject() && o.size() > 0) {
            o.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
            return m;
        }
        Map<String, String> seen = new TreeMap<>();
        for (JsonNode round : roundsByK(r).values()) {
            for (JsonNode a : round.path("agents")) {
                if (a.hasNonNull("option")) seen.put(a.get("option").asText(), a.get("option").asText());
                a.path("optionDistribution").fieldNames().forEachRemaining(l -> seen.put(l, l));
            }
        }
        return seen;
    }

    static Map<Integer, JsonNode> roundsByK(ResultRecord r) {
        Map<Integer, JsonNode> m = new TreeMap<>();
        JsonNode rounds = rounds(r);
        if (rounds != null) for (JsonNode round : rounds) m.put(round.path("k").asInt(), round);
        return m;
    }

    /** Every combination of the given values, without a token budget. */
    public static List<StoppingRule> grid(List<Double> thetaTerm, List<Double> thetaU, List<Double> thetaC, List<Double> epsilon, List<Integer> maxRounds) {
        return grid(thetaTerm, thetaU, thetaC, epsilon, maxRounds, List.of(0L));
    }

    /** Every combination of the given values. */
    public static List<StoppingRule> grid(List<Double> thetaTerm, List<Double> thetaU, List<Double> thetaC, List<Double> epsilon,
                                     List<Integer> maxRounds, List<Long> tokenBudget) {
        List<StoppingRule> g = new ArrayList<>();
        for (double t : thetaTerm) for (double u : thetaU) for (double c : thetaC) for (double e : epsilon) for (int k : maxRounds) {
            for (long b : tokenBudget) g.add(new StoppingRule(u, c, t, e, k, b));
        }
        return g;
    }

    /** The {@code rounds} of a record's trace, null when it has none. */
    public static JsonNode rounds(ResultRecord r) {
        return r.trace().json() == null ? null : r.trace().json().get("rounds");
    }
}
