package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import org.junit.jupiter.api.Test;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** Baselines on one-agent panels and on messy replies. */
class BaselineConformanceTest {

    @Test void aOneAgentDebateRevisesItsOwnAnswerWithNoPeersAndKeepsIt() {
        var b = textBackend(u -> "ANSWER: B");
        Answer a = new DebateMethod().run(question(), context(b, "debate.agents=1"));
        assertThat(b.requests).hasSize(3);
        assertThat(a.option()).isEqualTo("B");
        assertThat(Double.isFinite(a.confidence())).isTrue();
    }

    @Test void aOneAgentDebuncGivesItsOnlyAgentTheWholeWeight() {
        var b = textBackend(u -> "ANSWER: B\nCONFIDENCE: 0.7");
        Answer a = new DebuncMethod().run(question(), context(b, "debunc.agents=1", "debunc.decision=weighted"));
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.agents().get(0).weight()).isEqualTo(1.0));
    }

    @Test void debuncWeightsStayFiniteWhenEveryAgentIsMaximallyUncertain() {
        var b = textBackend(u -> "");
        Answer a = new DebuncMethod().run(question(), context(b));
        assertThat(a.trace().rounds()).allSatisfy(r -> r.agents().forEach(t -> {
            if (t.weight() != null) assertThat(Double.isFinite(t.weight())).isTrue();
        }));
    }

    @Test void lowerCaseAndBoldAnswersAreReadByEveryVotingMethod() {
        var b = textBackend(u -> u.contains("agent-1") ? "**Answer:** b" : "The answer is (b), the blue one.");
        Answer a = MethodRegistry.create("vote").run(question(), context(b));
        assertThat(a.option()).isEqualTo("B");
    }

    @Test void refusalsThatNameNoOptionDoNotOutvoteAnAgentThatAnswered() {
        var b = textBackend(u -> u.contains("agent-1") ? "ANSWER: B" : "I'm sorry, but I can't help with that.");
        Answer a = MethodRegistry.create("vote").run(question(), context(b));
        assertThat(a.option()).isEqualTo("B");
    }

    @Test void whenNoAgentNamesAnOptionTheVoteStillReturnsWhatTheySaid() {
        var b = textBackend(u -> "I'm sorry, but I can't help with that.");
        Answer a = MethodRegistry.create("vote").run(question(), context(b));
        assertThat(a.option()).isNull();
        assertThat(a.answer()).contains("sorry");
    }
}
