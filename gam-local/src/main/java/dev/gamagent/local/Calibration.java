package dev.gamagent.local;

import java.util.List;

/**
 * How the built-in model behaves under sampling and in a debate: the only place its low-level behaviour is
 * set (docs/local-model.md, "A fair testbed"). These values were chosen so that three low-level rates of the
 * model fall inside ranges measured on real models (below), on development data only (the demo set and dev
 * seeds 4242, 9090, 31337), before any fresh seed was drawn; never from any method's accuracy: β and every
 * perception value are the initial ones, α was set on seed 9090 and checked on 4242 and 31337. The role focus
 * (issue 39) was set the same way against a fourth measured behaviour, a persona's effect on a plain call's accuracy
 * (none on average: Zheng et al. 2024, arXiv 2311.10054; Basil et al. 2025, arXiv 2512.05858): the largest focus of
 * 1, 0.75 and 0.6 whose mean effect over the five expert roles, on dev seed 4242 and the held-out renderer's hard
 * dev set 23302, lies within ±3 points (about what a paired 95 % interval spans at those n) — 1 gave −4.4, 0.75 −1.5.
 * {@code bench/testbed.sh} measures the three rates on any data file and says whether each is inside its range;
 * {@code bench/fair-testbed.sh --roles} the personas' effect.
 *
 * <p>Cited ranges (docs/local-model.md gives the sources and how each range follows from them):
 * <ul>
 *   <li>{@link #SAMPLES_NOT_UNANIMOUS}: share of questions whose 10 samples at temperature 0.7 are not all the
 *       same answer, 0.20–0.50 (Pinhanez et al. 2025, arXiv 2509.09705: 2–8B models answer 50–80 % of
 *       MMLU-Redux and MedQA questions the same in all of 10 repetitions);</li>
 *   <li>{@link #RIGHT_TO_WRONG}: share of agents right in a debate's first answers whose peers were all wrong
 *       that give a wrong answer in the next round, 0.20–0.70 (Hao et al. 2026, arXiv 2606.00820: 20–39 %
 *       error adoption even from vacuous reasoning; Bertalanič and Fortuna 2026, arXiv 2605.00914: vulnerability
 *       of correct reasoning to peer rationales up to 70 %);</li>
 *   <li>{@link #WRONG_TO_RIGHT}: the reverse, agents wrong whose peers were all right, 0.44–0.86 (Fanous et al.
 *       2025, SycEval, arXiv 2502.08177: progressive sycophancy in 43.52 % of all rebuttals, a lower bound of the
 *       rate among initially wrong answers; Bertalanič and Fortuna 2026: majority answers adopted up to 85.5 %).</li>
 * </ul>
 *
 * @param roleFocus         the weight a role gives its own reader and segmentation (the rest goes to the other one): in
 *                          a greedy reading the mixture's weight, in a sampled look the chance of drawing its own; the
 *                          plain call (no role) gives each ½ (see {@link Expertise})
 * @param scaleSpread       standard deviation of the log of a sampled look's image scale (drawn on {@link #SCALES})
 * @param thresholdShift    chance that a sampled look's thresholds are shifted one step (either way)
 * @param peerTrust         exponent β on each peer's stated answer as evidence: p(o) ∝ p_own(o)·Π_j L_j(o)^β
 * @param selfTrust         exponent α on the agent's own previous stated answer (in its context, as a real model's
 *                          earlier turn is): how much successive answers of one agent hold together
 * @param relookWeight      weight of a second look against the first when peers disagree (the rest: the first look)
 */
public record Calibration(double roleFocus, double scaleSpread, double thresholdShift,
                          double peerTrust, double selfTrust, double relookWeight) {
    /**
     * The image scales a sampled look is drawn on (a grid, so perception stays cached per image and scale): never above
     * 1, since the model sees only the pixels it was sent (a smaller look loses detail; none gains any).
     */
    public static final List<Double> SCALES = List.of(0.85, 1.0);

    /** The cited ranges of the three low-level rates. */
    public static final Range SAMPLES_NOT_UNANIMOUS = new Range(0.20, 0.50);
    public static final Range RIGHT_TO_WRONG = new Range(0.20, 0.70);
    public static final Range WRONG_TO_RIGHT = new Range(0.44, 0.86);

    /** A cited range of a rate, both ends included. */
    public record Range(double low, double high) {
        public boolean contains(double rate) { return rate >= low && rate <= high; }
    }

    /** The model's behaviour (set on development data, see the class comment; parameters frozen for issue 39's measurement). */
    public static final Calibration DEFAULT = new Calibration(0.75, 0.12, 0.5, 0.5, 1.0, 0.5);

    public Calibration {
        for (double p : new double[]{roleFocus, thresholdShift, relookWeight}) {
            if (p < 0 || p > 1) throw new IllegalArgumentException("probabilities and weights must be in [0,1], got " + p);
        }
        if (scaleSpread < 0 || peerTrust < 0 || selfTrust < 0) throw new IllegalArgumentException("scaleSpread, peerTrust and selfTrust must be ≥ 0");
    }
}
