package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gamagent.baseline.SingleRoundMethodsTest.tokensOf;
import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class MadAndChatEvalTest {

    static String madScript(String u, boolean moderatorStops) {
        if (u.contains("<role>affirmative debater</role>")) return "The triangle is red.\nANSWER: A";
        if (u.contains("<role>negative debater</role>")) return "No, it is blue.\nANSWER: B";
        if (u.contains("<role>moderator</role>")) return (moderatorStops ? "DECISION: STOP" : "DECISION: CONTINUE") + "\nANSWER: B";
        if (u.contains("<role>judge</role>")) return "The negative side is right.\nANSWER: B";
        throw new AssertionError("unexpected prompt " + u);
    }

    @Test
    void madStopsAsSoonAsTheModeratorDecides() {
        var b = textBackend(u -> madScript(u, true));
        Answer a = new MadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(3);
        assertThat(a.termination()).isEqualTo(Termination.MODERATOR.label());
        assertThat(a.rounds()).isEqualTo(1);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.tokens()).isEqualTo(tokensOf(3));
        String negative = prompts(b, "revise").get(0);
        assertThat(negative).contains("<role>negative debater</role>", "<peer id=\"affirmative\"", "The triangle is red.");
        String moderator = prompts(b, "moderate").get(0);
        assertThat(moderator).contains("<peer id=\"affirmative\"", "<peer id=\"negative\"", "DECISION: STOP or CONTINUE");
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("affirmative", "negative", "moderator");
    }

    @Test
    void madWithoutADecisionRunsAllRoundsAndLetsTheJudgeDecide() {
        var b = textBackend(u -> madScript(u, false));
        Answer a = new MadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(10); // 3 rounds × (affirmative, negative, moderator) + judge
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS.label());
        assertThat(a.rounds()).isEqualTo(3);
        assertThat(a.option()).isEqualTo("B");
        String judge = prompts(b, "judge").get(0);
        assertThat(judge).contains("<role>judge</role>", "affirmative-round1", "negative-round3");
        String laterAffirmative = prompts(b, "revise").stream().filter(u -> u.contains("<role>affirmative debater</role>")).findFirst().orElseThrow();
        assertThat(laterAffirmative).contains("<previous>", "<peer id=\"negative\"", "No, it is blue.");
        assertThat(a.trace().extra()).containsEntry("decided_by", "judge");
        assertThat(a.tokens()).isEqualTo(tokensOf(10));
        assertThat(MadMethod.decidedToStop("**DECISION:** stop")).isTrue();
        assertThat(MadMethod.decidedToStop("I would not stop yet. DECISION: CONTINUE")).isFalse();
    }

    @Test
    void chatEvalDiscussantsSpeakInTurnSeeingTheWholeDiscussionAndTheMajorityOfTheLastTurnWins() {
        var b = textBackend(u -> u.contains("<role>critic</role>") ? "I disagree: it is green.\nANSWER: C" : "ANSWER: A");
        Answer a = new ChatEvalMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(6);
        List<String> sent;
        synchronized (b.requests) { sent = b.requests.stream().map(dev.gamagent.testing.MethodFixtures::user).toList(); }
        assertThat(sent.get(0)).contains("<role>general public</role>", "<task>answer</task>").doesNotContain("<peer");
        assertThat(sent.get(1)).contains("<role>critic</role>", "<task>revise</task>", "<peer id=\"general-public\"");
        assertThat(sent.get(2)).contains("<role>domain expert</role>", "I disagree: it is green.");
        assertThat(sent.get(5)).contains("critic (turn 2)");
        assertThat(a.option()).isEqualTo("A");
        assertThat(a.rounds()).isEqualTo(1);
        assertThat(a.trace().rounds()).hasSize(2);
        assertThat(a.tokens()).isEqualTo(tokensOf(6));
    }

    @Test
    void chatEvalCanLeaveTheDecisionToAJudge() {
        var b = textBackend(u -> u.contains("<role>judge</role>") ? "ANSWER: C"
                : u.contains("<role>critic</role>") ? "ANSWER: C" : "ANSWER: A");
        Answer a = new ChatEvalMethod().run(question(), context(b, "chateval.decision=judge"));
        assertThat(b.requests).hasSize(7);
        assertThat(a.option()).isEqualTo("C");
        assertThat(prompts(b, "judge").get(0)).contains("<peer id=\"domain-expert\"", "<peer id=\"critic\"");
        assertThat(a.tokens()).isEqualTo(tokensOf(7));
    }
}
