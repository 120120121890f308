package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Re-decides GAM's debate trigger and termination from recorded full-length debates
 * ({@code gam.record_full=true}: every round up to K_max is in the trace) without new model calls
 * (DESIGN.md section 6): debate iff U_sys(0) > θ_U or C(0) > θ_C; stop at the first round k ≥ 1 with
 * U_sys(k) < θ_term, |U_sys(k) − U_sys(k−1)| < ε, or k = K_max; the answer is that round's
 * argmax_o Σ_i w_i·p_i(o). Weights are taken as recorded, so λ, γ, τ cannot be swept this way.
 */
public final class Sweep {
    private Sweep() { }

    /** One point of the grid. */
    public record Setting(double thetaTerm, double thetaU, double thetaC, double epsilon, int maxRounds) { }

    /**
     * The outcome of one setting. {@code incomplete} counts questions whose trace ended before this
     * setting would stop (a longer debate would need new calls); they are scored at their last round.
     */
    public record Result(Setting setting, int groups, Double accuracy, double tokensPerQuestion, double meanRounds,
                         double triggerRate, int incomplete, Map<String, Integer> terminations,
                         double promptTokensPerQuestion, double completionTokensPerQuestion, double callsPerQuestion) { }

    /** The decision for one trace under one setting; usage is summed over rounds 0..round. */
    record Decision(int round, String termination, String option, Usage usage, boolean incomplete) {
        long tokens() { return usage.prompt() + usage.completion(); }
    }

    /**
     * Model usage of one or more rounds: the agents' tokens and calls (one call per agent that answered) plus the
     * round's {@code extra.tokens} / {@code extra.calls} (the critics, which are not trace agents).
     */
    record Usage(long prompt, long completion, long calls) {

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

    public static List<Result> run(List<ResultRecord> records, List<Setting> grid) {
        List<ResultRecord> usable = records.stream().filter(r -> !r.isError() && roundsByK(r).containsKey(0)
                && roundsByK(r).get(0).hasNonNull("U_sys")).toList();
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no results with recorded debate rounds (U_sys per round); run gam eval with a debate "
                    + "method and --set gam.record_full=true first");
        }
        List<Result> out = new ArrayList<>();
        for (Setting s : grid) {
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
                boolean right = d.option() != null && d.option().equals(r.groundTruth());
                String g = r.group() == null ? r.questionId() : r.group();
                groups.computeIfAbsent(g, k -> new boolean[]{true})[0] &= right;
            }
            long ok = groups.values().stream().filter(b -> b[0]).count();
            int n = usable.size();
            out.add(new Result(s, groups.size(), groups.isEmpty() ? null : (double) ok / groups.size(), (double) tokens / n,
                    (double) rounds / n, (double) triggered / n, incomplete, terms, (double) prompt / n, (double) completion / n,
                    (double) calls / n));
        }
        return out;
    }

    static Decision decide(ResultRecord r, Setting s) {
        Map<Integer, JsonNode> byK = roundsByK(r);
        int recorded = byK.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        JsonNode r0 = byK.get(0);
        double u0 = r0.get("U_sys").asDouble(), c0 = r0.path("conflict").asDouble(0);
        Usage used = Usage.of(r0);
        if (!(u0 > s.thetaU() || c0 > s.thetaC())) return new Decision(0, "consensus", weightedOption(r0), used, false);
        double prev = u0;
        for (int k = 1; ; k++) {
            JsonNode round = byK.get(k);
            if (round == null || !round.hasNonNull("U_sys")) {
                JsonNode last = byK.get(recorded);
                return new Decision(recorded, "recorded_end", weightedOption(last), used, true);
            }
            used = used.plus(Usage.of(round));
            double u = round.get("U_sys").asDouble();
            String why = u < s.thetaTerm() ? "uncertainty" : Math.abs(u - prev) < s.epsilon() ? "stagnation"
                    : k >= s.maxRounds() ? "max_rounds" : null;
            if (why != null) return new Decision(k, why, weightedOption(round), used, false);
            prev = u;
        }
    }

    /** argmax_o Σ_i w_i·p_i(o) over the round's agents (p_i: recorded option distribution, else one-hot; w_i: recorded, else equal). */
    static String weightedOption(JsonNode round) {
        Map<String, Double> score = new TreeMap<>();
        JsonNode agents = round.path("agents");
        int n = 0;
        for (JsonNode a : agents) if (a.path("error").isMissingNode() || a.path("error").isNull()) n++;
        for (JsonNode a : agents) {
            if (a.hasNonNull("error")) continue;
            double w = a.hasNonNull("weight") ? a.get("weight").asDouble() : 1.0 / Math.max(1, n);
            JsonNode dist = a.get("optionDistribution");
            if (dist != null && dist.isObject() && dist.size() > 0) {
                dist.fields().forEachRemaining(e -> score.merge(e.getKey(), w * e.getValue().asDouble(), Double::sum));
            } else if (a.hasNonNull("option")) score.merge(a.get("option").asText(), w, Double::sum);
        }
        String best = null;
        double bestScore = -1;
        for (var e : score.entrySet()) if (e.getValue() > bestScore + 1e-12) { best = e.getKey(); bestScore = e.getValue(); }
        return best;
    }

    static Map<Integer, JsonNode> roundsByK(ResultRecord r) {
        Map<Integer, JsonNode> m = new TreeMap<>();
        JsonNode rounds = MethodMetrics.rounds(r);
        if (rounds != null) for (JsonNode round : rounds) m.put(round.path("k").asInt(), round);
        return m;
    }

    /** Every combination of the given values. */
    public static List<Setting> grid(List<Double> thetaTerm, List<Double> thetaU, List<Double> thetaC, List<Double> epsilon, List<Integer> maxRounds) {
        List<Setting> g = new ArrayList<>();
        for (double t : thetaTerm) for (double u : thetaU) for (double c : thetaC) for (double e : epsilon) for (int k : maxRounds) {
            g.add(new Setting(t, u, c, e, k));
        }
        return g;
    }
}
