package dev.gamagent.influence;

import dev.gamagent.api.Termination;

/**
 * Trigger and stop of a GAM debate (GAM-Agent §3.5; docs/design.md §6): the one implementation that the
 * controller runs live and {@code gam sweep} re-runs over recorded rounds. Debate iff U_sys > θ_U or C > θ_C
 * after round 0 (and K_max > 0, and the budget is not spent); after round k the {@link StoppingRule} decides.
 * A round in which no expert answered keeps the previous standing, which the rule reads as stagnation.
 *
 * @param noDebate      ablation: never debate
 * @param fixedRounds   ablation: the trigger stays, the adaptive stop is replaced by K_max ({@code fixed_rounds})
 * @param recordFull    run every question to K_max whatever the trigger (for {@code gam sweep}); ends {@code max_rounds}
 * @param noUncertainty ablation: every expert has the same U, so U_sys carries no information. The trigger reads C
 *                      alone and the stops that read U_sys (θ_term, ε) do not act: the debate ends when the experts'
 *                      chosen answers agree ({@code agreement}), at K_max or when the budget is spent (docs/design.md §6;
 *                      the paper reports longer debates without uncertainty, not none)
 */
public record DebateRule(StoppingRule stopping, boolean noDebate, boolean fixedRounds, boolean recordFull, boolean noUncertainty) {

    /** The rule with the thresholds alone (no ablation, no recording). */
    public static DebateRule of(StoppingRule stopping) { return new DebateRule(stopping, false, false, false, false); }

    /** What the rule reads of a round's standing. */
    public interface Standing {
        double uSys();

        double conflict();

        /** False when every expert failed in this round; the previous standing then carries on. */
        boolean answered();

        /** Whether every expert with an opinion chose the same answer ({@link Consensus#agreed}). */
        boolean agreed();
    }

    /** Where rounds come from: the controller plays them, the sweep reads recorded ones. */
    public interface Rounds<S extends Standing> {
        /** Round k ≥ 1 after {@code current}, or null when it cannot be had (a recorded debate that ended earlier). */
        S play(int k, S current);

        /** The previous standing kept for round k, whose experts all failed ({@code failed}). */
        S carry(S previous, S failed);

        /** Prompt + completion tokens spent so far. */
        long tokensUsed();

        /** Called once per played round with the check that followed it (values, thresholds, reason), e.g. for the trace. */
        default void settled(int k, S standing, Stop stop) { }
    }

    /**
     * What round 0 read, beside the thresholds it was compared with: U_sys against θ_U (not read under the
     * "no uncertainty" ablation) and C against θ_C. Strict: equal is no debate.
     */
    public record Trigger(double uSys, double thetaU, boolean byUncertainty, double conflict, double thetaC, boolean byConflict,
                          boolean readsUncertainty) {
        public boolean fired() { return byUncertainty || byConflict; }

        /** {@code uncertainty}, {@code conflict}, {@code uncertainty+conflict}, or null when nothing crossed its threshold. */
        public String startedBy() {
            return byUncertainty && byConflict ? "uncertainty+conflict" : byUncertainty ? "uncertainty" : byConflict ? "conflict" : null;
        }
    }

    /**
     * The check after round k ≥ 1: the values and the thresholds they met, {@code reason} the rule's decision (null: go on)
     * and {@code unforcedReason} what it would decide were the debate not forced to K_max ({@code forcedBy}:
     * {@code fixed_rounds}, {@code record_full}, or null).
     */
    public record Stop(int k, double uSys, double previousUSys, double thetaTerm, double epsilon, int maxRounds, long tokens,
                       long tokenBudget, boolean agreed, boolean readsUncertainty, Termination reason, Termination unforcedReason,
                       String forcedBy) {
        public double deltaUSys() { return Math.abs(uSys - previousUSys); }
    }

    /**
     * The end of one question's game.
     *
     * @param last      the standing that decides the answer
     * @param rounds    debate rounds run
     * @param triggered whether round 0 called for a debate (U_sys > θ_U or C > θ_C)
     * @param complete  false when {@link Rounds#play} had no further round to give
     */
    public record Outcome<S>(S last, Termination termination, int rounds, boolean triggered, boolean complete) { }

    /** What round 0 read and whether it calls for a debate. */
    public Trigger trigger(Standing round0) {
        double u = round0.uSys(), c = round0.conflict();
        return new Trigger(u, stopping.thetaU(), !noUncertainty && u > stopping.thetaU(), c, stopping.thetaC(), c > stopping.thetaC(),
                !noUncertainty);
    }

    /** Whether round 0 calls for a debate. */
    public boolean triggers(Standing round0) { return trigger(round0).fired(); }

    /** The adaptive stop after round k, as the run's own rule decides it when nothing forces K_max. */
    private Termination unforcedStop(int k, Standing next, Standing previous, long tokens) {
        if (!noUncertainty) return stopping.after(k, next.uSys(), previous.uSys(), tokens);
        if (next.agreed()) return Termination.AGREEMENT;
        if (k >= stopping.maxRounds()) return Termination.MAX_ROUNDS;
        if (stopping.budgetSpent(tokens)) return Termination.BUDGET;
        return null;
    }

    /** Runs the game from round 0. */
    public <S extends Standing> Outcome<S> run(S round0, Rounds<S> rounds) {
        boolean trigger = triggers(round0);
        boolean forced = fixedRounds || recordFull;
        String forcedBy = recordFull ? "record_full" : fixedRounds ? "fixed_rounds" : null;
        boolean debate = !noDebate && (trigger || recordFull) && stopping.maxRounds() > 0;
        if (debate && stopping.budgetSpent(rounds.tokensUsed())) return new Outcome<>(round0, Termination.BUDGET, 0, trigger, true);
        S state = round0;
        int ran = 0;
        for (int k = 1; debate && k <= stopping.maxRounds(); k++) {
            S played = rounds.play(k, state);
            if (played == null) return new Outcome<>(state, Termination.CONSENSUS, ran, trigger, false);
            S next = played.answered() ? played : rounds.carry(state, played);
            ran = k;
            long tokens = rounds.tokensUsed();
            Termination unforced = unforcedStop(k, next, state, tokens);
            Termination reason = unforced;
            if (forced) {
                reason = stopping.budgetSpent(tokens) ? Termination.BUDGET
                        : k >= stopping.maxRounds() ? (recordFull ? Termination.MAX_ROUNDS : Termination.FIXED_ROUNDS) : null;
            }
            rounds.settled(k, next, new Stop(k, next.uSys(), state.uSys(), stopping.thetaTerm(), stopping.epsilon(), stopping.maxRounds(),
                    tokens, stopping.tokenBudget(), next.agreed(), !noUncertainty, reason, unforced, forcedBy));
            state = next;
            if (reason != null) return new Outcome<>(state, reason, ran, trigger, true);
        }
        return new Outcome<>(state, Termination.CONSENSUS, ran, trigger, true);
    }
}
