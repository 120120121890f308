package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.context;
import static dev.gamagent.testing.MethodFixtures.question;
import static dev.gamagent.testing.MethodFixtures.textBackend;
import static org.assertj.core.api.Assertions.assertThat;

public class FlipAccountingTest {

    /** First answers say A; every later call (revision, moderator, judge, critic) says B. */
    private static Answer run(String method) {
        var b = textBackend(u -> u.contains("<task>answer</task>") ? "It looks red.\nANSWER: A\nCONFIDENCE: 0.6"
                : u.contains("<task>moderate</task>") ? "DECISION: CONTINUE\nANSWER: B\nCONFIDENCE: 0.6"
                : u.contains("<task>critique</task>") ? "CLAIM 1: inaccurate | REASON: it is blue | CONFIDENCE: 0.9"
                : "Looking again, it is blue.\nANSWER: B\nCONFIDENCE: 0.9");
        return MethodRegistry.create(method).run(question(), context(b, "gam.record_full=true", "chateval.turns=2",
                "dream.mode=rollback_only")); // the probe would agree on A and skip the debate
    }

    @ParameterizedTest
    @ValueSource(strings = {"debate", "self-debate", "mad", "dmad", "chateval", "debunc", "gam", "dream+debate", "dream+gam"})
    void everyDebateMethodRecordsItsDecisionAfterEachRound(String method) {
        Answer a = run(method);
        List<Trace.Round> rounds = a.trace().rounds();
        assertThat(rounds).as("%s debated", method).hasSizeGreaterThan(1);
        for (Trace.Round r : rounds) {
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>) r.extra().get("decision");
            assertThat(d).as("%s round %d decision", method, r.k()).isNotNull().containsKeys("option", "answer");
            assertThat(d.get("option")).isIn("A", "B");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> last = (Map<String, Object>) rounds.get(rounds.size() - 1).extra().get("decision");
        assertThat(last.get("option")).as("%s: the last round's decision is the answer", method).isEqualTo(a.option());
        if (!method.contains("mad") && !method.equals("chateval")) {
            // every agent said A first (chateval's later speakers already see a discussion and revise): the panel's decision after round 0 is A, and the debate moved it to B
            assertThat(((Map<?, ?>) rounds.get(0).extra().get("decision")).get("option")).isEqualTo("A");
            assertThat(a.option()).isEqualTo("B");
        }
    }

    @Test void aDebateThatMovesWrongToRightIsCountedSoInTheSummary() {
        Answer a = run("debate");
        JsonNode trace = Json.MAPPER.valueToTree(a.trace());
        ResultRecord r = Records.record("q1", "debate").group("q1").category("color").outcome("correct")
                .predicted("B").groundTruth("B").answer(a.answer()).option(a.option()).confidence(a.confidence())
                .uncertainty(a.uncertainty()).rounds(a.rounds()).termination(a.termination().label()).promptTokens(1)
                .completionTokens(1).calls(a.calls()).millis(1).rule("method").backend("scripted").trace(trace)
                .build();
        FlipAccounting.Flips f = MethodMetrics.of("debate", List.of(r), PriceTable.from(Config.defaults()), 0.5, false).flips();
        assertThat(f.wrongToRight()).isEqualTo(1);
        assertThat(f.rightToWrong()).isZero();
        assertThat(f.changed()).isEqualTo(1);
        // three agents, two revisions each, each moved A→B once then kept B
        assertThat(f.agents()).isEqualTo(new FlipAccounting.AgentChanges(6, 3, 3, 0));
    }

    public static String round(int k, String decision, String... agentOptions) {
        StringBuilder sb = new StringBuilder("{\"k\":" + k + ",\"agents\":[");
        for (int i = 0; i < agentOptions.length; i++) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":\"agent-").append(i + 1).append("\",\"answer\":\"x\",\"option\":\"").append(agentOptions[i]).append("\"}");
        }
        sb.append("]");
        if (decision != null) sb.append(",\"extra\":{\"decision\":{\"option\":\"").append(decision).append("\",\"answer\":\"x\"}}");
        return sb.append("}").toString();
    }

    public static ResultRecord rec(String id, String outcome, String option, String... rounds) {
        try {
            JsonNode t = Json.MAPPER.readTree("{\"question\":{\"options\":{\"A\":\"red\",\"B\":\"blue\",\"C\":\"green\"}},"
                    + "\"rounds\":[" + String.join(",", rounds) + "]}");
            return Records.record(id, "m").group(id).category("c").outcome(outcome).predicted(option).groundTruth("B")
                    .answer(option).option(option).confidence(0.5).uncertainty(0.5).rounds(rounds.length - 1)
                    .termination("fixed_rounds").promptTokens(1).completionTokens(1).calls(1).millis(1).rule("method")
                    .backend("scripted").trace(t).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test void perQuestionOutcomesCompareTheRoundZeroDecisionWithTheGradedFinalAnswer() {
        List<ResultRecord> rs = List.of(
                rec("wr", "correct", "B", round(0, "A", "A", "A"), round(1, "B", "B", "B")),
                rec("rw", "wrong", "C", round(1, "C", "C", "C"), round(0, "B", "B", "C")),   // rounds out of order on purpose
                rec("rr", "correct", "B", round(0, "B", "B", "A"), round(1, "B", "B", "B")),
                rec("ww", "wrong", "C", round(0, "A", "A", "A"), round(1, "C", "C", "C")),
                rec("consensus", "correct", "B"),                                               // no rounds: nothing changed
                rec("round0", "correct", "B", round(0, "B", "B", "B")));                         // decided in round 0, not debated
        FlipAccounting.Flips f = FlipAccounting.of(rs);
        assertThat(f.questions()).as("the debated questions").isEqualTo(4);
        assertThat(f.undebated()).as("never counted as r→r (issue 42)").isEqualTo(2);
        assertThat(f.wrongToRight()).isEqualTo(1);
        assertThat(f.rightToWrong()).isEqualTo(1);
        assertThat(f.rightToRight()).isEqualTo(1);
        assertThat(FlipAccounting.flipOf(rs.get(5))).isNull();
        assertThat(FlipAccounting.flipOf(rs.get(2))).isEqualTo("r→r");
        assertThat(f.wrongToWrong()).isEqualTo(1);
        assertThat(f.changed()).isEqualTo(3);
        // agent transitions: wr 2 (A→B twice: 2 w→r), rw 2 (B→C: r→w once; C→C), rr 2 (A→B w→r; B→B), ww 2 (A→C twice)
        assertThat(f.agents()).isEqualTo(new FlipAccounting.AgentChanges(8, 6, 3, 1));
    }

    @Test void methodsThatRecordNoDecisionHaveNoFlips() {
        assertThat(FlipAccounting.of(List.of(rec("s", "correct", "B", round(0, null, "B"))))).isNull();
    }
}
