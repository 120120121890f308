package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 26, item 3: DebUnc as its authors' code runs it (github.com/lukeyoffe/debunc: {@code unc_to_confidence} in
 * {@code gen_utils.py}, {@code compute_accuracy}/{@code most_frequent} in the evaluation scripts), prompt variant.
 */
class DebuncFidelityTest {
    static final Question Q = question();

    @Test void confidenceLevelsAreTheAuthorsUncToConfidence() {
        // 1/u = 5, 2.5, 1.25 (Σ 8.75): 8 + 1/3, 4 + 1/3, 2 + 1/3
        assertThat(DebuncMethod.confidenceLevels(new double[]{0.2, 0.4, 0.8})).containsExactly(8, 4, 2);
        assertThat(DebuncMethod.confidenceLevels(new double[]{0.5, 0.5, 0.5})).containsExactly(5, 5, 5);
        // clipped to [1, 10]
        assertThat(DebuncMethod.confidenceLevels(new double[]{0.01, 1, 1})).containsExactly(10, 1, 1);
        // numpy rounds half to even: 1/u = 2, 5 gives 4.5 → 4 and 10.5 → 10
        assertThat(DebuncMethod.confidenceLevels(new double[]{0.5, 0.2})).containsExactly(4, 10);
        // a zero uncertainty does not make the round's levels NaN
        assertThat(DebuncMethod.confidenceLevels(new double[]{0, 0.5, 0.5})).containsExactly(10, 1, 1);
    }

    /** agent-1 answers A, sure (p 0.99); agent-2 and agent-3 answer B, unsure (p 0.4: U 0.6), in every round. */
    static ScriptedBackend sureMinority() {
        return backend(caps(true, false, 0), prompt -> "agent-1".equals(agentOf(prompt)) ? Reply.of("ANSWER: A", 0.99) : Reply.of("ANSWER: B", 0.4));
    }

    @Test void theFinalAnswerIsAPlainMajorityOfTheLastRoundAndTheWeightedVoteIsAnOption() {
        Answer a = MethodRegistry.create("debunc").run(Q, context(sureMinority()));
        // weighted by 1 − U, A (0.99) would beat B (0.4 + 0.4); the authors count answers
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.agents()).allSatisfy(t -> assertThat(t.weight()).isNull()));
        Answer weighted = MethodRegistry.create("debunc").run(Q, context(sureMinority(), "debunc.decision=weighted"));
        assertThat(weighted.option()).isEqualTo("A");
        assertThatThrownBy(() -> MethodRegistry.create("debunc").run(Q, context(sureMinority(), "debunc.decision=mean")))
                .hasMessageContaining("debunc.decision").hasMessageContaining("mean");
    }

    @Test void aTieGoesToTheAnswerGivenFirstAsCounterMostCommonBreaksIt() {
        // two agents: agent-1 B unsure, agent-2 A sure; ties to lower uncertainty would say A, most_frequent says B
        ScriptedBackend b = backend(caps(true, false, 0), prompt -> "agent-1".equals(agentOf(prompt))
                ? Reply.of("ANSWER: B", 0.4) : Reply.of("ANSWER: A", 0.99));
        Answer a = MethodRegistry.create("debunc").run(Q, context(b, "debunc.agents=2"));
        assertThat(a.option()).isEqualTo("B");
    }

    @Test @SuppressWarnings("unchecked")
    void peersAreShownWithTheirAuthorsLevelsMappedFromMeanTokenEntropy() {
        ScriptedBackend b = sureMinority();
        Answer a = MethodRegistry.create("debunc").run(Q, context(b, "debunc.rounds=1"));
        Map<String, Object> d = (Map<String, Object>) a.trace().rounds().get(0).extra().get("debunc");
        assertThat(d).containsEntry("measure", "mean-token-entropy (chosen token)");
        // entropy of (p, 1 − p): 0.056 nats for p 0.99, 0.673 for p 0.4; levels 10, 1, 1
        Map<String, Double> u = (Map<String, Double>) d.get("uncertainty");
        assertThat(u.get("agent-1")).isCloseTo(-(0.99 * Math.log(0.99) + 0.01 * Math.log(0.01)), within(1e-9));
        assertThat(u.get("agent-2")).isCloseTo(-(0.4 * Math.log(0.4) + 0.6 * Math.log(0.6)), within(1e-9));
        assertThat(d.get("confidence")).isEqualTo(Map.of("agent-1", 10, "agent-2", 1, "agent-3", 1));
        String toAgent2 = prompts(b, "revise").stream().filter(p -> "agent-2".equals(agentOf(p))).findFirst().orElseThrow();
        assertThat(toAgent2).contains("<peer id=\"agent-1\"").contains("CONFIDENCE: 1.0 (level 10 of 10)")
                .contains("CONFIDENCE: 0.1 (level 1 of 10)").contains("confidence level from 1 to 10");
    }

    @Test @SuppressWarnings("unchecked")
    void withoutLogprobsTheFallbackSignalGivesTheLevelsAndTheTraceSaysSo() {
        ScriptedBackend b = textBackend(prompt -> "agent-1".equals(agentOf(prompt)) ? "ANSWER: A\nCONFIDENCE: 0.95" : "ANSWER: B\nCONFIDENCE: 0.3");
        Answer a = MethodRegistry.create("debunc").run(Q, context(b, "debunc.rounds=1"));
        Map<String, Object> d = (Map<String, Object>) a.trace().rounds().get(0).extra().get("debunc");
        assertThat(d).containsEntry("measure", "semantic");
        // Φ_sem blended with the reported confidence: about 0.07 for agent-1 and 0.39 for the others
        Map<String, Double> u = (Map<String, Double>) d.get("uncertainty");
        assertThat(u.get("agent-1")).isEqualTo(a.trace().rounds().get(0).agents().get(0).uncertainty());
        int[] levels = DebuncMethod.confidenceLevels(u.values().stream().mapToDouble(Double::doubleValue).toArray());
        assertThat(d.get("confidence")).isEqualTo(Map.of("agent-1", levels[0], "agent-2", levels[1], "agent-3", levels[2]));
        assertThat(levels[0]).isEqualTo(10);
        assertThat(levels[1]).isLessThan(5);
    }

    static Trace.AgentTurn turn(String id, String option, double u) {
        return new Trace.AgentTurn(id, "debater", 1.0, option, option, u, "logprobs-chosen", null, List.of(), TokenCount.ZERO,
                "ANSWER: " + option, "answer-line", null, null);
    }

    @Test void dreamDebuncDecidesWithTheSamePlainMajority() {
        var answers = List.of(turn("agent-1", "A", 0.01), turn("agent-2", "B", 0.6), turn("agent-3", "B", 0.6));
        assertThat(new DebuncMethod().decide(Q, answers, Config.defaults()).orElseThrow().option()).isEqualTo("B");
        assertThat(new DebuncMethod().decide(Q, answers, Config.defaults().with("debunc.decision", "weighted")).orElseThrow().option())
                .isEqualTo("A");
    }
}
