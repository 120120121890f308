package dev.gamagent.influence;

import java.util.Arrays;

/**
 * One controller decision's numbers for the agents that answered a round: their uncertainties U,
 * similarity matrix, scores s, weights w, U_sys and conflict C (docs/design.md §4–5).
 */
public record GameState(double[] u, double[][] sim, double[] scores, double[] weights, double uSys, double conflict) {

    /**
     * Computes scores, weights, U_sys and C. {@code uniformWeights} is the "no dynamic weights" ablation:
     * w = 1/N regardless of the game.
     */
    public static GameState compute(double[] u, double[][] sim, InfluenceWeights game, boolean uniformWeights) {
        boolean[] all = new boolean[u.length];
        Arrays.fill(all, true);
        return compute(u, sim, game, uniformWeights, all);
    }

    /**
     * As {@link #compute(double[], double[][], InfluenceWeights, boolean)}, for a round in which some agents hold no
     * opinion ({@code opinion[i]} false: not applicable, unreadable). They are left out of Sim (their pairs count 0,
     * so they gain no collaboration reward) and out of C; they keep a weight, the smallest, and their U counts in
     * U_sys (docs/design.md §5).
     */
    public static GameState compute(double[] u, double[][] sim, InfluenceWeights game, boolean uniformWeights, boolean[] opinion) {
        int n = u.length;
        double[][] held = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) held[i][j] = i == j ? 1 : opinion[i] && opinion[j] ? sim[i][j] : 0;
        }
        double[] s = game.scores(u, held);
        double[] w;
        if (uniformWeights) {
            w = new double[n];
            Arrays.fill(w, 1.0 / Math.max(1, n));
        } else {
            w = InfluenceWeights.softmax(s, game.tau());
        }
        return new GameState(u, held, s, w, SystemUncertainty.of(w, u), Conflict.of(w, held, opinion));
    }
}
