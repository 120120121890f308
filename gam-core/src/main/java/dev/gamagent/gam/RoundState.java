package dev.gamagent.gam;

import dev.gamagent.influence.Consensus;
import dev.gamagent.influence.DebateRule;
import dev.gamagent.influence.GameState;

import java.util.List;

/** A round's state over the experts that answered: the game, the weighted consensus and whether the choices agree. */
record RoundState(List<ExpertTurn> turns, List<ExpertTurn> live, GameState game, Consensus.Verdict verdict, boolean agreed) implements DebateRule.Standing {
    double weightOf(ExpertTurn t) {
        int i = live.indexOf(t);
        return i < 0 ? 0 : game.weights()[i];
    }

    String answer() { return verdict.answer(); }

    String option() { return verdict.option(); }

    double confidence() { return verdict.confidence(); }

    @Override public double uSys() { return game.uSys(); }

    @Override public double conflict() { return game.conflict(); }

    @Override public boolean answered() { return turns.stream().anyMatch(ExpertTurn::answered); }

    @Override public boolean agreed() { return agreed; }
}
