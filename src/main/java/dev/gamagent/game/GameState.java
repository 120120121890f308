package dev.gamagent.game;

import java.util.Arrays;

/**
 * One controller decision's numbers for the agents that answered a round: their uncertainties U,
 * similarity matrix, scores s, weights w, U_sys and conflict C (DESIGN.md §4–5).
 */
public record GameState(double[] u, double[][] sim, double[] scores, double[] weights, double uSys, double conflict) {

    /**
     * Computes scores, weights, U_sys and C. {@code uniformWeights} is the "no dynamic weights" ablation:
     * w = 1/N regardless of the game.
     */
    public static GameState compute(double[] u, double[][] sim, InfluenceWeights game, boolean uniformWeights) {
        double[] s = game.scores(u, sim);
        double[] w;
        if (uniformWeights) {
            w = new double[u.length];
            Arrays.fill(w, 1.0 / Math.max(1, u.length));
        } else {
            w = InfluenceWeights.softmax(s, game.tau());
        }
        return new GameState(u, sim, s, w, SystemUncertainty.of(w, u), Conflict.of(w, sim));
    }
}
