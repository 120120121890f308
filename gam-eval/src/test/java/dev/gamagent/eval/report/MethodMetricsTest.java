package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MethodMetricsTest {
    /** A trace round: k, U_sys, then agents as (id, weight, prompt tokens, completion tokens) quadruples. */
    static String round(int k, double u, Object... agents) {
        StringBuilder sb = new StringBuilder("{\"k\":" + k + ",\"U_sys\":" + u + ",\"conflict\":0.1,\"agents\":[");
        for (int i = 0; i < agents.length; i += 4) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":\"").append(agents[i]).append("\",\"weight\":").append(agents[i + 1])
                    .append(",\"tokens\":{\"prompt\":").append(agents[i + 2]).append(",\"completion\":").append(agents[i + 3]).append("}}");
        }
        return sb.append("]}").toString();
    }

    static JsonNode trace(String branch, String... rounds) {
        try {
            return Json.MAPPER.readTree("{\"rounds\":[" + String.join(",", Arrays.asList(rounds)) + "]"
                    + (branch == null ? "" : ",\"extra\":{\"branch\":\"" + branch + "\"}") + "}");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ResultRecord rec(String id, String outcome, double conf, double unc, int rounds, String term, long p, long c, long ms, JsonNode trace) {
        return Records.record(id, "gam").group(id).category("cat").l2Category("l2").outcome(outcome).predicted("A")
                .groundTruth("A").answer("a").option("A").confidence(conf).uncertainty(unc).rounds(rounds)
                .termination(term).promptTokens(p).completionTokens(c).calls(3).millis(ms).rule("method")
                .backend("local").trace(trace).build();
    }

    static List<ResultRecord> records() {
        return List.of(
                rec("1", "correct", 0.9, 0.1, 0, "consensus", 100, 20, 1000,
                        trace(null, round(0, 0.2, "e1", 0.5, 50, 10, "e2", 0.5, 30, 10))),
                rec("2", "wrong", 0.6, 0.5, 2, "uncertainty", 300, 120, 3000,
                        trace("MixRes", round(0, 0.6, "e1", 0.7, 40, 10, "e2", 0.3, 40, 10),
                                round(1, 0.3, "e1", 0.6, 60, 20, "e2", 0.4, 60, 20),
                                round(2, 0.1, "e1", 0.8, 60, 20, "e2", 0.2, 60, 20))),
                rec("3", "error", 0, 1, 0, null, 0, 0, 500, null),
                rec("4", "unmatched", 0.5, 0.7, 1, "max_rounds", 200, 0, 2000,
                        trace("StaticAll", round(0, 0.9, "e1", 0.5, 100, 0, "e2", 0.5, 0, 0),
                                round(1, 0.8, "e1", 0.5, 50, 0, "e2", 0.5, 50, 0))));
    }

    @Test void everyMetricMatchesTheHandComputedValue() {
        MethodMetrics m = MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(m.records()).isEqualTo(4);
        assertThat(m.errors()).isEqualTo(1);
        assertThat(m.unmatched()).isEqualTo(1);
        assertThat(m.groups()).isEqualTo(3);                     // the errored question is not graded
        assertThat(m.accuracy()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(m.promptTokensPerQuestion()).isCloseTo(200, within(1e-12));          // (100+300+200)/3
        assertThat(m.completionTokensPerQuestion()).isCloseTo(140.0 / 3, within(1e-12)); // (20+120+0)/3
        // per-round cumulative: q1 [100], q2 [100, 260, 420], q4 [100, 200]
        assertThat(m.cumulativeTokensPerRound()).containsExactly(100.0, 560.0 / 3, 240.0);
        assertThat(m.callsPerQuestion()).isEqualTo(3);
        assertThat(m.secondsPerQuestion()).isCloseTo(2.0, within(1e-12));
        assertThat(m.costPerQuestion()).isCloseTo(4.10 * 2.0 / 3600, within(1e-12));
        assertThat(m.debateTriggerRate()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(m.meanRounds()).isCloseTo(1.0, within(1e-12));
        assertThat(m.terminations()).containsExactlyInAnyOrderEntriesOf(Map.of("consensus", 1L, "uncertainty", 1L, "max_rounds", 1L));
        assertThat(m.branchShares()).containsExactlyInAnyOrderEntriesOf(Map.of("MixRes", 1.0 / 3, "StaticAll", 1.0 / 3));
        // ECE: bins 9 (.9, right), 6 (.6, wrong), 5 (.5, wrong): (.1 + .6 + .5)/3
        assertThat(m.ece()).isCloseTo(0.4, within(1e-12));
        // uncertainty .1 (right) below both wrong ones .5, .7
        assertThat(m.auroc()).isEqualTo(1.0);
        // θ_U = .5 flags only .7: TPR 1/2, TNR 1
        assertThat(m.balancedAccuracy()).isCloseTo(0.75, within(1e-12));
        // U0 = .2, .6, .9 vs rounds 0, 2, 1: ranks (1,2,3) vs (1,3,2): ρ = 1/2
        assertThat(m.spearmanInitialUncertaintyVsRounds()).isCloseTo(0.5, within(1e-12));
        assertThat(m.spearmanN()).isEqualTo(3);
        assertThat(m.uSysPerRound().get(0)).isCloseTo(1.7 / 3, within(1e-12));
        assertThat(m.uSysPerRound().get(1)).isCloseTo(0.55, within(1e-12));
        assertThat(m.uSysPerRound().get(2)).isCloseTo(0.1, within(1e-12));
        assertThat(m.weightsPerRound().get("e1").get(0)).isCloseTo(1.7 / 3, within(1e-12));
        assertThat(m.weightsPerRound().get("e1").get(1)).isCloseTo(0.55, within(1e-12));
        assertThat(m.weightsPerRound().get("e2").get(2)).isCloseTo(0.2, within(1e-12));
    }

    @Test void cachedAndComputedPromptTokensAreMeansOverAnswersAndAbsentUnlessAServerReportedThem() {
        // two answers reported 600 and 0 cached tokens; the third's server reported none: it counts as computed in full
        List<ResultRecord> rs = List.of(
                Records.record("1", "debate").outcome("correct").promptTokens(1000).calls(2).cachedPromptTokens(600L).build(),
                Records.record("2", "debate").outcome("wrong").promptTokens(800).calls(2).cachedPromptTokens(0L).build(),
                Records.record("3", "debate").outcome("correct").promptTokens(900).calls(2).build(),
                Records.record("4", "debate").outcome("error").promptTokens(0).calls(0).cachedPromptTokens(50L).build());
        MethodMetrics m = MethodMetrics.of("debate", rs, PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(m.promptTokensPerQuestion()).as("sent").isEqualTo(900.0);
        assertThat(m.cachedPromptTokensPerQuestion()).isEqualTo(200.0);
        assertThat(m.computedPromptTokensPerQuestion()).isEqualTo(700.0);
        MethodMetrics none = MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(none.cachedPromptTokensPerQuestion()).isNull();
        assertThat(none.computedPromptTokensPerQuestion()).isNull();
        assertThat(Json.write(none)).doesNotContain("cachedPromptTokensPerQuestion", "computedPromptTokensPerQuestion");
        assertThat(Json.write(m)).contains("\"cachedPromptTokensPerQuestion\":200.0", "\"computedPromptTokensPerQuestion\":700.0");
    }

    @Test void aDreamBranchRecordedAsAnObjectIsReadByItsName() throws Exception {
        JsonNode t = Json.MAPPER.readTree("{\"extra\":{\"branch\":{\"name\":\"PerAgent\",\"scales\":[0.5,2]}}}");
        assertThat(MethodMetrics.branchOf(rec("9", "correct", 1, 0, 0, "consensus", 0, 0, 0, t))).isEqualTo("PerAgent");
    }

    @Test void aCircularGroupCountsOnlyWhenEveryRotationIsRightAndNoneFailed() {
        List<ResultRecord> rs = List.of(
                Records.record("1", "m").group("1").category("c").l2Category("l").outcome("correct").predicted("A")
                        .groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("1#r1", "m").group("1").rotation(1).category("c").l2Category("l").outcome("correct")
                        .predicted("A").groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("2", "m").group("2").category("c").l2Category("l").outcome("correct").predicted("A")
                        .groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("2#r1", "m").group("2").rotation(1).category("c").l2Category("l").outcome("wrong")
                        .predicted("B").groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("3", "m").group("3").category("c").l2Category("l").outcome("correct").predicted("A")
                        .groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("3#r1", "m").group("3").rotation(1).category("c").l2Category("l").outcome("error")
                        .groundTruth("A").uncertainty(1).millis(1).error("x").backend("x").build());
        MethodMetrics m = MethodMetrics.of("m", rs, PriceTable.from(Config.defaults()), 0.5, true);
        assertThat(m.groups()).isEqualTo(2);
        assertThat(m.accuracy()).isEqualTo(0.5);
        assertThat(m.vanillaAccuracy()).isEqualTo(1.0); // rotation 0 of all three questions was right
    }

    @Test void accuracyCarriesItsWilsonIntervalOverGradedItemsNotRows() {
        MethodMetrics m = MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(m.accuracyCi()).as("1 right of 3 graded (the error is left out)")
                .isEqualTo(dev.gamagent.eval.stats.Binomial.wilson(1, 3, 0.95));
        List<ResultRecord> circular = List.of(
                Records.record("1", "m").group("1").category("c").l2Category("l").outcome("correct").predicted("A")
                        .groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("1#r1", "m").group("1").rotation(1).category("c").l2Category("l").outcome("correct")
                        .predicted("A").groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("2", "m").group("2").category("c").l2Category("l").outcome("correct").predicted("A")
                        .groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build(),
                Records.record("2#r1", "m").group("2").rotation(1).category("c").l2Category("l").outcome("wrong")
                        .predicted("B").groundTruth("A").confidence(1).calls(1).millis(1).backend("x").build());
        MethodMetrics c = MethodMetrics.of("m", circular, PriceTable.from(Config.defaults()), 0.5, true);
        assertThat(c.accuracyCi()).as("two circular groups, one right: not 3 of 4 rows")
                .isEqualTo(dev.gamagent.eval.stats.Binomial.wilson(1, 2, 0.95));
        assertThat(MethodMetrics.gradedItems(circular)).containsExactly(Map.entry("1", true), Map.entry("2", false));
    }

    /** The built-in model runs on the CPU: a GPU's hourly rate would price 9 calls below 3 (issue 27). */
    @Test void theBuiltInModelHasNoDollarsUnlessTheUserGivesARate() {
        List<ResultRecord> rs = List.of(Records.record("1", "vote").group("1").category("c").l2Category("l")
                .outcome("correct").predicted("A").groundTruth("A").answer("a").option("A").confidence(0.9)
                .uncertainty(0.1).termination("single").promptTokens(100).completionTokens(10).calls(3).millis(7_200)
                .rule("method").backend("local:gam-perception").build());
        MethodMetrics unpriced = MethodMetrics.of("vote", rs, PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(unpriced.costPerQuestion()).isNull();
        assertThat(unpriced.costBasis()).isEqualTo(PriceTable.UNPRICED);
        MethodMetrics priced = MethodMetrics.of("vote", rs, PriceTable.from(Config.defaults().with("eval.gpu_hour_rate", "2")), 0.5, false);
        assertThat(priced.costPerQuestion()).isCloseTo(2 * 7.2 / 3600, within(1e-15));
        // a self-hosted server without a price keeps the GPU-hour default
        assertThat(PriceTable.from(Config.defaults()).cost("openai:Qwen2.5-VL-7B", 0, 0, 3_600_000).dollars()).isEqualTo(4.10);
        assertThat(PriceTable.from(Config.defaults()).cost("openai:gam-perception", 0, 0, 3_600_000).basis()).isEqualTo(PriceTable.UNPRICED);
    }

    @Test void uncertaintyMetricsThatAreHalfByConstructionAreHiddenWithTheReason() {
        List<ResultRecord> calm = List.of(
                rec("1", "correct", 0.9, 0.10, 0, "single", 1, 1, 1, null),
                rec("2", "wrong", 0.9, 0.30, 0, "single", 1, 1, 1, null),
                rec("3", "correct", 0.9, 0.20, 0, "single", 1, 1, 1, null));
        MethodMetrics m = MethodMetrics.of("single", calm, PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(Calibration.balancedAccuracy(new double[]{0.1, 0.3, 0.2}, new boolean[]{false, true, false}, 0.5)).as("what it hid").isEqualTo(0.5);
        assertThat(m.balancedAccuracy()).isNull();
        assertThat(m.uncertaintyNote()).contains("θ_U = 0.5", "highest 0.300", "nothing is flagged");
        assertThat(m.auroc()).as("U still ranks the answers").isEqualTo(1.0);
        List<ResultRecord> flat = List.of(rec("1", "correct", 0.9, 0.0, 0, "single", 1, 1, 1, null),
                rec("2", "wrong", 0.9, 0.0, 0, "single", 1, 1, 1, null));
        MethodMetrics f = MethodMetrics.of("single", flat, PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(f.auroc()).isNull();
        assertThat(f.uncertaintyNote()).startsWith("the same U for every answer (0.000)");
        assertThat(MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false).uncertaintyNote()).isNull();
    }

    /**
     * DREAM's probes run before round 0, and a probe that asked exactly an agent's round-0 request is that agent's round-0
     * answer (reused): the curve counts it once, in round 0, as the record's own total does (issue 42: 13,184 vs 10,930).
     */
    @Test void theCumulativeTokenCurveCountsTheProbeRoundOnceWithoutTheReusedProbes() throws Exception {
        JsonNode probed = Json.MAPPER.readTree("{\"rounds\":[" + round(0, 0.2, "e1", 0.5, 50, 10, "e2", 0.5, 30, 10) + ","
                + round(1, 0.1, "e1", 0.5, 20, 0, "e2", 0.5, 20, 0) + "],\"extra\":{\"branch\":\"PerAgent\",\"probes\":["
                + "{\"agent\":\"e1\",\"tokens\":{\"prompt\":300,\"completion\":5}},"
                + "{\"agent\":\"e1\",\"reused\":true,\"tokens\":{\"prompt\":50,\"completion\":10}},"
                + "{\"agent\":\"e2\",\"tokens\":{\"prompt\":190,\"completion\":5}}]}}");
        JsonNode consensus = Json.MAPPER.readTree("{\"rounds\":[],\"extra\":{\"branch\":\"Consensus\",\"probes\":["
                + "{\"agent\":\"e1\",\"tokens\":{\"prompt\":100,\"completion\":0}}]}}");
        // q1: probe round 500 (the reused 60 are round 0's), round 0 100, round 1 40: 640 in all, its record's total
        MethodMetrics m = MethodMetrics.of("dream+gam", List.of(rec("1", "correct", 0.9, 0.1, 1, "uncertainty", 610, 30, 1, probed),
                rec("2", "correct", 0.9, 0.1, 0, "consensus", 100, 0, 1, consensus)), PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(m.probeTokensPerQuestion()).isEqualTo((500 + 100) / 2.0);
        // q1: 500 + 100 = 600 after round 0, 640 after round 1; q2: its 100 probe tokens throughout
        assertThat(m.cumulativeTokensPerRound()).containsExactly(350.0, 370.0);
        assertThat(m.cumulativeTokensPerRound().get(1)).as("the table's tokens per question")
                .isEqualTo(m.promptTokensPerQuestion() + m.completionTokensPerQuestion());
        assertThat(MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false).probeTokensPerQuestion()).isNull();
        // DREAM's own account of the probe round, when recorded, is the one read
        JsonNode withUsage = Json.MAPPER.readTree(probed.toString().replace("\"branch\":\"PerAgent\"",
                "\"branch\":\"PerAgent\",\"probe_usage\":{\"prompt\":480,\"completion\":10,\"calls\":2,\"reused_as_round_0\":1}"));
        assertThat(TokenCurve.probeTokens(rec("1", "correct", 0.9, 0.1, 1, "uncertainty", 630, 0, 1, withUsage))).isEqualTo(490);
    }

    /** A trace with neither rounds nor probes accounts for nothing: its tokens count at round 0, so the curve still ends at the table's figure. */
    @Test void aQuestionWhoseTraceAccountsForNothingCountsItsTokensAtRoundZero() {
        MethodMetrics m = MethodMetrics.of("single", List.of(rec("1", "correct", 0.9, 0.1, 0, "single", 70, 30, 1, null),
                rec("2", "correct", 0.9, 0.1, 0, "single", 150, 50, 1, trace(null, round(0, 0.2, "e1", 1, 150, 50)))),
                PriceTable.from(Config.defaults()), 0.5, false);
        assertThat(m.cumulativeTokensPerRound()).containsExactly(150.0);
    }

    /**
     * Per-round figures over the debated questions only (issue 42: the debated questions went 0.023 → 0.004 while a mean
     * over every question's round 0 showed 0.011 → 0.004), with n per round; the undebated ones stay apart.
     */
    @Test void perRoundFiguresFollowTheDebatedQuestionsWithTheirNumber() {
        MethodMetrics m = MethodMetrics.of("gam", records(), PriceTable.from(Config.defaults()), 0.5, false);
        MethodMetrics.DebateRounds d = m.debateRounds();
        assertThat(d.questions()).isEqualTo(2);   // q2 (rounds 0–2) and q4 (rounds 0–1); q3 failed
        assertThat(d.undebated()).isEqualTo(1);   // q1 stopped in round 0
        assertThat(d.uSys().mean().get(0)).isCloseTo((0.6 + 0.9) / 2, within(1e-12));
        assertThat(d.uSys().mean().get(1)).isCloseTo((0.3 + 0.8) / 2, within(1e-12));
        assertThat(d.uSys().mean().get(2)).isCloseTo(0.1, within(1e-12));
        assertThat(d.uSys().n()).containsExactly(2, 2, 1);
        assertThat(d.undebatedUSys().mean()).containsExactly(0.2);
        assertThat(d.undebatedUSys().n()).containsExactly(1);
        assertThat(d.weights().get("e1").mean().get(0)).isCloseTo((0.7 + 0.5) / 2, within(1e-12));
        assertThat(d.weights().get("e2").n()).containsExactly(2, 2, 1);
        // the old mean over every question that reached round 0 mixes in the undebated q1
        assertThat(m.uSysPerRound().get(0)).isCloseTo(1.7 / 3, within(1e-12));
        List<ResultRecord> calm = List.of(rec("1", "correct", 0.9, 0.1, 0, "consensus", 1, 1, 1, trace(null, round(0, 0.2, "e1", 0.5, 1, 1, "e2", 0.5, 1, 1))));
        assertThat(MethodMetrics.of("gam", calm, PriceTable.from(Config.defaults()), 0.5, false).debateRounds()).as("nothing debated").isNull();
    }
}
