package dev.gamagent.influence;

import dev.gamagent.api.Termination;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The shared trigger/stop rule and consensus (docs/design.md §6), on hand-made rounds. */
class DebateRuleAndConsensusTest {
    /** A standing; its experts' chosen answers agree when its name starts with "agree". */
    record R(double uSys, double conflict, boolean answered, String name) implements DebateRule.Standing {
        @Override public boolean agreed() { return name.startsWith("agree"); }
    }

    /** Rounds from a list (index k), each costing {@code perRound} tokens; round 0 costs {@code perRound} too. */
    static final class Listed implements DebateRule.Rounds<R> {
        final List<R> rounds;
        final long perRound;
        long used;
        final List<String> settled = new ArrayList<>();

        Listed(long perRound, R... rounds) {
            this.rounds = List.of(rounds);
            this.perRound = perRound;
            this.used = perRound;
        }

        @Override public R play(int k, R current) {
            if (k >= rounds.size()) return null;
            used += perRound;
            return rounds.get(k);
        }

        @Override public R carry(R previous, R failed) { return previous; }

        @Override public long tokensUsed() { return used; }

        @Override public void settled(int k, R s, DebateRule.Stop stop) { settled.add(k + ":" + s.name() + ":" + stop.unforcedReason()); }
    }

    static R r(String name, double u, double c) { return new R(u, c, true, name); }

    static StoppingRule stop(int kMax, long budget) { return new StoppingRule(0.5, 0.6, 0.15, 0.01, kMax, budget); }

