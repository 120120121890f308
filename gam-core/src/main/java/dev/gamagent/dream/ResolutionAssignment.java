package dev.gamagent.dream;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * DREAM's dynamic resolution assignment (DREAM §3.1; docs/design.md §7): the adaptive threshold over this
 * question's probes, the confident set, the branch it selects and whether the probes all agreed.
 */
final class ResolutionAssignment {
    private static final double EPS = 1e-12;

    private ResolutionAssignment() { }

    /**
     * Every readable probe named the same answer and at least one was confident (docs/design.md §7, our Consensus): the
     * probes' answer and the mean u of the readable probes. Whether it skips the debate is a setting.
     */
    public record Agreement(String answer, String option, double uncertainty) { }

    /** The probe round's decision: DREAM's branch, why it fired (for the trace), and the agreement when there was one (else null). */
    public record Routing(Branch branch, String reason, Agreement consensus) { }

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

    /** DREAM's branch for marked probes (see {@link #route}). */
    public static Branch decide(List<Probe> marked, int agents, List<Double> scales) { return route(marked, agents, scales).branch(); }

    /**
     * The branch for marked probes of {@code agents} agents at {@code scales} (DREAM Fig. 2; docs/design.md §7): empty
     * confident set → StaticAll; disagreeing confident answers → ConflictMixRes; agreeing, and every agent that answered
     * at all confident somewhere → PerAgent (an agent that answered at no scale debates at 1x); otherwise MixRes. Beside
     * it, the agreement: every readable probe names the confident answer (needs no probe beyond one to be confident: with
     * τ = mean − α·std every probe is confident only when all u are equal).
     */
    public static Routing route(List<Probe> marked, int agents, List<Double> scales) {
        List<Probe> confident = marked.stream().filter(Probe::confident).toList();
        if (confident.isEmpty()) return new Routing(new Branch.StaticAll(), "no probe was confident (u ≤ τ)", null);
        Map<String, Probe> byKey = new LinkedHashMap<>();
        for (Probe p : confident) byKey.putIfAbsent(p.key(), p);
        if (byKey.size() > 1) {
            StringBuilder why = new StringBuilder("confident probes disagree:");
            for (Probe p : byKey.values()) why.append(' ').append(describe(p)).append(';');
            return new Routing(new Branch.ConflictMixRes(scales), why.substring(0, why.length() - 1), null);
        }
        String agreed = confident.get(0).key();
        List<Probe> readable = marked.stream().filter(p -> p.ok() && answered(p)).toList();
        Agreement agreement = null;
        if (readable.stream().allMatch(p -> p.key().equals(agreed))) {
            Probe best = readable.stream().min(BY_U).orElseThrow();
            agreement = new Agreement(best.answer(), best.option(), readable.stream().mapToDouble(Probe::u).average().orElse(1));
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
                String who = readable.stream().filter(p -> p.agentIndex() == agent).findFirst().map(Probe::agent).orElse("agent " + (agent + 1));
                return new Routing(new Branch.MixRes(new ArrayList<>(s)), "confident probes agree on " + agreed + "; " + who
                        + " answered but was confident at no scale", agreement);
            } else {
                best.add(mine.get().scale());
            }
        }
        return new Routing(new Branch.PerAgent(best), "confident probes agree on " + agreed
                + "; every agent that answered has a confident scale", agreement);
    }

    private static String describe(Probe p) {
        return String.format(Locale.ROOT, "%s at %sx (%s, u %.3g)", p.key(), p.scale() == Math.rint(p.scale())
                ? Long.toString((long) p.scale()) : Double.toString(p.scale()), p.agent(), p.u());
    }

    /** Lowest u first, ties to the smaller scale. */
    private static final Comparator<Probe> BY_U = Comparator.comparingDouble(Probe::u).thenComparingDouble(Probe::scale);
}
