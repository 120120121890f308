package dev.gamagent.dream;

import dev.gamagent.backend.TokenCount;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class ResolutionAssignmentTest {
    static final List<Double> SCALES = List.of(0.5, 1.0, 2.0);

    static Probe p(int agent, double scale, String key, double u) {
        return new Probe("agent-" + (agent + 1), agent, "assistant", "scripted", scale, 0, 0, key, key, key, u, "logprobs-chosen", false,
                TokenCount.ZERO, null);
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
        var failed = new Probe("agent-1", 0, "assistant", "scripted", 1, 0, 0, null, null, "", 1.0, "fixed", false, TokenCount.ZERO, "timeout");
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
        // every probe agreeing is not a fifth branch (DREAM's Fig. 4 has four): it is recorded beside the branch
        var agree = ResolutionAssignment.mark(List.of(p(0, 0.5, "A", 0.2), p(1, 1, "A", 0.2)), 0.2);
        var routing = ResolutionAssignment.route(agree, 2, SCALES);
        assertThat(routing.branch()).isEqualTo(new Branch.PerAgent(List.of(0.5, 1.0)));
        assertThat(routing.consensus()).isEqualTo(new ResolutionAssignment.Agreement("A", "A", 0.2));
        assertThat(ResolutionAssignment.route(none, 2, SCALES).consensus()).isNull();
    }

    @Test
    void branchesAssignScalesPerAgentAndExplainThemselvesInTheNote() {
        assertThat(new Branch.StaticAll().assignment(2)).containsExactly(List.of(1.0), List.of(1.0));
        assertThat(new Branch.PerAgent(List.of(2.0, 0.5)).assignment(3)).containsExactly(List.of(2.0), List.of(0.5), List.of(0.5));
        assertThat(new Branch.MixRes(List.of(0.5, 2.0)).assignment(1)).containsExactly(List.of(0.5, 2.0));
        assertThat(new Branch.ConflictMixRes(SCALES).note()).contains("disagreed at different resolutions", "0.5x, 1x, 2x");
        assertThat(new Branch.PerAgent(List.of(1.0)).note()).isEmpty();
    }

    @Test
    void probesWithoutAReadableAnswerAreNeverConfidentSoTheyCannotFakeAConsensus() {
        // every probe refused with the same u: std = 0 puts all of them at τ, but nothing was answered
        var refusals = List.of(p(0, 1, "", 0.3), p(1, 1, "", 0.3), p(0, 2, "", 0.3), p(1, 2, "", 0.3));
        assertThat(decide(refusals)).isInstanceOf(Branch.StaticAll.class);
    }

    @Test
    void aConfidentRefusalDoesNotTurnAgreeingAnswersIntoAConflict() {
        var agreeing = List.of(p(0, 1, "A", 0.1), p(1, 1, "", 0.05), p(0, 2, "A", 0.9), p(1, 2, "A", 0.9));
        double tau = ResolutionAssignment.adaptiveThreshold(agreeing, 0.5);
        var routing = ResolutionAssignment.route(ResolutionAssignment.mark(agreeing, tau), 2, SCALES);
        // agent 1 answered (at 2x) but was confident nowhere: MixRes on the paper's tree, and every readable probe agrees
        assertThat(routing.branch()).isEqualTo(new Branch.MixRes(List.of(1.0)));
        assertThat(routing.consensus()).isEqualTo(new ResolutionAssignment.Agreement("A", "A", (0.1 + 0.9 + 0.9) / 3));
        var split = List.of(p(0, 1, "A", 0.1), p(1, 1, "", 0.05), p(0, 2, "A", 0.9), p(1, 2, "B", 0.9));
        assertThat(decide(split)).isEqualTo(new Branch.MixRes(List.of(1.0)));
    }

    @Test
    void consensusNeedsEveryReadableProbeToAgreeAndOneConfidentNotEqualUncertainties() {
        // all nine probes name A with different u: τ = mean − α·std leaves most of them unconfident, yet they agree
        var probes = List.of(p(0, 0.5, "A", 0.3), p(0, 1, "A", 0.1), p(0, 2, "A", 0.2),
                p(1, 0.5, "A", 0.4), p(1, 1, "A", 0.4), p(1, 2, "A", 0.35),
                p(2, 0.5, "A", 0.6), p(2, 1, "", 0.01), p(2, 2, "A", 0.6));
        double tau = ResolutionAssignment.adaptiveThreshold(probes, 0.5);
        var routing = ResolutionAssignment.route(ResolutionAssignment.mark(probes, tau), 3, SCALES);
        ResolutionAssignment.Agreement c = routing.consensus();
        assertThat(c).isNotNull();
        assertThat(c.option()).isEqualTo("A");
        assertThat(c.uncertainty()).isCloseTo((0.3 + 0.1 + 0.2 + 0.4 + 0.4 + 0.35 + 0.6 + 0.6) / 8, offset(1e-12));
        // only agent 0 is confident anywhere (τ ≈ 0.22): the paper's branch is MixRes at its confident scales
        assertThat(routing.branch()).isEqualTo(new Branch.MixRes(List.of(1.0, 2.0)));
        // one readable probe naming another answer, even unconfident, is no consensus
        var oneOff = new java.util.ArrayList<>(probes);
        oneOff.set(6, p(2, 0.5, "B", 0.6));
        double tau2 = ResolutionAssignment.adaptiveThreshold(oneOff, 0.5);
        assertThat(ResolutionAssignment.route(ResolutionAssignment.mark(oneOff, tau2), 3, SCALES).consensus()).isNull();
    }

    @Test
    void probesWithoutAnAnswerDoNotSetTheThreshold() {
        // two experts declare NOT APPLICABLE in fluent, near-certain sentences (u 0.001); the one that answers is
        // less certain (0.003–0.004). Counted in τ they would put it below every answer: StaticAll on every image
        var probes = List.of(p(0, 0.5, "A", 0.004), p(0, 1, "A", 0.003), p(0, 2, "A", 0.003),
                p(1, 0.5, "", 0.001), p(1, 1, "", 0.001), p(1, 2, "", 0.001),
                p(2, 0.5, "", 0.001), p(2, 1, "", 0.001), p(2, 2, "", 0.001));
        double tau = ResolutionAssignment.adaptiveThreshold(probes, 0.5);
        assertThat(tau).isCloseTo((0.010 / 3) - 0.5 * Math.sqrt((2 * Math.pow(0.001 / 3, 2) + Math.pow(0.002 / 3, 2)) / 3), offset(1e-12));
        var routing = ResolutionAssignment.route(ResolutionAssignment.mark(probes, tau), 3, SCALES);
        assertThat(routing.consensus()).isEqualTo(new ResolutionAssignment.Agreement("A", "A", 0.010 / 3));
        // agent 0 is confident at 1x and 2x (u 0.003): its lowest-u scale, ties to the smaller; the others answered nowhere
        assertThat(routing.branch()).isEqualTo(new Branch.PerAgent(List.of(1.0, 1.0, 1.0)));
    }

    @Test
    void anAgentWithoutAReadableProbeDebatesAtTheBaseScaleAndDoesNotForceMixRes() {
        // agent 0 is confident at 2x, agent 1 (an OCR expert on an image without text) never answered, agent 2
        // answered unconfidently and differently: not a consensus; agents 0 and 2 have their scales, 1 gets 1x
        var probes = List.of(p(0, 0.5, "A", 0.3), p(0, 1, "A", 0.3), p(0, 2, "A", 0.01),
                p(1, 0.5, "", 0.001), p(1, 1, "", 0.001), p(1, 2, "", 0.001),
                p(2, 0.5, "B", 0.3), p(2, 1, "B", 0.3), p(2, 2, "A", 0.01));
        double tau = ResolutionAssignment.adaptiveThreshold(probes, 0.5);
        assertThat(ResolutionAssignment.decide(ResolutionAssignment.mark(probes, tau), 3, SCALES))
                .isEqualTo(new Branch.PerAgent(List.of(2.0, 1.0, 2.0)));
    }

    @Test
    void aOneAgentPanelGoesToItsMostConfidentScale() {
        var probes = List.of(p(0, 0.5, "A", 0.1), p(0, 1, "A", 0.5), p(0, 2, "A", 0.9));
        double tau = ResolutionAssignment.adaptiveThreshold(probes, 0.5);
        assertThat(tau).isCloseTo(0.5 - 0.5 * Math.sqrt((0.16 + 0 + 0.16) / 3), offset(1e-12));
        assertThat(ResolutionAssignment.decide(ResolutionAssignment.mark(probes, tau), 1, SCALES).assignment(1))
                .containsExactly(List.of(0.5));
        var split = List.of(p(0, 0.5, "A", 0.1), p(0, 1, "A", 0.5), p(0, 2, "B", 0.9));
        assertThat(ResolutionAssignment.decide(ResolutionAssignment.mark(split, tau), 1, SCALES))
                .isEqualTo(new Branch.PerAgent(List.of(0.5)));
    }
}
