package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gamagent.baseline.SingleRoundMethodsTest.tokensOf;
import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MadAndChatEvalTest {

    /** The round a MAD prompt belongs to: 1 for the opening prompts, else the ordinal it names. */
    static int roundOf(String u) {
        for (int r = 2; r <= 5; r++) if (u.contains("the " + MadMethod.ordinal(r) + " round")) return r;
        return 1;
    }

    static String madScript(String u, boolean moderatorStops) {
        int r = roundOf(u);
        if (u.contains("<role>affirmative debater</role>")) return "The triangle is red (affirmative, round " + r + ").\nANSWER: A";
        if (u.contains("<role>negative debater</role>")) return "No, it is blue (negative, round " + r + ").\nANSWER: B";
        if (u.contains("<role>moderator</role>")) return (moderatorStops ? "DECISION: STOP\nSUPPORTED SIDE: negative" : "DECISION: CONTINUE") + "\nANSWER: B";
        if (u.contains("List them without reasons")) return "Candidates: A (red) and B (blue).";
        if (u.contains("<role>judge</role>")) return "The negative side is right.\nANSWER: B";
        throw new AssertionError("unexpected prompt " + u);
    }

    /** The requests whose last (user) turn contains {@code marker}, in order. */
    static List<ChatRequest> requestsWith(ScriptedBackend b, String marker) {
        synchronized (b.requests) { return b.requests.stream().filter(r -> user(r).contains(marker)).toList(); }
    }

    @Test
    void madStopsAsSoonAsTheModeratorDecides() {
        var b = textBackend(u -> madScript(u, true));
        Answer a = new MadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(3);
        assertThat(a.termination()).isEqualTo(Termination.MODERATOR);
        assertThat(a.rounds()).isEqualTo(1);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.tokens()).isEqualTo(tokensOf(3));
        String moderator = prompts(b, "moderate").get(0);
        assertThat(moderator).contains("<peer id=\"affirmative\"", "<peer id=\"negative\"", "DECISION: STOP", "The first round");
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("affirmative", "negative", "moderator");
        assertThat(a.trace().rounds().get(0).extra()).containsEntry("supported_side", "negative");
    }

    @Test
    void madsNegativeSideIsToldItDisagreesWithTheAffirmativeInTheFirstRoundOnly() {
        var b = textBackend(u -> madScript(u, false));
        new MadMethod().run(question(), context(b));
        List<String> negative = requestsWith(b, "<role>negative debater</role>").stream().map(MethodFixtures::user).toList();
        assertThat(negative).hasSize(3);
        // tit for tat (Liang et al.'s code): the first negative turn is told it disagrees with the affirmative's answer
        assertThat(negative.get(0)).contains("You disagree with the affirmative side's answer", "<peer id=\"affirmative\"",
                "(affirmative, round 1)");
        // later turns of both sides are asked whether they agree with the other side's latest argument
        assertThat(negative.get(1)).doesNotContain("You disagree").contains("Do you agree", "(affirmative, round 2)");
        String affirmative2 = user(requestsWith(b, "<role>affirmative debater</role>").get(1));
        assertThat(affirmative2).contains("Do you agree", "<peer id=\"negative\"", "(negative, round 1)")
                .doesNotContain("You disagree");
    }

    @Test
    void everyMadAgentKeepsItsOwnConversationAcrossRounds() {
        var b = textBackend(u -> madScript(u, false));
        new MadMethod().run(question(), context(b));
        ChatRequest third = requestsWith(b, "<role>affirmative debater</role>").get(2);
        assertThat(third.messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.SYSTEM,
                ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.USER);
        assertThat(third.messages().get(0).text()).contains("You are a debater");
        assertThat(third.messages().get(2).text()).isEqualTo("The triangle is red (affirmative, round 1).\nANSWER: A");
        assertThat(third.messages().get(4).text()).contains("(affirmative, round 2)");
        assertThat(third.messages().get(5).text()).contains("the third round", "(negative, round 2)");
        // the images go once, in the first user turn, so each request extends the one before (requests.conversation_images)
        assertThat(third.messages().get(1).images()).hasSize(1);
        assertThat(third.messages().get(5).images()).isEmpty();
        var before = textBackend(u -> madScript(u, false));
        new MadMethod().run(question(), context(before, "requests.conversation_images=latest"));
        ChatRequest latest = requestsWith(before, "<role>affirmative debater</role>").get(2);
        assertThat(latest.messages().get(1).images()).isEmpty();
        assertThat(latest.messages().get(5).images()).hasSize(1);
        ChatRequest moderator3 = requestsWith(b, "<role>moderator</role>").get(2);
        assertThat(moderator3.messages()).hasSize(6);
        assertThat(moderator3.messages().get(0).text()).contains("You are the moderator");
        assertThat(moderator3.messages().get(3).text()).contains("The second round");
    }

    @Test
    void madWithoutADecisionRunsAllRoundsAndLetsTheJudgeListTheCandidatesThenDecide() {
        var b = textBackend(u -> madScript(u, false));
        Answer a = new MadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(11); // 3 rounds × (affirmative, negative, moderator) + the judge's two calls
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(a.rounds()).isEqualTo(3);
        assertThat(a.option()).isEqualTo("B");
        List<ChatRequest> judge = requestsWith(b, "<role>judge</role>");
        assertThat(judge).hasSize(2);
        // as in the authors' code the judge reads each side's first argument only
        assertThat(user(judge.get(0))).contains("List them without reasons", "(affirmative, round 1)", "(negative, round 1)")
                .doesNotContain("round 2", "round 3");
        assertThat(judge.get(1).messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.SYSTEM,
                ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.USER);
        assertThat(judge.get(1).messages().get(2).text()).startsWith("Candidates:");
        assertThat(a.trace().extra()).containsEntry("decided_by", "judge").containsEntry("judge_sees", "first");
        assertThat(a.trace().rounds().get(2).agents()).extracting(Trace.AgentTurn::id)
                .containsExactly("affirmative", "negative", "moderator", "judge-candidates", "judge");
        assertThat(a.tokens()).isEqualTo(tokensOf(11));
        assertThat(MadMethod.decidedToStop("**DECISION:** stop")).isTrue();
        assertThat(MadMethod.decidedToStop("I would not stop yet. DECISION: CONTINUE")).isFalse();
    }

    @Test
    void madsJudgeCanReadEveryRound() {
        var b = textBackend(u -> madScript(u, false));
        Answer a = new MadMethod().run(question(), context(b, "mad.judge_sees=all"));
        assertThat(user(requestsWith(b, "<role>judge</role>").get(0))).contains("affirmative-round1", "negative-round3", "(negative, round 3)");
        assertThat(a.trace().extra()).containsEntry("judge_sees", "all");
        assertThatThrownBy(() -> new MadMethod().run(question(), context(b, "mad.judge_sees=last")))
                .hasMessageContaining("mad.judge_sees");
    }

    @Test
    void aModeratorThatSaysStopButNamesNoOptionDoesNotEndTheDebate() {
        var b = textBackend(u -> u.contains("<role>moderator</role>") ? "DECISION: STOP\nANSWER: the affirmative side"
                : madScript(u, false));
        Answer a = new MadMethod().run(question(), context(b));
        assertThat(b.requests).hasSize(11);
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(a.option()).isEqualTo("B");
    }

    @Test
    void onAnOpenQuestionAModeratorThatNamesOnlyASideDoesNotEndTheDebate() {
        var open = dev.gamagent.api.Question.of("q2", question().images(), "What color is the triangle?", java.util.Map.of());
        var b = textBackend(u -> u.contains("<role>moderator</role>") ? "DECISION: STOP\nANSWER: The negative side."
                : u.contains("<role>judge</role>") ? "ANSWER: blue" : "ANSWER: red");
        Answer a = new MadMethod().run(open, context(b));
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(a.answer()).isEqualTo("blue");
    }

    @Test
    void divMadIsMadUnderDreamsName() {
        var b = textBackend(u -> madScript(u, true));
        Answer a = MethodRegistry.create("div-mad").run(question(), context(b, "mad.rounds=1"));
        assertThat(a.trace().method()).isEqualTo("div-mad");
        assertThat(a.termination()).isEqualTo(Termination.MODERATOR);
        assertThat(b.requests).hasSize(3);
        assertThat(MethodRegistry.create("dream+div-mad").name()).isEqualTo("dream+div-mad");
        assertThat(MethodRegistry.listed()).contains("div-mad", "dream+div-mad");
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
