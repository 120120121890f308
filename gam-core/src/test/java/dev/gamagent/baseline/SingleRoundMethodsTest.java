package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.MethodFixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class SingleRoundMethodsTest {

    static TokenCount tokensOf(int calls) {
        return new TokenCount(calls * PROMPT_TOKENS, calls * COMPLETION_TOKENS, false);
    }

    @Test
    void singleWithARoleSendsThatExpertsRoleAsASystemMessageAndNothingElseDiffers() {
        var plain = textBackend(u -> "B");
        new SingleMethod().run(question(), context(plain));
        var persona = textBackend(u -> "B");
        Answer a = new SingleMethod().run(question(), context(persona, "single.role=ocr"));
        var sent = persona.requests.get(0);
        assertThat(sent.messages()).hasSize(2);
        assertThat(sent.messages().get(0).role()).isEqualTo(dev.gamagent.backend.ChatMessage.Role.SYSTEM);
        assertThat(sent.messages().get(0).text()).startsWith("<role>ocr expert</role>").contains("text/OCR expert");
        assertThat(user(sent)).isEqualTo(user(plain.requests.get(0)));
        assertThat(sent.temperature()).isEqualTo(plain.requests.get(0).temperature());
        assertThat(a.trace().rounds().get(0).agents().get(0).role()).isEqualTo("ocr expert");
        assertThat(plain.requests.get(0).messages()).hasSize(1);
    }

    @Test
    void singleRefusesACriticOrAnUnknownRoleNamingTheKnownExperts() {
        var b = textBackend(u -> "B");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SingleMethod().run(question(), context(b, "single.role=fact")))
                .hasMessageContaining("single.role").hasMessageContaining("critic").hasMessageContaining("scene, ocr, relational, object, attribute");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SingleMethod().run(question(), context(b, "single.role=painter")))
                .hasMessageContaining("single.role").hasMessageContaining("unknown GAM role 'painter'");
    }

    @Test
    void cotAsksToThinkStepByStepAndTakesTheStatedAnswerNotLettersInTheReasoning() {
        var b = textBackend(u -> "Option A says red, but the triangle is clearly blue.\nANSWER: B\nCONFIDENCE: 0.9");
        Answer a = new CotMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(1);
        assertThat(user(b.requests.get(0))).contains("step by step", "<task>answer</task>", "<question>", "A. red", "ANSWER: <option letter>");
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.answer()).isEqualTo("blue");
        assertThat(a.calls()).isEqualTo(1);
        assertThat(a.rounds()).isZero();
        assertThat(a.tokens()).isEqualTo(tokensOf(1));
        assertThat(a.trace().rounds()).hasSize(1);
    }

    @Test
    void selfConsistencyUsesOneRequestWithNChoicesWhenTheBackendSupportsIt() {
        AtomicInteger i = new AtomicInteger();
        String[] letters = {"A", "B", "A", "C", "A"};
        var b = backend(caps(false, true, 0), u -> Reply.of("ANSWER: " + letters[i.getAndIncrement() % 5]));
        Answer a = new SelfConsistencyMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(1);
        assertThat(b.requests.get(0).n()).isEqualTo(5);
        assertThat(b.requests.get(0).temperature()).isEqualTo(0.7);
        assertThat(a.option()).isEqualTo("A");
        assertThat(a.calls()).isEqualTo(1);
        List<Trace.AgentTurn> turns = a.trace().rounds().get(0).agents();
        assertThat(turns).extracting(Trace.AgentTurn::id).containsExactly("sample-1", "sample-2", "sample-3", "sample-4", "sample-5");
        assertThat(turns.stream().map(Trace.AgentTurn::tokens).reduce(TokenCount.ZERO, TokenCount::plus)).isEqualTo(a.tokens());
        assertThat(a.tokens()).isEqualTo(tokensOf(1));
    }

    @Test
    void selfConsistencyFallsBackToKSeparateCallsWithoutMultipleChoices() {
        AtomicInteger i = new AtomicInteger();
        var b = backend(caps(false, false, 0), u -> Reply.of("ANSWER: " + (i.getAndIncrement() < 3 ? "C" : "B")));
        Answer a = new SelfConsistencyMethod().run(question(), context(b, "sc.samples=4"));
        assertThat(b.requests).hasSize(4).allSatisfy(r -> assertThat(r.n()).isEqualTo(1));
        assertThat(a.option()).isEqualTo("C");
        assertThat(a.calls()).isEqualTo(4);
        assertThat(a.tokens()).isEqualTo(tokensOf(4));
    }

    @Test
    void voteRunsThreeIndependentAgentsOnceAndTakesTheMajority() {
        var b = textBackend(u -> switch (agentOf(u)) {
            case "agent-1" -> "ANSWER: C";
            default -> "ANSWER: A";
        });
        Answer a = new VoteMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(3);
        assertThat(a.option()).isEqualTo("A");
        assertThat(a.rounds()).isZero();
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("agent-1", "agent-2", "agent-3");
        assertThat(a.tokens()).isEqualTo(tokensOf(3));
        // (1/N)·Σ over the two winners of (1 − u): below 2/3 since no agent is certain
        assertThat(a.confidence()).isLessThanOrEqualTo(2.0 / 3 + 1e-9).isGreaterThan(0);
    }

    @Test
    void voteBreaksATieInFavourOfTheLessUncertainAnswer() {
        var b = backend(caps(true, false, 0), u -> "agent-1".equals(agentOf(u))
                ? Reply.of("ANSWER: A", 0.4) : Reply.of("ANSWER: B", 0.9));
        Answer a = new VoteMethod().run(question(), context(b, "vote.agents=2"));
        assertThat(a.option()).isEqualTo("B");
        var b2 = backend(caps(true, false, 0), u -> "agent-1".equals(agentOf(u))
                ? Reply.of("ANSWER: A", 0.9) : Reply.of("ANSWER: B", 0.4));
        assertThat(new VoteMethod().run(question(), context(b2, "vote.agents=2")).option()).isEqualTo("A");
    }
}
