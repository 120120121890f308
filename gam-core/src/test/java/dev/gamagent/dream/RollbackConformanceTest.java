package dev.gamagent.dream;

import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** URA (docs/design.md §7): restore r*'s answer iff u(final) > (1 + ρ)·u(r*) and the answer changed; then vote. */
class RollbackConformanceTest {
    private static Trace.AgentTurn turn(String id, String option, double u) {
        return new Trace.AgentTurn(id, "debater", 1.0, option, option, u, "logprobs-chosen", null, List.of(),
                TokenCount.ZERO, "ANSWER: " + option, "answer-line", null, null);
    }

    /** rounds[k][agent] = "A:0.2" (option:u). */
    private static List<Trace.Round> rounds(String[]... byRound) {
        List<Trace.Round> out = new ArrayList<>();
        for (int k = 0; k < byRound.length; k++) {
            List<Trace.AgentTurn> agents = new ArrayList<>();
            for (int i = 0; i < byRound[k].length; i++) {
                String[] ou = byRound[k][i].split(":");
                agents.add(turn("agent-" + (i + 1), ou[0], Double.parseDouble(ou[1])));
            }
            out.add(new Trace.Round(k, agents, List.of(), null, null, null));
        }
        return out;
    }

    @Test void theRescueNeedsTheFinalUncertaintyStrictlyAboveOnePlusRhoTimesTheBest() {
        // 0.3 = (1 + 0.5)·0.2 exactly: not above, so the final answer stays
        var atBoundary = RollbackAggregation.aggregate(rounds(new String[] {"A:0.2"}, new String[] {"B:0.3"}), 0.5);
        assertThat(atBoundary.rollbacks()).isEmpty();
        assertThat(atBoundary.verdict().option()).isEqualTo("B");
        var above = RollbackAggregation.aggregate(rounds(new String[] {"A:0.2"}, new String[] {"B:0.31"}), 0.5);
        assertThat(above.rollbacks()).singleElement().satisfies(r -> assertThat(r.restoredAnswer()).isEqualTo("A"));
        assertThat(above.verdict().option()).isEqualTo("A");
    }

    @Test void anUnchangedAnswerIsNeverRolledBackHoweverUncertainItBecame() {
        var o = RollbackAggregation.aggregate(rounds(new String[] {"A:0.1"}, new String[] {"A:0.9"}), 0.5);
        assertThat(o.rollbacks()).isEmpty();
    }

    @Test void rStarIsTheMostConfidentEarlierRoundAndOnlyItsAnswerIsRestored() {
        // round 1 (u 0.1) is r*; it agrees with the final, so round 0's different answer is not restored
        var o = RollbackAggregation.aggregate(rounds(new String[] {"C:0.3"}, new String[] {"B:0.1"}, new String[] {"B:0.9"}), 0.5);
        assertThat(o.rollbacks()).isEmpty();
        assertThat(o.verdict().option()).isEqualTo("B");
    }

    @Test void expertsThatDeclareThemselvesNotApplicableDoNotOutvoteAnExpertThatAnswered() {
        Trace.AgentTurn scene = turn("scene", "A", 0.01);
        Trace.AgentTurn ocr = new Trace.AgentTurn("ocr", "ocr", 1.0, "NOT APPLICABLE", null, 1.0, "fixed", null, List.of(),
                TokenCount.ZERO, "ANSWER: NOT APPLICABLE", "lines", null, null);
        Trace.AgentTurn relational = new Trace.AgentTurn("relational", "relational", 1.0, "NOT APPLICABLE", null, 1.0, "fixed", null,
                List.of(), TokenCount.ZERO, "ANSWER: NOT APPLICABLE", "lines", null, null);
        var o = RollbackAggregation.aggregate(List.of(new Trace.Round(0, List.of(scene, ocr, relational), List.of(), null, null, null)), 0.5);
        assertThat(o.verdict().option()).isEqualTo("A");
    }

    @Test void aTiedVoteGoesToTheAnswerWithTheLowerUncertainty() {
        var o = RollbackAggregation.aggregate(rounds(new String[] {"A:0.4", "B:0.2"}), 0.5);
        assertThat(o.verdict().option()).isEqualTo("B");
        var swapped = RollbackAggregation.aggregate(rounds(new String[] {"A:0.2", "B:0.4"}), 0.5);
        assertThat(swapped.verdict().option()).isEqualTo("A");
    }

    @Test void theMajorityAfterRollbackDecides() {
        // agents 1 and 2 drifted to B under pressure; both are rescued to A, which then outvotes agent 3's B
        var o = RollbackAggregation.aggregate(rounds(
                new String[] {"A:0.1", "A:0.1", "B:0.2"},
                new String[] {"B:0.5", "B:0.5", "B:0.2"}), 0.5);
        assertThat(o.rollbacks()).extracting(RollbackAggregation.Rollback::agent).containsExactly("agent-1", "agent-2");
        assertThat(o.verdict().option()).isEqualTo("A");
    }

    @Test void aOneRoundTraceHasNothingToRollBack() {
        var o = RollbackAggregation.aggregate(rounds(new String[] {"A:0.9"}), 0.5);
        assertThat(o.rollbacks()).isEmpty();
        assertThat(o.verdict().option()).isEqualTo("A");
    }

    @Test void agentsWhoseReplyNamedNoOptionDoNotOutvoteThoseThatDid() {
        Trace.AgentTurn refusal = new Trace.AgentTurn("agent-2", "debater", 1.0, "I'm sorry, I can't help", null, 0.1,
                "logprobs-chosen", null, List.of(), TokenCount.ZERO, "I'm sorry, I can't help", "unmatched", null, null);
        Trace.AgentTurn refusal3 = new Trace.AgentTurn("agent-3", "debater", 1.0, "I'm sorry, I can't help", null, 0.1,
                "logprobs-chosen", null, List.of(), TokenCount.ZERO, "I'm sorry, I can't help", "unmatched", null, null);
        var round = new Trace.Round(0, List.of(turn("agent-1", "B", 0.4), refusal, refusal3), List.of(), null, null, null);
        assertThat(RollbackAggregation.aggregate(List.of(round), 0.5).verdict().option()).isEqualTo("B");
    }

    @Test void aConfidentRefusalInAnEarlierRoundIsNeverRestored() {
        // round 0 (since issue 26 often an agent's own probe reply): a near-certain refusal; round 1: B, less sure
        Trace.AgentTurn refusal = new Trace.AgentTurn("agent-1", "debater", 1.0, "I'm sorry, I can't help", null, 0.01,
                "logprobs-chosen", null, List.of(), TokenCount.ZERO, "I'm sorry, I can't help", "unmatched", null, null);
        var r0 = new Trace.Round(0, List.of(refusal, turn("agent-2", "B", 0.2)), List.of(), null, null, null);
        var r1 = new Trace.Round(1, List.of(turn("agent-1", "B", 0.2), turn("agent-2", "B", 0.2)), List.of(), null, null, null);
        var out = RollbackAggregation.aggregate(List.of(r0, r1), 0.5);
        assertThat(out.rollbacks()).isEmpty();
        assertThat(out.verdict().option()).isEqualTo("B");
    }
}
