package dev.gamagent.baseline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The (weighted) majority vote every voting method and DREAM's rollback use: the answer with the largest
 * total weight wins; a tie goes to the answer whose voters have the lower mean uncertainty (DREAM §3.2),
 * then to the answer given first.
 */
public final class MajorityVote {
    private MajorityVote() { }

    /** One vote: the agreement key, what to report, the voter's uncertainty and its weight (1 for plain majority). */
    public record Ballot(String key, String answer, String option, double uncertainty, double weight) { }

    /**
     * The outcome. {@code support} is the winner's share of the total weight; {@code confidence} is
     * (1/N)·Σ_{voters of the winner}(1 − u_i), so a split or hesitant panel gives a low confidence.
     */
    public record Verdict(String answer, String option, String key, double support, double confidence,
                          double uncertainty, Map<String, Double> scores) { }

    public static Verdict decide(List<Ballot> ballots) { return decide(ballots, true); }

    /**
     * The vote; with {@code tiesToLowerUncertainty} false a tie goes to the answer given first, as Python's
     * {@code Counter.most_common} breaks it in DebUnc's evaluation code ({@code most_frequent}).
     */
    public static Verdict decide(List<Ballot> ballots, boolean tiesToLowerUncertainty) {
        if (ballots.isEmpty()) throw new IllegalArgumentException("a vote needs at least one ballot");
        Map<String, double[]> tally = new LinkedHashMap<>(); // key -> {weight, sum u, count, sum (1-u)}
        double total = 0;
        for (Ballot b : ballots) {
            double[] t = tally.computeIfAbsent(b.key(), k -> new double[4]);
            t[0] += b.weight();
            t[1] += b.uncertainty();
            t[2] += 1;
            t[3] += 1 - b.uncertainty();
            total += b.weight();
        }
        String best = null;
        double bestScore = Double.NEGATIVE_INFINITY, bestU = Double.POSITIVE_INFINITY;
        for (var e : tally.entrySet()) {
            double score = e.getValue()[0], meanU = e.getValue()[1] / e.getValue()[2];
            boolean wins = score > bestScore + 1e-12
                    || (tiesToLowerUncertainty && Math.abs(score - bestScore) <= 1e-12 && meanU < bestU - 1e-12);
            if (wins) {
                best = e.getKey();
                bestScore = score;
                bestU = meanU;
            }
        }
        Ballot shown = null;
        for (Ballot b : ballots) {
            if (b.key().equals(best) && (shown == null || b.uncertainty() < shown.uncertainty())) shown = b;
        }
        Map<String, Double> scores = new LinkedHashMap<>();
        tally.forEach((k, v) -> scores.put(k, v[0]));
        double confidence = tally.get(best)[3] / ballots.size();
        return new Verdict(shown.answer(), shown.option(), best, total > 0 ? bestScore / total : 0,
                confidence, 1 - confidence, scores);
    }
}
