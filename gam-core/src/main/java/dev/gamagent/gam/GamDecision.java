package dev.gamagent.gam;

import dev.gamagent.api.Question;
import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.GameState;
import dev.gamagent.influence.Similarity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * GAM's decision over a round's experts (docs/design.md §5–6): which experts hold an opinion, the game over those that
 * answered, the weighted consensus and its confidence. The controller decides every round with it; DREAM's rollback
 * decides dream+gam with the same rule (GamMethod#decide).
 */
final class GamDecision {
    private final Question q;
    private final GamSettings s;
    private final Similarity similarity;
    private final List<String> letters;

    GamDecision(GamRun run) {
        this.q = run.q;
        this.s = run.s;
        this.similarity = run.similarity;
        this.letters = run.letters;
    }

    /** The game and the consensus over the experts of a round that answered. */
    RoundState evaluate(List<ExpertTurn> turns) {
        List<ExpertTurn> live = turns.stream().filter(ExpertTurn::answered).toList();
        int n = live.size();
        double[] u = new double[n];
        boolean[] opinion = new boolean[n];
        List<Consensus.Vote> votes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ExpertTurn t = live.get(i);
            u[i] = t.u().value();
            opinion[i] = t.noOpinion(q.isMultipleChoice()) == null;
            votes.add(new Consensus.Vote(t.option(), t.answer(), t.dist(), opinion[i]));
        }
        double[][] sim = q.isMultipleChoice()
                ? similarity.multipleChoice(live.stream().map(ExpertTurn::dist).toList())
                : similarity.open(live.stream().map(t -> t.answer() == null ? "" : t.answer()).toList());
        GameState g = GameState.compute(u, sim, s.game(), s.noDynamicWeights(), opinion);
        boolean agreed = Consensus.agreed(votes);
        return new RoundState(turns, live, g, verdict(q, votes, g.weights(), g.u(), g.sim(), opinion), agreed);
    }

    /** A final answer of the game: the answer, its option letter (multiple choice) and its confidence. */
    record Decision(String answer, String option, double confidence) { }

    /**
     * GAM's decision rule (docs/design.md §6, {@link Consensus}) over the experts' answers, option distributions, weights w,
     * uncertainties u and whether each holds an opinion (option letters for multiple choice); {@code sim} is the open answers' similarity matrix (unused
     * for multiple choice). DREAM's rollback decides dream+gam with this same rule (GamMethod#decide).
     */
    static Decision decide(Question q, List<String> options, List<String> answers, List<Map<String, Double>> dists,
                           double[] w, double[] u, double[][] sim, boolean[] opinion) {
        List<Consensus.Vote> votes = new ArrayList<>(w.length);
        for (int i = 0; i < w.length; i++) votes.add(new Consensus.Vote(options.get(i), answers.get(i), dists.get(i), opinion[i]));
        Consensus.Verdict v = verdict(q, votes, w, u, sim, opinion);
        return new Decision(v.answer(), v.option(), v.confidence());
    }

    /**
     * The weighted consensus of these votes: the option mixture for multiple choice, else the open answer with the most
     * weight and its confidence ({@code sim}: the open answers' similarity matrix, unused for multiple choice).
     */
    private static Consensus.Verdict verdict(Question q, List<Consensus.Vote> votes, double[] w, double[] u, double[][] sim, boolean[] opinion) {
        if (q.isMultipleChoice()) return Consensus.multipleChoice(votes, w, List.copyOf(q.options().keySet()), q.options());
        Consensus.Verdict v = Consensus.open(votes, w);
        double conf = v.index() < 0 ? 0 : openConfidence(w, u, sim[v.index()], opinion);
        return new Consensus.Verdict(null, v.answer(), conf, v.rule(), v.index());
    }

    /**
     * Open answers: p_i(answer) read as Sim(R_i, answer)·(1 − U_i) over the experts with an opinion, their weights
     * renormalised: confidence = Σ_i w_i·Sim·(1 − U_i) / Σ_i w_i (our reading of docs/design.md §6 where no option
     * distribution exists).
     */
    private static double openConfidence(double[] w, double[] u, double[] simToAnswer, boolean[] opinion) {
        double c = 0, mass = 0;
        for (int i = 0; i < w.length; i++) {
            if (!opinion[i]) continue;
            c += w[i] * simToAnswer[i] * (1 - u[i]);
            mass += w[i];
        }
        return mass <= 0 ? 0 : Math.max(0, Math.min(1, c / mass));
    }

    /** The confidence of an open answer (the judge's) over a round's experts. */
    double openConfidence(RoundState st, String answer) {
        double[] sim = new double[st.live().size()];
        boolean[] opinion = new boolean[sim.length];
        for (int i = 0; i < sim.length; i++) {
            ExpertTurn t = st.live().get(i);
            opinion[i] = t.noOpinion(false) == null;
            sim[i] = t.answer() == null ? 0 : similarity.open(t.answer(), answer);
        }
        return openConfidence(st.game().weights(), st.game().u(), sim, opinion);
    }
}
