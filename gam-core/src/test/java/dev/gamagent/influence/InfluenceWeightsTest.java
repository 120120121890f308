package dev.gamagent.influence;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class InfluenceWeightsTest {
    private final InfluenceWeights game = dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults());

    @Test void oneAgentTakesAllTheWeight() {
        double[] w = game.weights(new double[] {0.7}, new double[][] {{1}});
        assertThat(w).containsExactly(1.0);
    }

    @Test void identicalAgentsShareTheWeightEqually() {
        double[][] sim = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
        assertThat(game.weights(new double[] {0.3, 0.3, 0.3}, sim)).containsExactly(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-12));
    }

    @Test void scoresMatchTheHandWorkedExample() {
        // U = (0, 1), Sim = 1, N = 2: s1 = 1 + 0.5 − 0 = 1.5; s2 = 0 + 0.5 − 0.5·2·1 = −0.5; w1 = 1/(1+e^{−4})
        double[][] sim = {{1, 1}, {1, 1}};
        assertThat(game.scores(new double[] {0, 1}, sim)).containsExactly(new double[] {1.5, -0.5}, within(1e-12));
        double[] w = game.weights(new double[] {0, 1}, sim);
        assertThat(w[0]).isCloseTo(1 / (1 + Math.exp(-4)), within(1e-12));
    }

    @Test void allAgentsNotApplicableGetUniformWeights() {
        double[][] sim = {{1, 0.2, 0.2}, {0.2, 1, 0.2}, {0.2, 0.2, 1}};
        assertThat(game.weights(new double[] {1, 1, 1}, sim)).containsExactly(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-12));
    }

    @Test void tauZeroGivesAllWeightToTheBestAgentAndSharesTies() {
        assertThat(InfluenceWeights.softmax(new double[] {1, 3, 3}, 0)).containsExactly(0, 0.5, 0.5);
    }

    @Test void theSumOfPerAgentUtilitiesIsLinearInTheWeightsWithTheClosedFormScores() {
        Random r = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + r.nextInt(6);
            double[] u = randomU(r, n);
            double[][] sim = randomSim(r, n);
            double[] w = randomSimplex(r, n);
            double[] s = game.scores(u, sim);
            double lin = 0;
            for (int j = 0; j < n; j++) lin += w[j] * s[j];
            assertThat(game.totalUtility(w, u, sim)).isCloseTo(lin, within(1e-9));
        }
    }

    @Test void mirrorAscentOnTheSimplexFindsTheClosedFormWeights() {
        Random r = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            int n = 2 + r.nextInt(5);
            double tau = 0.1 + r.nextDouble();
            var g = new InfluenceWeights(r.nextDouble(), r.nextDouble(), tau);
            double[] u = randomU(r, n);
            double[][] sim = randomSim(r, n);
            double[] s = g.scores(u, sim);
            double[] closed = g.weights(u, sim);
            double[] w = mirrorAscent(s, tau);
            assertThat(w).containsExactly(closed, within(1e-6));
            // and no random point of the simplex does better
            double best = InfluenceWeights.objective(closed, s, tau);
            for (int p = 0; p < 200; p++) {
                assertThat(InfluenceWeights.objective(randomSimplex(r, n), s, tau)).isLessThanOrEqualTo(best + 1e-12);
            }
        }
    }

    @Test void weightsStayOnTheSimplexForRandomInputs() {
        Random r = new Random(3);
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + r.nextInt(6);
            var g = new InfluenceWeights(r.nextDouble() * 2, r.nextDouble() * 2, 0.05 + r.nextDouble());
            double[] w = g.weights(randomU(r, n), randomSim(r, n));
            double sum = 0;
            for (double x : w) {
                assertThat(x).isBetween(0.0, 1.0);
                sum += x;
            }
            assertThat(sum).isCloseTo(1.0, within(1e-9));
        }
    }

    @Test void weightsDoNotDependOnTheOrderOfAgents() {
        Random r = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + r.nextInt(5);
            double[] u = randomU(r, n);
            double[][] sim = randomSim(r, n);
            int[] perm = permutation(r, n);
            double[] pu = new double[n];
            double[][] psim = new double[n][n];
            for (int i = 0; i < n; i++) {
                pu[i] = u[perm[i]];
                for (int j = 0; j < n; j++) psim[i][j] = sim[perm[i]][perm[j]];
            }
            double[] w = game.weights(u, sim), pw = game.weights(pu, psim);
            for (int i = 0; i < n; i++) assertThat(pw[i]).isCloseTo(w[perm[i]], within(1e-12));
        }
    }

    @Test void anAgentLosesWeightWhenItsUncertaintyGrows() {
        Random r = new Random(9);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + r.nextInt(6);
            double[] u = randomU(r, n);
            double[][] sim = randomSim(r, n);
            int j = r.nextInt(n);
            double[] before = game.weights(u, sim);
            double[] u2 = u.clone();
            u2[j] = Math.min(1, u[j] + 0.01 + r.nextDouble() * (1 - u[j]));
            double[] after = game.weights(u2, sim);
            assertThat(after[j]).isLessThanOrEqualTo(before[j] + 1e-15);
            if (n > 1 && u2[j] > u[j]) assertThat(after[j]).isLessThan(before[j]);
        }
    }

    /** Exponentiated-gradient ascent on Σ w·s + τH(w): w ← w·exp(η·∇), renormalised. */
    static double[] mirrorAscent(double[] s, double tau) {
        int n = s.length;
        double[] w = new double[n];
        java.util.Arrays.fill(w, 1.0 / n);
        double eta = 0.25 / tau; // η·τ < 1: a genuine iteration, not the one-step fixed point
        for (int it = 0; it < 20000; it++) {
            double z = 0;
            double[] next = new double[n];
            for (int j = 0; j < n; j++) {
                double grad = s[j] - tau * (Math.log(w[j]) + 1);
                next[j] = w[j] * Math.exp(eta * grad);
                z += next[j];
            }
            double change = 0;
            for (int j = 0; j < n; j++) {
                next[j] /= z;
                change = Math.max(change, Math.abs(next[j] - w[j]));
            }
            w = next;
            if (change < 1e-14) break;
        }
        return w;
    }

    static double[] randomU(Random r, int n) {
        double[] u = new double[n];
        for (int i = 0; i < n; i++) u[i] = r.nextInt(10) == 0 ? 1.0 : r.nextDouble();
        return u;
    }

    static double[][] randomSim(Random r, int n) {
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            m[i][i] = 1;
            for (int j = i + 1; j < n; j++) m[i][j] = m[j][i] = r.nextDouble();
        }
        return m;
    }

    static double[] randomSimplex(Random r, int n) {
        double[] w = new double[n];
        double z = 0;
        for (int i = 0; i < n; i++) { w[i] = -Math.log(1 - r.nextDouble()); z += w[i]; }
        for (int i = 0; i < n; i++) w[i] /= z;
        return w;
    }

    static int[] permutation(Random r, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        for (int i = n - 1; i > 0; i--) { int k = r.nextInt(i + 1); int t = p[i]; p[i] = p[k]; p[k] = t; }
        return p;
    }
}
