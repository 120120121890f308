package dev.gamagent.dream;

import dev.gamagent.api.TokenCount;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class ResolutionAssignmentTest {
    static final List<Double> SCALES = List.of(0.5, 1.0, 2.0);

    static Probe p(int agent, double scale, String key, double u) {
        return new Probe("agent-" + (agent + 1), agent, scale, 0, 0, key, key, key, u, "logprobs-chosen", false, TokenCount.ZERO, null);
    }

    static Branch decide(List<Probe> probes) {
        double tau = ResolutionAssignment.adaptiveThreshold(probes, 0.5);
        return ResolutionAssignment.decide(ResolutionAssignment.mark(probes, tau), 2, SCALES);
    }

    @Test
    void theAdaptiveThresholdIsMeanMinusAlphaTimesThePopulationStd() {
        var probes = List.of(p(0, 1, "A", 0.1), p(0, 2, "A", 0.3), p(1, 1, "A", 0.5));
        double std = Math.sqrt((0.04 + 0 + 0.04) / 3);
        assertThat(ResolutionAssignment.adaptiveThreshold(probes, 0.5)).isCloseTo(0.3 - 0.5 * std, offset(1e-12));
        var failed = new Probe("agent-1", 0, 1, 0, 0, null, null, "", 1.0, "fixed", false, TokenCount.ZERO, "timeout");
        assertThat(ResolutionAssignment.adaptiveThreshold(List.of(failed), 0.5)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(ResolutionAssignment.mark(List.of(failed), 0.9).get(0).confident()).isFalse();
    }

    @Test
    void eachBranchFiresOnTheProbeOutcomeTheDecisionTreeNames() {
        // nothing at or below τ: impossible with the adaptive τ unless every probe failed, so use a static τ
        var none = ResolutionAssignment.mark(List.of(p(0, 1, "A", 0.5), p(1, 1, "A", 0.6)), 0.2);
        assertThat(ResolutionAssignment.decide(none, 2, SCALES)).isInstanceOf(Branch.StaticAll.class);
        assertThat(decide(List.of(p(0, 0.5, "A", 0.1), p(0, 2, "A", 0.9), p(1, 1, "A", 0.1), p(1, 2, "B", 0.9))))
                .isEqualTo(new Branch.PerAgent(List.of(0.5, 1.0)));
        assertThat(decide(List.of(p(0, 0.5, "A", 0.1), p(0, 2, "A", 0.1), p(1, 1, "B", 0.9), p(1, 2, "B", 0.9))))
                .isEqualTo(new Branch.MixRes(List.of(0.5, 2.0)));
        assertThat(decide(List.of(p(0, 0.5, "A", 0.1), p(0, 2, "C", 0.9), p(1, 1, "B", 0.1), p(1, 2, "C", 0.9))))
                .isInstanceOf(Branch.ConflictMixRes.class);
        assertThat(decide(List.of(p(0, 0.5, "A", 0.2), p(1, 1, "A", 0.2)))).isInstanceOf(Branch.Consensus.class);
    }

    @Test
    void branchesAssignScalesPerAgentAndExplainThemselvesInTheNote() {
        assertThat(new Branch.StaticAll().assignment(2)).containsExactly(List.of(1.0), List.of(1.0));
        assertThat(new Branch.PerAgent(List.of(2.0, 0.5)).assignment(3)).containsExactly(List.of(2.0), List.of(0.5), List.of(0.5));
        assertThat(new Branch.MixRes(List.of(0.5, 2.0)).assignment(1)).containsExactly(List.of(0.5, 2.0));
        assertThat(new Branch.ConflictMixRes(SCALES, List.of("A", "B")).note()).contains("disagreed (A vs B)", "0.5x, 1x, 2x");
        assertThat(new Branch.PerAgent(List.of(1.0)).note()).isEmpty();
    }
}
