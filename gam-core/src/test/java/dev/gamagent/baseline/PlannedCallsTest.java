package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Method;
import dev.gamagent.api.RunContext;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: a method's call count ({@link Method#plannedCalls}) and its run read the same settings, so at settings
 * other than the defaults the calls a scripted run makes are the planned ones: the most when every round runs (a
 * panel that disagrees, a moderator that never stops), the least when the first answers settle it.
 */
class PlannedCallsTest {
    private static final String SETTINGS = "vote.agents=5;debate.agents=4;debate.rounds=3;debunc.agents=2;debunc.rounds=4;"
            + "self_debate.rounds=5;mad.rounds=2;dmad.strategies=[\"direct\",\"subquestions\"];dmad.rounds=3;"
            + "chateval.roles=[\"critic\",\"domain expert\"];chateval.turns=3;chateval.decision=judge;dwi.agents=3;dwi.rounds=3;"
            + "sc.samples=4;gam.experts=[\"scene\",\"ocr\"];gam.critics=[\"fact\"];gam.max_rounds=2;gam.embedding=none";

    @ParameterizedTest(name = "{0}: {1}–{2} calls")
    @CsvSource({"single, 1, 1", "cot, 1, 1", "sc, 1, 4", "vote, 5, 5", "debate, 16, 16", "debunc, 10, 10", "self-debate, 6, 6",
            "mad, 3, 8", "div-mad, 3, 8", "dmad, 8, 8", "chateval, 7, 7", "dwi, 10, 10", "gam, 2, 8"})
    void aScriptedRunMakesThePlannedCalls(String name, int min, int max) {
        Method method = MethodRegistry.create(name);
        RunContext settled = MethodFixtures.context(agreeing(), SETTINGS.split(";"));
        CallPlan plan = method.plannedCalls(settled.config()).orElseThrow();
        assertThat(plan.min()).as(name + " least calls (" + plan.how() + ")").isEqualTo(min);
        assertThat(plan.max()).as(name + " most calls (" + plan.how() + ")").isEqualTo(max);

        ScriptedBackend agree = agreeing();
        method.run(MethodFixtures.question(), MethodFixtures.context(agree, SETTINGS.split(";")));
        assertThat(agree.requests.size()).as(name + " calls when the first answers agree").isEqualTo(plan.min());

        ScriptedBackend disagree = disagreeing();
        String[] everyRound = (SETTINGS + ";gam.record_full=true").split(";");
        CallPlan full = method.plannedCalls(MethodFixtures.context(disagree, everyRound).config()).orElseThrow();
        method.run(MethodFixtures.question(), MethodFixtures.context(disagree, everyRound));
        assertThat(disagree.requests.size()).as(name + " calls when every round runs").isEqualTo(full.max());
    }

    /** Every agent answers A with confidence, the moderator stops; n choices per request where asked. */
    private static ScriptedBackend agreeing() {
        return MethodFixtures.backend(MethodFixtures.caps(true, true, 0),
                s -> MethodFixtures.Reply.of("ANSWER: A\nDECISION: STOP\nSUPPORTED SIDE: affirmative\nCONFIDENCE: 0.99", 0.99));
    }

    /** Answers cycle through A, B, C, unsure, and the moderator never stops; one choice per request. */
    private static ScriptedBackend disagreeing() {
        AtomicInteger n = new AtomicInteger();
        return MethodFixtures.backend(MethodFixtures.caps(true, false, 0),
                s -> MethodFixtures.Reply.of("ANSWER: " + "ABC".charAt(n.getAndIncrement() % 3) + "\nDECISION: CONTINUE\nCONFIDENCE: 0.4", 0.4));
    }

    /** GAM's judge speaks only after a debate round on an open question: it adds to the most, never to the least. */
    @org.junit.jupiter.api.Test
    void gamsJudgeAddsOnlyToTheMost() {
        var c = MethodFixtures.context(agreeing(), (SETTINGS + ";gam.judge=true").split(";")).config();
        CallPlan plan = MethodRegistry.create("gam").plannedCalls(c).orElseThrow();
        assertThat(plan.min()).isEqualTo(2);
        assertThat(plan.max()).isEqualTo(9);
        ScriptedBackend agree = agreeing();
        MethodRegistry.create("gam").run(MethodFixtures.question(), MethodFixtures.context(agree, (SETTINGS + ";gam.judge=true").split(";")));
        assertThat(agree.requests.size()).isEqualTo(plan.min());
    }
}
