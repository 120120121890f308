package dev.gamagent.influence;

import dev.gamagent.api.Termination;

/**
 * The controller's trigger and stopping rule (GAM-Agent §3.5.1, Eq. 5; docs/design.md §6): debate iff
 * U_sys > θ_U or C > θ_C; after round k stop on {@code U_sys < θ_term} (uncertainty), {@code |ΔU_sys| < ε} (stagnation),
 * k = K_max (max_rounds), or the token budget spent (budget; 0 = no budget), checked in that order. The values come
 * from the {@code gam} config section ({@code GamSettings.stopping}; the defaults in defaults.json).
 */
public record StoppingRule(double thetaU, double thetaC, double thetaTerm, double epsilon, int maxRounds, long tokenBudget) {
    public StoppingRule {
        if (maxRounds < 0) throw new IllegalArgumentException("gam.max_rounds must be ≥ 0, got " + maxRounds);
    }

    /** Whether round 0 calls for a debate. */
    public boolean triggers(double uSys, double conflict) { return uSys > thetaU || conflict > thetaC; }

    /** Whether the token budget is spent. */
    public boolean budgetSpent(long tokensUsed) { return tokenBudget > 0 && tokensUsed >= tokenBudget; }

    /** The reason to stop after round {@code k} ≥ 1, or null to go on. */
    public Termination after(int k, double uSys, double previousUSys, long tokensUsed) {
        if (uSys < thetaTerm) return Termination.UNCERTAINTY;
        if (Math.abs(uSys - previousUSys) < epsilon) return Termination.STAGNATION;
        if (k >= maxRounds) return Termination.MAX_ROUNDS;
        if (budgetSpent(tokensUsed)) return Termination.BUDGET;
        return null;
    }
}