    @Test void kMaxZeroIsNoDebateAndPlaysNoRoundEvenWhenTriggered() {
        Listed rounds = new Listed(10, r("r0", 0.9, 0), r("r1", 0.1, 0));
        var out = DebateRule.of(stop(0, 0)).run(rounds.rounds.get(0), rounds);
        assertThat(out.triggered()).isTrue();
        assertThat(out.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(out.rounds()).isZero();
        assertThat(rounds.used).isEqualTo(10);
    }

    @Test void aBudgetSpentByRoundZeroEndsBeforeTheDebateAndOneSpentLaterEndsAfterItsRound() {
        Listed atStart = new Listed(10, r("r0", 0.9, 0), r("r1", 0.8, 0));
        var none = DebateRule.of(stop(3, 10)).run(atStart.rounds.get(0), atStart);
        assertThat(none.termination()).isEqualTo(Termination.BUDGET);
        assertThat(none.rounds()).isZero();
        Listed later = new Listed(10, r("r0", 0.9, 0), r("r1", 0.8, 0), r("r2", 0.7, 0), r("r3", 0.6, 0));
        var two = DebateRule.of(stop(3, 25)).run(later.rounds.get(0), later);
        assertThat(two.termination()).isEqualTo(Termination.BUDGET);
        assertThat(two.rounds()).isEqualTo(2);
        assertThat(two.last().name()).isEqualTo("r2");
    }

    @Test void aRoundInWhichEveryoneFailedCarriesThePreviousStandingAndReadsAsStagnation() {
        Listed rounds = new Listed(1, r("r0", 0.9, 0), r("r1", 0.6, 0), new R(0, 0, false, "failed"));
        var out = DebateRule.of(stop(3, 0)).run(rounds.rounds.get(0), rounds);
        assertThat(out.termination()).isEqualTo(Termination.STAGNATION);
        assertThat(out.rounds()).isEqualTo(2);
        assertThat(out.last().name()).isEqualTo("r1");
        assertThat(rounds.settled).containsExactly("1:r1:null", "2:r1:stagnation");
    }

    @Test void fixedRoundsKeepsTheTriggerAndRunsToKMax() {
        Listed calm = new Listed(1, r("r0", 0.1, 0.1), r("r1", 0.1, 0));
        var c = new DebateRule(stop(2, 0), false, true, false, false).run(calm.rounds.get(0), calm);
        assertThat(c.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(c.rounds()).isZero();
        Listed hot = new Listed(1, r("r0", 0.9, 0), r("r1", 0.05, 0), r("r2", 0.05, 0));
        var h = new DebateRule(stop(2, 0), false, true, false, false).run(hot.rounds.get(0), hot);
        assertThat(h.termination()).isEqualTo(Termination.FIXED_ROUNDS);
        assertThat(h.rounds()).isEqualTo(2);
        // recording runs an untriggered question too, and notes what the default rule would have done
        Listed rec = new Listed(1, r("r0", 0.1, 0.1), r("r1", 0.1, 0), r("r2", 0.1, 0));
        var f = new DebateRule(stop(2, 0), false, false, true, false).run(rec.rounds.get(0), rec);
        assertThat(f.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(rec.settled).containsExactly("1:r1:uncertainty", "2:r2:uncertainty");
    }

    @Test void withoutUncertaintyOnlyConflictTriggersAndTheDebateEndsOnAgreementOrKMax() {
        DebateRule blind = new DebateRule(stop(3, 0), false, false, false, true);
        // U_sys above θ_U carries no information: no trigger on it
        assertThat(blind.triggers(r("r0", 0.9, 0.1))).isFalse();
        assertThat(blind.trigger(r("r0", 0.9, 0.7)).startedBy()).isEqualTo("conflict");
        // ΔU_sys = 0 and U_sys < θ_term do not stop it; agreement does
        Listed rounds = new Listed(1, r("r0", 0.5, 0.9), r("r1", 0.5, 0.9), r("r2", 0.1, 0.5), r("agree3", 0.5, 0));
        var out = blind.run(rounds.rounds.get(0), rounds);
        assertThat(out.termination()).isEqualTo(Termination.AGREEMENT);
        assertThat(out.rounds()).isEqualTo(3);
        assertThat(rounds.settled).containsExactly("1:r1:null", "2:r2:null", "3:agree3:agreement");
        Listed never = new Listed(1, r("r0", 0.5, 0.9), r("r1", 0.5, 0.9), r("r2", 0.5, 0.9));
        var capped = new DebateRule(stop(2, 0), false, false, false, true).run(never.rounds.get(0), never);
        assertThat(capped.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(capped.rounds()).isEqualTo(2);
    }

    @Test void aRecordedDebateThatEndsEarlyIsIncomplete() {
        Listed rounds = new Listed(1, r("r0", 0.9, 0), r("r1", 0.6, 0));
        var out = DebateRule.of(stop(3, 0)).run(rounds.rounds.get(0), rounds);
        assertThat(out.complete()).isFalse();
        assertThat(out.rounds()).isEqualTo(1);
        assertThat(out.last().name()).isEqualTo("r1");
    }

    // ---- consensus ----

    static final List<String> ABCD = List.of("A", "B", "C", "D");
    static final Map<String, String> TEXT = Map.of("A", "melon", "B", "grape", "C", "fig", "D", "berry");

    static Map<String, Double> d(double a, double b, double c, double dd) { return Map.of("A", a, "B", b, "C", c, "D", dd); }

    @Test void theMixtureDecidesAmongTheChosenOptions() {
        // the mixture's mass is on A, but nobody chose A: among B and C, B has more mass
        var v = Consensus.multipleChoice(List.of(new Consensus.Vote("B", "grape", d(0.45, 0.45, 0.05, 0.05), true),
                new Consensus.Vote("C", "fig", d(0.45, 0.05, 0.4, 0.1), true)), new double[] {0.5, 0.5}, ABCD, TEXT);
        assertThat(v.option()).isEqualTo("B");
        assertThat(v.answer()).isEqualTo("grape");
        assertThat(v.rule()).isEqualTo(Consensus.Rule.MIXTURE);
        assertThat(v.confidence()).isCloseTo(0.25, within(1e-12));
    }

    @Test void opinionlessVotesAndTheirWeightStayOutAndTiesGoToTheWeightedChoices() {
        var uniform = d(0.25, 0.25, 0.25, 0.25);
        var v = Consensus.multipleChoice(List.of(new Consensus.Vote("D", "berry", uniform, true),
                new Consensus.Vote(null, null, uniform, false), new Consensus.Vote("C", "fig", uniform, true)),
                new double[] {0.45, 0.01, 0.54}, ABCD, TEXT);
        assertThat(v.option()).isEqualTo("C");
        assertThat(v.rule()).isEqualTo(Consensus.Rule.CHOICES);
        assertThat(v.confidence()).isCloseTo(0.25, within(1e-12));
        var none = Consensus.multipleChoice(List.of(new Consensus.Vote(null, null, uniform, false)), new double[] {1}, ABCD, TEXT);
        assertThat(none.option()).isNull();
        assertThat(none.rule()).isEqualTo(Consensus.Rule.NONE);
    }

    @Test void openAnswersGoToTheHeaviestExpertWithAnOpinion() {
        var v = Consensus.open(List.of(new Consensus.Vote(null, "NOT APPLICABLE", null, false), new Consensus.Vote(null, "OPEN", null, true),
                new Consensus.Vote(null, "SHOP", null, true)), new double[] {0.6, 0.3, 0.1});
        assertThat(v.answer()).isEqualTo("OPEN");
        assertThat(v.index()).isEqualTo(1);
    }

    @Test void equalUncertaintiesGiveExactlyThatSystemUncertainty() {
        double[] w = InfluenceWeights.softmax(new double[] {0.3, 1.7, -0.2, 0.9, 0.11}, 0.5);
        assertThat(SystemUncertainty.of(w, new double[] {0.5, 0.5, 0.5, 0.5, 0.5})).isEqualTo(0.5);
    }

    @Test void anOpinionlessAgentIsOutOfSimilarityAndConflictButKeepsTheSmallestWeight() {
        double[] u = {0.1, 1.0, 0.1};
        double[][] sim = {{1, 0.35, 0.2}, {0.35, 1, 0.35}, {0.2, 0.35, 1}};
        GameState g = GameState.compute(u, sim, dev.gamagent.gam.GamSettings.game(dev.gamagent.config.Config.defaults()), false, new boolean[] {true, false, true});
        assertThat(g.sim()[0][1]).isZero();
        assertThat(g.conflict()).isCloseTo(0.8, within(1e-12)); // only the pair (0, 2): 1 − 0.2
        assertThat(g.weights()[1]).isLessThan(g.weights()[0]);
        assertThat(g.uSys()).isCloseTo(0.1 * (g.weights()[0] + g.weights()[2]) + g.weights()[1], within(1e-12));
    }
}
