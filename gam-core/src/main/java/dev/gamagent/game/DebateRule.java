package dev.gamagent.game;

import dev.gamagent.api.Termination;

/**
 * Trigger and stop of a GAM debate (GAM-Agent §3.5; DESIGN.md §6): the one implementation that the
 * controller runs live and {@code gam sweep} re-runs over recorded rounds. Debate iff U_sys > θ_U or C > θ_C
 * after round 0 (and K_max > 0, and the budget is not spent); after round k the {@link StoppingRule} decides.
 * A round in which no expert answered keeps the previous standing, which the rule reads as stagnation.
 *
 * @param noDebate    ablation: never debate
 * @param fixedRounds ablation: the trigger stays, the adaptive stop is replaced by K_max ({@code fixed_rounds})
 * @param recordFull  run every question to K_max whatever the trigger (for {@code gam sweep}); ends {@code max_rounds}
 */
public record DebateRule(StoppingRule stopping, boolean noDebate, boolean fixedRounds, boolean recordFull) {

    /** The rule with the thresholds alone (no ablation, no recording). */
    public static DebateRule of(StoppingRule stopping) { return new DebateRule(stopping, false, false, false); }

    /** What the rule reads of a round's standing. */
    public interface Standing {
        double uSys();

        double conflict();

        /** False when every expert failed in this round; the previous standing then carries on. */
        boolean answered();
    }

    /** Where rounds come from: the controller plays them, the sweep reads recorded ones. */
    public interface Rounds<S extends Standing> {
        /** Round k ≥ 1 after {@code current}, or null when it cannot be had (a recorded debate that ended earlier). */
        S play(int k, S current);

        /** The previous standing kept for round k, whose experts all failed ({@code failed}). */
        S carry(S previous, S failed);

        /** Prompt + completion tokens spent so far. */
        long tokensUsed();

        /** Called once per played round with what the default rule says after it (null: go on), e.g. for the trace. */
        default void settled(int k, S standing, Termination defaultReason) { }
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

    /** Whether round 0 calls for a debate. */
    public boolean triggers(Standing round0) { return stopping.triggers(round0.uSys(), round0.conflict()); }

    /** Runs the game from round 0. */
    public <S extends Standing> Outcome<S> run(S round0, Rounds<S> rounds) {
        boolean trigger = triggers(round0);
        boolean forced = fixedRounds || recordFull;
        boolean debate = !noDebate && (trigger || recordFull) && stopping.maxRounds() > 0;
        Termination termination = Termination.CONSENSUS;
        if (debate && stopping.budgetSpent(rounds.tokensUsed())) return new Outcome<>(round0, Termination.BUDGET, 0, trigger, true);
        S state = round0;
        int ran = 0;
        for (int k = 1; debate && k <= stopping.maxRounds(); k++) {
            S played = rounds.play(k, state);
            if (played == null) return new Outcome<>(state, termination, ran, trigger, false);
            S next = played.answered() ? played : rounds.carry(state, played);
            ran = k;
            Termination reason = stopping.after(k, next.uSys(), state.uSys(), rounds.tokensUsed());
            rounds.settled(k, next, reason);
            state = next;
            if (forced) {
                if (stopping.budgetSpent(rounds.tokensUsed())) return new Outcome<>(state, Termination.BUDGET, ran, trigger, true);
                termination = recordFull ? Termination.MAX_ROUNDS : Termination.FIXED_ROUNDS;
            } else if (reason != null) {
                return new Outcome<>(state, reason, ran, trigger, true);
            }
        }
        return new Outcome<>(state, termination, ran, trigger, true);
    }
}
