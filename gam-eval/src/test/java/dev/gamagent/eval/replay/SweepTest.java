package dev.gamagent.eval.replay;

import dev.gamagent.influence.StoppingRule;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SweepTest {
    /** A recorded 3-round debate; ground truth B. Round answers: 0 → A, 1 → B, 2 → A (by distributions), 3 → B. */
    static ResultRecord recorded() throws Exception {
        JsonNode trace = Json.MAPPER.readTree("""
                {"rounds": [
                  {"k":0,"U_sys":0.6,"conflict":0.2,"agents":[
                     {"id":"e1","option":"A","weight":0.6,"tokens":{"prompt":5,"completion":0}},
                     {"id":"e2","option":"B","weight":0.4,"tokens":{"prompt":5,"completion":0}}]},
                  {"k":1,"U_sys":0.3,"conflict":0.1,"agents":[
                     {"id":"e1","option":"B","weight":0.3,"tokens":{"prompt":5,"completion":0}},
                     {"id":"e2","option":"B","weight":0.7,"tokens":{"prompt":5,"completion":0}}]},
                  {"k":2,"U_sys":0.12,"conflict":0.1,"agents":[
                     {"id":"e1","option":"B","weight":0.5,"optionDistribution":{"A":0.2,"B":0.8},"tokens":{"prompt":5,"completion":0}},
                     {"id":"e2","option":"A","weight":0.5,"optionDistribution":{"A":0.9,"B":0.1},"tokens":{"prompt":5,"completion":0}}]},
                  {"k":3,"U_sys":0.11,"conflict":0.0,"agents":[
                     {"id":"e1","option":"B","weight":1.0,"tokens":{"prompt":10,"completion":0}}]}
                ]}""");
        return Records.record("1", "gam").group("1").category("c").l2Category("l").outcome("correct").predicted("B")
                .groundTruth("B").answer("b").option("B").confidence(0.8).uncertainty(0.11).rounds(3)
                .termination("max_rounds").promptTokens(40).calls(9).millis(100).rule("method").backend("local")
                .trace(trace).build();
    }

    /** The same debate recorded under the given {@code gam.ablation.*} switch (its trace's config says so). */
    static ResultRecord recordedWith(String ablation) throws Exception {
        ResultRecord r = recorded();
        com.fasterxml.jackson.databind.node.ObjectNode trace = (com.fasterxml.jackson.databind.node.ObjectNode) r.trace().json();
        trace.putObject("config").put("record_full", true).putObject("ablation").put(ablation, true);
        return r;
    }

    private static Sweep.Result one(double term, double u, double c, double eps, int k) throws Exception {
        return Sweep.run(List.of(recorded()), List.of(new StoppingRule(u, c, term, eps, k, 0))).get(0);
    }

    @Test void theDefaultThresholdsStopWhenUncertaintyFallsBelowThetaTerm() throws Exception {
        Sweep.Result r = one(0.15, 0.5, 0.6, 0.01, 3);  // U: .6 → .3 → .12 < .15 at round 2; A .55 vs B .45
        assertThat(r.meanRounds()).isEqualTo(2);
        assertThat(r.terminations()).containsOnlyKeys("uncertainty");
        assertThat(r.accuracy()).isEqualTo(0.0);
        assertThat(r.tokensPerQuestion()).isEqualTo(30);
    }

    @Test void aHigherThetaTermStopsEarlierAndTakesThatRoundsWeightedAnswer() throws Exception {
        Sweep.Result r = one(0.35, 0.5, 0.6, 0.01, 3);
        assertThat(r.meanRounds()).isEqualTo(1);
        assertThat(r.accuracy()).isEqualTo(1.0);
        assertThat(r.tokensPerQuestion()).isEqualTo(20);
    }

    @Test void noTriggerMeansTheRoundZeroAnswer() throws Exception {
        Sweep.Result r = one(0.15, 0.7, 0.6, 0.01, 3);  // U0 .6 ≤ .7 and C0 .2 ≤ .6
        assertThat(r.triggerRate()).isZero();
        assertThat(r.terminations()).containsOnlyKeys("consensus");
        assertThat(r.accuracy()).isEqualTo(0.0);
        assertThat(r.tokensPerQuestion()).isEqualTo(10);
        assertThat(one(0.15, 0.7, 0.1, 0.01, 3).triggerRate()).isEqualTo(1.0); // conflict .2 > θ_C .1 triggers
    }

    @Test void stagnationAndMaxRoundsAreReDecidedToo() throws Exception {
        Sweep.Result stag = one(0.1, 0.5, 0.6, 0.05, 3);  // |.11 − .12| < .05 at round 3
        assertThat(stag.terminations()).containsOnlyKeys("stagnation");
        assertThat(stag.meanRounds()).isEqualTo(3);
        assertThat(stag.accuracy()).isEqualTo(1.0);
        Sweep.Result max = one(0.1, 0.5, 0.6, 0.001, 2);
        assertThat(max.terminations()).containsOnlyKeys("max_rounds");
        assertThat(max.accuracy()).isEqualTo(0.0);
    }

    // ---- issue 26, item 5: a run recorded with an ablation is re-decided with it ----

    @Test void aRunRecordedWithFixedRoundsKeepsItsTriggerAndRunsToKMax() throws Exception {
        // default thresholds would stop at round 2 on uncertainty (A); fixed_rounds runs to K_max = 3 (B)
        Sweep.Result r = Sweep.run(List.of(recordedWith("fixed_rounds")), List.of(new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 0))).get(0);
        assertThat(r.meanRounds()).isEqualTo(3);
        assertThat(r.terminations()).containsOnlyKeys("fixed_rounds");
        assertThat(r.accuracy()).isEqualTo(1.0);
        assertThat(r.incomplete()).isZero();
    }

    @Test void aRunRecordedWithNoDebateIsNeverDebated() throws Exception {
        Sweep.Result r = Sweep.run(List.of(recordedWith("no_debate")), List.of(new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 0))).get(0);
        assertThat(r.meanRounds()).isZero();
        assertThat(r.terminations()).containsOnlyKeys("consensus");
        assertThat(r.tokensPerQuestion()).isEqualTo(10);
    }

    @Test void aRunRecordedWithoutUncertaintyStopsWhenTheChosenAnswersAgree() throws Exception {
        // θ_C 0.1 < C0 0.2 triggers; round 1: both experts chose B, so the ablation's stop ends the debate there
        Sweep.Result r = Sweep.run(List.of(recordedWith("no_uncertainty")), List.of(new StoppingRule(0.5, 0.1, 0.15, 0.01, 3, 0))).get(0);
        assertThat(r.meanRounds()).isEqualTo(1);
        assertThat(r.terminations()).containsOnlyKeys("agreement");
        assertThat(r.accuracy()).isEqualTo(1.0);
        // U_sys 0.6 > θ_U says nothing under the ablation: with θ_C above C0 there is no debate
        Sweep.Result calm = Sweep.run(List.of(recordedWith("no_uncertainty")), List.of(new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 0))).get(0);
        assertThat(calm.meanRounds()).isZero();
    }

    @Test void aSettingThatWouldDebateLongerThanRecordedIsFlaggedIncomplete() throws Exception {
        Sweep.Result r = one(0.05, 0.5, 0.6, 0.001, 5);
        assertThat(r.incomplete()).isEqualTo(1);
        assertThat(r.meanRounds()).isEqualTo(3);
        assertThat(Sweep.grid(List.of(0.1, 0.2), List.of(0.5), List.of(0.6, 0.7), List.of(0.01), List.of(3))).hasSize(4);
    }
}
