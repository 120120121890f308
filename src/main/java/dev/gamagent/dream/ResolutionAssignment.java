package dev.gamagent.dream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * DREAM's dynamic resolution assignment (DREAM §3.1; DESIGN.md §7): the adaptive threshold over this
 * question's probes, the confident set, and the branch it selects.
 */
public final class ResolutionAssignment {
    private static final double EPS = 1e-12;

    private ResolutionAssignment() { }

    /** τ = mean(u) − α·std(u) over the probes that answered (population std). */
    public static double adaptiveThreshold(List<Probe> probes, double alpha) {
        double[] us = probes.stream().filter(Probe::ok).mapToDouble(Probe::u).toArray();
        if (us.length == 0) return Double.NEGATIVE_INFINITY;
        double mean = 0;
        for (double u : us) mean += u;
        mean /= us.length;
        double var = 0;
        for (double u : us) var += (u - mean) * (u - mean);
        return mean - alpha * Math.sqrt(var / us.length);
    }

    /** The probes marked confident (u ≤ τ; a failed probe never is). */
    public static List<Probe> mark(List<Probe> probes, double tau) {
        return probes.stream().map(p -> p.withConfident(p.ok() && p.u() <= tau + EPS)).toList();
    }

    /**
     * The branch for marked probes of {@code agents} agents at {@code scales} (DREAM Fig. 2): empty confident
     * set → StaticAll; disagreeing confident answers → ConflictMixRes; all confident and agreeing →
     * Consensus; agreeing and every agent confident somewhere → PerAgent; otherwise MixRes.
     */
    public static Branch decide(List<Probe> marked, int agents, List<Double> scales) {
        List<Probe> confident = marked.stream().filter(Probe::confident).toList();
        if (confident.isEmpty()) return new Branch.StaticAll();
        Map<String, Probe> byKey = new LinkedHashMap<>();
        for (Probe p : confident) byKey.putIfAbsent(p.key(), p);
        if (byKey.size() > 1) {
            List<String> answers = byKey.values().stream().map(p -> p.option() != null ? p.option() : p.answer()).toList();
            return new Branch.ConflictMixRes(scales, answers);
        }
        if (confident.size() == marked.size()) {
            Probe best = confident.stream().min(java.util.Comparator.comparingDouble(Probe::u)).orElseThrow();
            double meanU = confident.stream().mapToDouble(Probe::u).average().orElse(1);
            return new Branch.Consensus(best.answer(), best.option(), meanU);
        }
        List<Double> best = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            final int agent = i;
            var mine = confident.stream().filter(p -> p.agentIndex() == agent)
                    .min(java.util.Comparator.comparingDouble(Probe::u).thenComparingDouble(Probe::scale));
            if (mine.isEmpty()) {
                TreeSet<Double> s = new TreeSet<>();
                for (Probe p : confident) s.add(p.scale());
                return new Branch.MixRes(new ArrayList<>(s));
            }
            best.add(mine.get().scale());
        }
        return new Branch.PerAgent(best);
    }
}
