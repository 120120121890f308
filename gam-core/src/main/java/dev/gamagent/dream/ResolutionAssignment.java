package dev.gamagent.dream;

import java.util.ArrayList;
import java.util.Comparator;
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

    /**
     * τ = mean(u) − α·std(u) over the probes with a readable answer (population std). A probe without one (a
     * failed call, a refusal, an expert declaring NOT APPLICABLE) can never be confident, and its u (often a
     * fluent, near-certain sentence) would otherwise pull τ below every real answer.
     */
    public static double adaptiveThreshold(List<Probe> probes, double alpha) {
        double[] us = probes.stream().filter(p -> p.ok() && answered(p)).mapToDouble(Probe::u).toArray();
        if (us.length == 0) return Double.NEGATIVE_INFINITY;
        double mean = 0;
        for (double u : us) mean += u;
        mean /= us.length;
        double var = 0;
        for (double u : us) var += (u - mean) * (u - mean);
        return mean - alpha * Math.sqrt(var / us.length);
    }

    /**
     * The probes marked confident (u ≤ τ). A failed probe never is, nor one without a readable answer
     * (blank key): a refusal can have a low ANLL, yet it has no answer to agree or disagree with.
     */
    public static List<Probe> mark(List<Probe> probes, double tau) {
        return probes.stream().map(p -> p.withConfident(p.ok() && answered(p) && p.u() <= tau + EPS)).toList();
    }

    private static boolean answered(Probe p) { return p.key() != null && !p.key().isBlank(); }

    /**
     * The branch for marked probes of {@code agents} agents at {@code scales} (DREAM Fig. 2; DESIGN.md §7):
     * empty confident set → StaticAll; disagreeing confident answers → ConflictMixRes; every readable probe
     * naming the confident answer → Consensus; agreeing and every agent that answered at all confident
     * somewhere → PerAgent (an agent that answered at no scale debates at 1x); otherwise MixRes. Consensus needs no probe beyond one to be confident: with τ = mean − α·std every
     * probe is confident only when all u are equal.
     */
    public static Branch decide(List<Probe> marked, int agents, List<Double> scales) {
        List<Probe> confident = marked.stream().filter(Probe::confident).toList();
        if (confident.isEmpty()) return new Branch.StaticAll();
        Map<String, Probe> byKey = new LinkedHashMap<>();
        for (Probe p : confident) byKey.putIfAbsent(p.key(), p);
        if (byKey.size() > 1) return new Branch.ConflictMixRes(scales);
        String agreed = confident.get(0).key();
        List<Probe> readable = marked.stream().filter(p -> p.ok() && answered(p)).toList();
        if (readable.stream().allMatch(p -> p.key().equals(agreed))) {
            Probe best = readable.stream().min(BY_U).orElseThrow();
            double meanU = readable.stream().mapToDouble(Probe::u).average().orElse(1);
            List<Double> own = new ArrayList<>();
            for (int i = 0; i < agents; i++) {
                final int agent = i;
                own.add(readable.stream().filter(p -> p.agentIndex() == agent).min(BY_U).map(Probe::scale).orElse(1.0));
            }
            return new Branch.Consensus(best.answer(), best.option(), meanU, own);
        }
        List<Double> best = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            final int agent = i;
            var mine = confident.stream().filter(p -> p.agentIndex() == agent).min(BY_U);
            if (readable.stream().noneMatch(p -> p.agentIndex() == agent)) {
                best.add(1.0); // no answer at any scale (e.g. NOT APPLICABLE): no evidence of a better scale
            } else if (mine.isEmpty()) {
                TreeSet<Double> s = new TreeSet<>();
                for (Probe p : confident) s.add(p.scale());
                return new Branch.MixRes(new ArrayList<>(s));
            } else {
                best.add(mine.get().scale());
            }
        }
        return new Branch.PerAgent(best);
    }

    /** Lowest u first, ties to the smaller scale. */
    private static final Comparator<Probe> BY_U = Comparator.comparingDouble(Probe::u).thenComparingDouble(Probe::scale);
}
