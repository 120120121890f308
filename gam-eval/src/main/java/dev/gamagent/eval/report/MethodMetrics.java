package dev.gamagent.eval.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.stats.Interval;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.eval.store.ResultRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Every metric of one method over a set of results (definitions in docs/metrics.md). Errors are left
 * out of everything except the {@code errors} count; a circular group counts only when all its
 * rotations are graded, and is right only when all are right. {@code promptTokensPerQuestion} counts the tokens sent;
 * {@code cachedPromptTokensPerQuestion} those of them the servers reported read from their prefix cache and
 * {@code computedPromptTokensPerQuestion} the rest, both null unless a server of some record reported a cached count.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MethodMetrics(String method, int records, int errors, int unmatched, int groups, Double accuracy,
                            Double vanillaAccuracy, double promptTokensPerQuestion, double completionTokensPerQuestion,
                            List<Double> cumulativeTokensPerRound, Double costPerQuestion, String costBasis,
                            double callsPerQuestion, double secondsPerQuestion, double debateTriggerRate,
                            double meanRounds, Map<String, Long> terminations, Map<String, Double> branchShares,
                            Double ece, List<Calibration.Bin> reliability, Double auroc, Double balancedAccuracy,
                            double thetaU, Double spearmanInitialUncertaintyVsRounds, int spearmanN,
                            List<Double> uSysPerRound, Map<String, List<Double>> weightsPerRound,
                            FlipAccounting.Flips flips, Map<String, BackendUse> backends, Interval accuracyCi,
                            Double probeTokensPerQuestion, String uncertaintyNote, DebateRounds debateRounds,
                            Double cachedPromptTokensPerQuestion, Double computedPromptTokensPerQuestion) {

    /** A per-round mean and, at each round k, how many questions it is over ({@code n[k]}); a round none reached is null and 0. */
    public record RoundMeans(List<Double> mean, List<Integer> n) { }

    /**
     * The per-round figures of the debated questions (a trace round k ≥ 1), so that every point of a curve is over
     * questions of one kind: {@code questions} debated, {@code undebated} answered in round 0; U_sys and each agent's
     * weight by round over the debated ones; and, beside them, round 0's U_sys of the undebated ones. Null when no
     * question was debated.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record DebateRounds(int questions, int undebated, RoundMeans uSys, Map<String, RoundMeans> weights,
                               RoundMeans undebatedUSys) { }

    /**
     * What one backend of a panel cost per question (questions that did not use it count as 0): its model,
     * calls, tokens and dollars ({@link PriceTable#cost(String, long, long, long)}). Present only when some
     * agent ran on a backend other than the run's default.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BackendUse(String backend, String model, double callsPerQuestion, double promptTokensPerQuestion,
                             double completionTokensPerQuestion, Double costPerQuestion, String costBasis) { }

    public static final int ECE_BINS = 10;

    /**
     * Accuracy of groups: complete groups (no error in any rotation) whose every record is right, with its 95 %
     * interval ({@code ci}, null when no group is complete).
     */
    public record GroupAccuracy(int groups, int right, Double accuracy, Interval ci) {
        static GroupAccuracy of(Map<String, Boolean> items, IntervalMethod method) {
            int right = (int) items.values().stream().filter(b -> b).count();
            return new GroupAccuracy(items.size(), right, items.isEmpty() ? null : (double) right / items.size(),
                    method.proportion(right, items.size(), Pairwise.LEVEL));
        }
    }

    public static GroupAccuracy groupAccuracy(List<ResultRecord> records) {
        return GroupAccuracy.of(gradedItems(records), IntervalMethod.WILSON);
    }

    /**
     * The graded items, the unit of every accuracy and every comparison: group id (the question id without circular
     * evaluation) → right. A group counts once all its rotations are graded (none in error), and is right only when
     * every rotation is right.
     */
    public static Map<String, Boolean> gradedItems(List<ResultRecord> records) {
        Map<String, Boolean> right = new LinkedHashMap<>();
        java.util.Set<String> broken = new java.util.HashSet<>();
        for (ResultRecord r : records) {
            String g = r.question().group() == null ? r.question().id() : r.question().group();
            if (r.isError()) broken.add(g);
            if (r.ungraded()) continue; // no public answer: neither right nor wrong
            right.merge(g, r.correct(), Boolean::logicalAnd);
        }
        right.keySet().removeAll(broken);
        return right;
    }

    public static MethodMetrics of(String method, List<ResultRecord> all, PriceTable prices, double thetaU, boolean circular) {
        List<ResultRecord> ok = all.stream().filter(r -> !r.isError()).toList();
        int errors = all.size() - ok.size();
        int unmatched = (int) ok.stream().filter(r -> Outcome.UNMATCHED.label().equals(r.grade().outcome())).count();
        GroupAccuracy ga = groupAccuracy(all);
        Double vanilla = null;
        if (circular) {
            List<ResultRecord> first = ok.stream().filter(r -> r.question().rotation() == 0 && !r.ungraded()).toList();
            vanilla = first.isEmpty() ? null : first.stream().filter(ResultRecord::correct).count() / (double) first.size();
        }
        int n = ok.size();
        double prompt = mean(ok, r -> r.cost().promptTokens()), completion = mean(ok, r -> r.cost().completionTokens());
        Double cached = cachedPromptTokensPerQuestion(ok);
        double cost = 0;
        String basis = null;
        for (ResultRecord r : ok) {
            PriceTable.Cost c = prices.cost(r);
            cost += c.dollars();
            basis = basis == null ? c.basis() : basis.equals(c.basis()) ? basis : "mixed";
        }
        // the built-in model without a rate has no price: no dollars, rather than $0 that reads as free
        Double costPerQuestion = n == 0 || PriceTable.UNPRICED.equals(basis) ? null : cost / n;
        Map<String, Long> terms = new TreeMap<>();
        Map<String, Long> branches = new TreeMap<>();
        for (ResultRecord r : ok) {
            terms.merge(r.trace().termination() == null ? "-" : r.trace().termination(), 1L, Long::sum);
            String b = branchOf(r);
            if (b != null) branches.merge(b, 1L, Long::sum);
        }
        Map<String, Double> shares = new TreeMap<>();
        for (var e : branches.entrySet()) shares.put(e.getKey(), (double) e.getValue() / n);

        // calibration needs the truth: answers without a public one (ungraded) are left out of it
        List<ResultRecord> known = ok.stream().filter(r -> !r.ungraded()).toList();
        double[] conf = new double[known.size()], unc = new double[known.size()];
        boolean[] right = new boolean[known.size()], wrong = new boolean[known.size()];
        for (int i = 0; i < known.size(); i++) {
            conf[i] = known.get(i).grade().confidence();
            unc[i] = known.get(i).grade().uncertainty();
            right[i] = known.get(i).correct();
            wrong[i] = !right[i];
        }
        List<double[]> u0Rounds = new ArrayList<>();
        for (ResultRecord r : ok) {
            Double u0 = roundValue(r, 0, "U_sys");
            if (u0 != null) u0Rounds.add(new double[]{u0, r.trace().rounds()});
        }
        double[] xs = u0Rounds.stream().mapToDouble(p -> p[0]).toArray(), ys = u0Rounds.stream().mapToDouble(p -> p[1]).toArray();
        String uNote = uncertaintyNote(unc, thetaU);
        boolean constantU = uNote != null && uNote.startsWith(SAME_U);
        return new MethodMetrics(method, all.size(), errors, unmatched, ga.groups(), ga.accuracy(), vanilla, prompt, completion,
                TokenCurve.cumulativeTokensPerRound(ok), costPerQuestion, basis, mean(ok, r -> r.cost().calls()),
                mean(ok, r -> r.cost().millis() / 1000.0), mean(ok, r -> r.trace().rounds() > 0 ? 1 : 0), mean(ok, r -> r.trace().rounds()),
                terms, shares, nan(Calibration.ece(conf, right, ECE_BINS)), Calibration.reliability(conf, right, ECE_BINS),
                constantU ? null : nan(Calibration.auroc(unc, wrong)),
                uNote != null ? null : nan(Calibration.balancedAccuracy(unc, wrong, thetaU)), thetaU,
                nan(Calibration.spearman(xs, ys)), xs.length, uSysPerRound(ok), weightsPerRound(ok),
                FlipAccounting.of(known), backends(ok, prices), ga.ci(), TokenCurve.probeTokensPerQuestion(ok), uNote, debateRounds(ok), cached,
                cached == null ? null : prompt - cached);
    }

    /**
     * Mean prompt tokens per question the servers reported read from their cache; a record whose servers reported none
     * counts as 0 (its prompt computed in full). Null when no record has a reported count: then nothing is known.
     */
    static Double cachedPromptTokensPerQuestion(List<ResultRecord> ok) {
        if (ok.stream().noneMatch(r -> r.cost().cachedPromptTokens() != null)) return null;
        return mean(ok, r -> r.cost().cachedPromptTokens() == null ? 0 : r.cost().cachedPromptTokens());
    }

    static final String SAME_U = "the same U for every answer";

    /**
     * Why the uncertainty metrics are not shown, or null when they are. When U is the same for every answer, AUROC
     * and balanced accuracy are 0.5 by construction; when U never crosses θ_U (nothing flagged, or everything),
     * balanced accuracy is 0.5 by construction (TPR 0 and TNR 1, or the reverse). Either 0.5 says nothing.
     */
    static String uncertaintyNote(double[] u, double thetaU) {
        if (u.length == 0) return null;
        double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        int flagged = 0;
        for (double x : u) {
            min = Math.min(min, x);
            max = Math.max(max, x);
            if (x > thetaU) flagged++;
        }
        if (max - min < 1e-12) {
            return String.format(java.util.Locale.ROOT, "%s (%.3f): AUROC and balanced accuracy are 0.5 by construction", SAME_U, min);
        }
        if (flagged == 0) {
            return String.format(java.util.Locale.ROOT, "no U above θ_U = %s (highest %.3f): nothing is flagged, "
                    + "so balanced accuracy is 0.5 by construction", trim(thetaU), max);
        }
        if (flagged == u.length) {
            return String.format(java.util.Locale.ROOT, "every U above θ_U = %s (lowest %.3f): everything is flagged, "
                    + "so balanced accuracy is 0.5 by construction", trim(thetaU), min);
        }
        return null;
    }

    private static String trim(double v) { return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString(); }

    /** Per backend name: means over the records of calls, tokens and cost; null when only the default backend answered. */
    static Map<String, BackendUse> backends(List<ResultRecord> ok, PriceTable prices) {
        boolean panel = ok.stream().anyMatch(r -> r.cost().backends() != null
                && r.cost().backends().keySet().stream().anyMatch(k -> !k.equals(dev.gamagent.api.RunContext.DEFAULT_BACKEND)));
        if (!panel) return null;
        Map<String, double[]> sums = new TreeMap<>();
        Map<String, dev.gamagent.backend.UsageMeter.Tally> last = new TreeMap<>();
        Map<String, String> basis = new TreeMap<>();
        for (ResultRecord r : ok) {
            if (r.cost().backends() == null) continue;
            Map<String, PriceTable.Cost> costs = prices.costs(r);
            for (var e : r.cost().backends().entrySet()) {
                var t = e.getValue();
                PriceTable.Cost c = costs.get(e.getKey());
                double[] s = sums.computeIfAbsent(e.getKey(), k -> new double[4]);
                s[0] += t.calls();
                s[1] += t.promptTokens();
                s[2] += t.completionTokens();
                s[3] += c.dollars();
                last.put(e.getKey(), t);
                basis.merge(e.getKey(), c.basis(), (a, b) -> a.equals(b) ? a : "mixed");
            }
        }
        int n = ok.size();
        Map<String, BackendUse> out = new java.util.LinkedHashMap<>();
        for (var e : sums.entrySet()) {
            double[] s = e.getValue();
            var t = last.get(e.getKey());
            String b = basis.get(e.getKey());
            out.put(e.getKey(), new BackendUse(t.backend(), t.model(), s[0] / n, s[1] / n, s[2] / n, PriceTable.UNPRICED.equals(b) ? null : s[3] / n, b));
        }
        return out;
    }

    /**
     * For predictions read from a file rather than run (gam grade): calibration needs confidences, and
     * tokens, cost, calls and time need the run, so those are left empty (null) instead of reading as zero.
     */
    public MethodMetrics withoutRunData() {
        return new MethodMetrics(method, records, errors, unmatched, groups, accuracy, vanillaAccuracy, 0, 0, List.of(), null, "none",
                0, 0, 0, 0, Map.of(), Map.of(), null, null, null, null, thetaU, null, 0, List.of(), Map.of(), null, null, accuracyCi,
                null, null, null, null, null);
    }

    /** The same metrics with the accuracy interval computed another way (gam report --interval bootstrap). */
    public MethodMetrics withAccuracyCi(Interval ci) {
        return new MethodMetrics(method, records, errors, unmatched, groups, accuracy, vanillaAccuracy, promptTokensPerQuestion,
                completionTokensPerQuestion, cumulativeTokensPerRound, costPerQuestion, costBasis, callsPerQuestion, secondsPerQuestion,
                debateTriggerRate, meanRounds, terminations, branchShares, ece, reliability, auroc, balancedAccuracy, thetaU,
                spearmanInitialUncertaintyVsRounds, spearmanN, uSysPerRound, weightsPerRound, flips, backends, ci, probeTokensPerQuestion,
                uncertaintyNote, debateRounds, cachedPromptTokensPerQuestion, computedPromptTokensPerQuestion);
    }

    /** DREAM's branch from {@code extra.branch}: a name, or an object naming it in {@code name}/{@code type}/{@code branch}. */
    static String branchOf(ResultRecord r) {
        JsonNode b = r.trace().json() == null ? null : r.trace().json().path("extra").get("branch");
        if (b == null || b.isNull()) return null;
        if (b.isValueNode()) return b.asText();
        for (String f : List.of("name", "type", "branch", "kind")) if (b.path(f).isTextual()) return b.get(f).asText();
        return b.toString();
    }

    private static Double nan(double v) { return Double.isNaN(v) ? null : v; }

    private static double mean(List<ResultRecord> rs, ToDoubleFunction<ResultRecord> f) {
        return rs.isEmpty() ? 0 : rs.stream().mapToDouble(f).sum() / rs.size();
    }

    static Double roundValue(ResultRecord r, int k, String field) {
        JsonNode rounds = Sweep.rounds(r);
        if (rounds == null || !rounds.isArray()) return null;
        for (JsonNode round : rounds) {
            if (round.path("k").asInt(-1) == k && round.hasNonNull(field)) return round.get(field).asDouble();
        }
        return null;
    }

    /** Mean U_sys at each round k over the questions that reached round k. */
    static List<Double> uSysPerRound(List<ResultRecord> rs) {
        Map<Integer, double[]> acc = new TreeMap<>();
        for (ResultRecord r : rs) {
            JsonNode rounds = Sweep.rounds(r);
            if (rounds == null) continue;
            for (JsonNode round : rounds) {
                if (!round.hasNonNull("U_sys")) continue;
                double[] a = acc.computeIfAbsent(round.path("k").asInt(), k -> new double[2]);
                a[0] += round.get("U_sys").asDouble();
                a[1]++;
            }
        }
        List<Double> out = new ArrayList<>();
        for (var e : acc.entrySet()) {
            while (out.size() < e.getKey()) out.add(null);
            out.add(e.getValue()[0] / e.getValue()[1]);
        }
        return out;
    }

    /** Mean influence weight of each agent id at each round (from traces that record weights). */
    static Map<String, List<Double>> weightsPerRound(List<ResultRecord> rs) {
        Map<String, Map<Integer, double[]>> acc = new TreeMap<>();
        int maxK = -1;
        for (ResultRecord r : rs) {
            JsonNode rounds = Sweep.rounds(r);
            if (rounds == null) continue;
            for (JsonNode round : rounds) {
                int k = round.path("k").asInt();
                for (JsonNode a : round.path("agents")) {
                    if (!a.hasNonNull("weight") || !a.hasNonNull("id")) continue;
                    double[] s = acc.computeIfAbsent(a.get("id").asText(), x -> new TreeMap<>()).computeIfAbsent(k, x -> new double[2]);
                    s[0] += a.get("weight").asDouble();
                    s[1]++;
                    maxK = Math.max(maxK, k);
                }
            }
        }
        Map<String, List<Double>> out = new TreeMap<>();
        if (acc.size() < 2) return out; // one agent always has weight 1: nothing to show
        for (var e : acc.entrySet()) {
            List<Double> l = new ArrayList<>();
            for (int k = 0; k <= maxK; k++) {
                double[] s = e.getValue().get(k);
                l.add(s == null ? null : s[0] / s[1]);
            }
            out.put(e.getKey(), l);
        }
        return out;
    }

    /** {@link DebateRounds} over the answered questions; null when none was debated. */
    static DebateRounds debateRounds(List<ResultRecord> rs) {
        List<ResultRecord> debated = rs.stream().filter(FlipAccounting::debated).toList();
        if (debated.isEmpty()) return null;
        List<ResultRecord> undebated = rs.stream().filter(r -> !FlipAccounting.debated(r)).toList();
        Map<String, Map<Integer, double[]>> weights = new TreeMap<>();
        Map<Integer, double[]> uSys = new TreeMap<>();
        for (ResultRecord r : debated) {
            for (JsonNode round : Sweep.rounds(r)) {
                int k = round.path("k").asInt();
                if (round.hasNonNull("U_sys")) add(uSys, k, round.get("U_sys").asDouble());
                for (JsonNode a : round.path("agents")) {
                    if (a.hasNonNull("weight") && a.hasNonNull("id")) add(weights.computeIfAbsent(a.get("id").asText(), x -> new TreeMap<>()), k, a.get("weight").asDouble());
                }
            }
        }
        Map<String, RoundMeans> w = new TreeMap<>();
        if (weights.size() > 1) weights.forEach((id, m) -> w.put(id, means(m))); // one agent always has weight 1: nothing to show
        Map<Integer, double[]> u0 = new TreeMap<>();
        for (ResultRecord r : undebated) {
            Double u = roundValue(r, 0, "U_sys");
            if (u != null) add(u0, 0, u);
        }
        return new DebateRounds(debated.size(), undebated.size(), uSys.isEmpty() ? null : means(uSys), w.isEmpty() ? null : w,
                u0.isEmpty() ? null : means(u0));
    }

    private static void add(Map<Integer, double[]> acc, int k, double v) {
        double[] a = acc.computeIfAbsent(k, x -> new double[2]);
        a[0] += v;
        a[1]++;
    }

    private static RoundMeans means(Map<Integer, double[]> acc) {
        int maxK = acc.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
        List<Double> mean = new ArrayList<>();
        List<Integer> n = new ArrayList<>();
        for (int k = 0; k <= maxK; k++) {
            double[] a = acc.get(k);
            mean.add(a == null ? null : a[0] / a[1]);
            n.add(a == null ? 0 : (int) a[1]);
        }
        return new RoundMeans(mean, n);
    }
}
