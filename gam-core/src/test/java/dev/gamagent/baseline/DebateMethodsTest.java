package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.testing.MethodFixtures.Reply;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gamagent.baseline.SingleRoundMethodsTest.tokensOf;
import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DebateMethodsTest {

    @Test
    void debateShowsEachAgentItsOwnPreviousAnswerAndOnlyThePeersAnswersThenTakesTheMajority() {
        // agent-1 starts with A and moves to B once it has seen two peers answering B
        var b = textBackend(u -> {
            String me = agentOf(u);
            if (u.contains("<task>answer</task>")) return me.equals("agent-1") ? "It looks red.\nANSWER: A" : "It is blue.\nANSWER: B";
            return "Having seen the others I say blue.\nANSWER: B";
        });
        Answer a = new DebateMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(9); // 3 agents × (1 + 2 rounds)
        assertThat(a.calls()).isEqualTo(9);
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.termination()).isEqualTo(Termination.FIXED_ROUNDS);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.tokens()).isEqualTo(tokensOf(9));
        assertThat(a.trace().rounds()).extracting(Trace.Round::k).containsExactly(0, 1, 2);
        assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("agent-1", "agent-2", "agent-3"));
        assertThat(a.trace().rounds().get(0).agents().get(0).option()).isEqualTo("A");
        String firstRevision = prompts(b, "revise").stream()
                .filter(u -> "agent-1".equals(agentOf(u)) && u.contains("It looks red")).findFirst().orElseThrow();
        assertThat(firstRevision).contains("<previous>\nIt looks red.\nANSWER: A\n</previous>",
                "<peer id=\"agent-2\"", "<peer id=\"agent-3\"", "It is blue.").doesNotContain("<peer id=\"agent-1\"");
        assertThat(a.trace().tokens()).isEqualTo(a.tokens());
    }

    @Test
    void debateKeepsGoingWhenOneAgentFailsAndFailsOnlyWhenEveryAgentDoes() {
        var b = backend(caps(false, false, 0), u -> {
            if ("agent-3".equals(agentOf(u))) throw new dev.gamagent.backend.BackendException.Timeout("scripted timeout", null);
            return Reply.of("ANSWER: C");
        });
        Answer a = new DebateMethod().run(question(), context(b));
        assertThat(a.option()).isEqualTo("C");
        Trace.AgentTurn failed = a.trace().rounds().get(0).agents().get(2);
        assertThat(failed.error()).contains("scripted timeout");
        var all = textBackend(u -> { throw new IllegalStateException("down"); });
        assertThatThrownBy(() -> new DebateMethod().run(question(), context(all)))
                .isInstanceOf(MethodFailure.class).hasMessageContaining("every agent failed in round 0");
    }

    @Test
    void selfDebateRefinesItsOwnAnswerForThreeRoundsAndKeepsTheLast() {
        var b = textBackend(u -> {
            if (u.contains("<task>answer</task>")) return "ANSWER: A";
            return u.contains("ANSWER: A") ? "On reflection it is green.\nANSWER: C" : "Still green.\nANSWER: C";
        });
        Answer a = new SelfDebateMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(4);
        assertThat(a.rounds()).isEqualTo(3);
        assertThat(a.option()).isEqualTo("C");
        List<String> revisions = prompts(b, "revise");
        assertThat(revisions).hasSize(3);
        assertThat(revisions).allSatisfy(u -> assertThat(u).contains("<previous>").doesNotContain("<peer"));
        assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.agents()).extracting(Trace.AgentTurn::id).containsExactly("agent-1"));
        assertThat(a.tokens()).isEqualTo(tokensOf(4));
    }

    @Test
    void debuncShowsEveryPeersConfidenceLevelAndTakesTheMajorityOfTheLastRound() {
        // agent-1 is sure of A (p = 0.95); agents 2 and 3 hesitate on B (p = 0.3): the authors count the last round's answers
        var b = backend(caps(true, false, 0), u -> "agent-1".equals(agentOf(u))
                ? Reply.of("ANSWER: A", 0.95) : Reply.of("ANSWER: B", 0.3));
        Answer a = new DebuncMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(9);
        assertThat(a.option()).isEqualTo("B");
        String agent2 = prompts(b, "revise").stream().filter(u -> "agent-2".equals(agentOf(u))).findFirst().orElseThrow();
        // mean token entropy 0.199 (A) and 0.611 (B) nats: levels 9 and 3 (unc_to_confidence: 8.82 and 3.09)
        assertThat(agent2).contains("<peer id=\"agent-1\" weight=\"0.33\">", "ANSWER: A\nCONFIDENCE: 0.9 (level 9 of 10)",
                "<peer id=\"agent-3\" weight=\"0.33\">", "ANSWER: B\nCONFIDENCE: 0.3 (level 3 of 10)");
        assertThat(a.tokens()).isEqualTo(tokensOf(9));
        // the earlier confidence-weighted vote is a setting: confidence beats headcount there
        var w = backend(caps(true, false, 0), u -> "agent-1".equals(agentOf(u)) ? Reply.of("ANSWER: A", 0.95) : Reply.of("ANSWER: B", 0.3));
        Answer weighted = new DebuncMethod().run(question(), context(w, "debunc.decision=weighted"));
        assertThat(weighted.option()).isEqualTo("A");
        assertThat(weighted.trace().rounds().get(0).agents().get(0).weight()).isCloseTo(0.95 / 1.55, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void dmadGivesEachAgentItsOwnWayOfReasoningAndExchangesAnswers() {
        var b = textBackend(u -> {
            if (u.contains("<role>direct reasoner</role>")) return "ANSWER: A";
            return "ANSWER: B";
        });
        Answer a = new DmadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(9);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("direct", "scene-graph", "subquestions");
        List<String> first = prompts(b, "answer");
        assertThat(first).anySatisfy(u -> assertThat(u).contains("<role>scene graph reasoner</role>", "scene graph of the image"));
        assertThat(first).anySatisfy(u -> assertThat(u).contains("<role>subquestions reasoner</role>", "sub-questions"));
        String sceneRevise = prompts(b, "revise").stream().filter(u -> u.contains("<role>scene graph reasoner</role>")).findFirst().orElseThrow();
        assertThat(sceneRevise).contains("<peer id=\"direct\"", "<peer id=\"subquestions\"", "scene graph of the image")
                .doesNotContain("<peer id=\"scene-graph\"");
        assertThat(a.tokens()).isEqualTo(tokensOf(9));
    }

    @Test
    void agentsThatOnlyDeclineAnOpenQuestionGiveAnAnswerWithNoConfidence() {
        // the model is sure of its words (log-probs near 0): the refusal is still no answer to be confident in
        var b = backend(caps(true, false, 0), u -> Reply.of("ANSWER: cannot determine", 0.999));
        var q = dev.gamagent.api.Question.of("q", question().images(), "Why is the triangle red?", java.util.Map.of());
        Answer a = new DebateMethod().run(q, context(b));
        assertThat(a.answer()).isEqualTo("cannot determine");
        assertThat(a.confidence()).as("a unanimous refusal is no confident answer").isZero();
        assertThat(a.trace().rounds().get(0).agents()).allSatisfy(t -> assertThat(t.uncertainty()).isEqualTo(1.0));
    }
}
