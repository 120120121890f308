package dev.gamagent.eval.report;

import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cost of a question whose agents ran on several backends, and the per-backend summary. */
class PanelCostTest {
    private static final PriceTable PRICES = PriceTable.from(Config.defaults()
            .with("eval.prices", "{\"gpt-4o\":{\"input\":2.5,\"output\":10}}").with("eval.gpu_hour_rate", "3.6"));

    private static ResultRecord record(long millis, Map<String, UsageMeter.Tally> used) {
        long p = used.values().stream().mapToLong(UsageMeter.Tally::promptTokens).sum();
        long c = used.values().stream().mapToLong(UsageMeter.Tally::completionTokens).sum();
        int calls = used.values().stream().mapToInt(UsageMeter.Tally::calls).sum();
        return Records.record("1", "gam").group("1").category("c").l2Category("l").outcome("correct").predicted("A")
                .groundTruth("A").answer("a").option("A").confidence(0.9).uncertainty(0.1).termination("consensus")
                .promptTokens(p).completionTokens(c).calls(calls).millis(millis).rule("exact")
                .backend("local:gam-perception").backends(used).build();
    }

    private static UsageMeter.Tally tally(String backend, long prompt, long completion) {
        return new UsageMeter.Tally(backend, null, 1, 0, prompt, completion, false);
    }

    @Test void eachBackendIsChargedOnItsOwnAndOneUnpricedServerOnceForTheWallTime() {
        Map<String, UsageMeter.Tally> used = new LinkedHashMap<>();
        used.put("cloud", tally("openai:gpt-4o", 1000, 100));
        used.put("default", tally("local:gam-perception", 300, 0));
        used.put("local", tally("local:gam-perception", 100, 0));
        ResultRecord r = record(10_000, used); // 10 s at $3.60/h = $0.01 of GPU time
        Map<String, PriceTable.Cost> costs = PRICES.costs(r);
        assertThat(costs.get("cloud").dollars()).isCloseTo((1000 * 2.5 + 100 * 10) / 1e6, within(1e-15));
        assertThat(costs.get("default").dollars()).as("the built-in model's one GPU charge, shared by tokens")
                .isCloseTo(0.01 * 0.75, within(1e-15));
        assertThat(costs.get("local").dollars()).isCloseTo(0.01 * 0.25, within(1e-15));
        assertThat(PRICES.cost(r).dollars()).isCloseTo(0.0035 + 0.01, within(1e-15));
        assertThat(PRICES.cost(r).basis()).isEqualTo("per backend: mixed");
    }

    @Test void aRecordOnOneBackendCostsWhatItCostBeforePanelsWereCounted() {
        ResultRecord one = record(7_200, Map.of("default", tally("openai:gpt-4o", 2000, 500)));
        ResultRecord old = Records.record("1", "gam").group("1").category("c").l2Category("l").outcome("correct")
                .predicted("A").groundTruth("A").answer("a").option("A").confidence(0.9).uncertainty(0.1)
                .termination("consensus").promptTokens(2000).completionTokens(500).calls(1).millis(7_200)
                .rule("exact").backend("openai:gpt-4o").build();
        assertThat(PRICES.cost(one)).isEqualTo(PRICES.cost(old));
        MethodMetrics m = MethodMetrics.of("gam", List.of(one), PRICES, 0.5, false);
        assertThat(m.backends()).as("only the default backend answered: no per-backend block").isNull();
    }

    @Test void theSummaryBreaksTokensCallsAndCostDownPerBackendOverAllQuestions() {
        Map<String, UsageMeter.Tally> both = new LinkedHashMap<>();
        both.put("cloud", tally("openai:gpt-4o", 1000, 100));
        both.put("local", tally("local:gam-perception", 400, 0));
        ResultRecord a = record(3_600, both), b = record(3_600, Map.of("local", tally("local:gam-perception", 200, 20)));
        MethodMetrics m = MethodMetrics.of("gam", List.of(a, b), PRICES, 0.5, false);
        MethodMetrics.BackendUse cloud = m.backends().get("cloud"), local = m.backends().get("local");
        assertThat(cloud.callsPerQuestion()).as("a question that did not use it counts 0").isEqualTo(0.5);
        assertThat(cloud.promptTokensPerQuestion()).isEqualTo(500);
        assertThat(cloud.costBasis()).isEqualTo("price table");
        assertThat(local.promptTokensPerQuestion()).isEqualTo(300);
        assertThat(local.costPerQuestion()).as("3.6 s at $3.60/h on each question").isCloseTo(0.0036, within(1e-12));
        assertThat(cloud.costPerQuestion() + local.costPerQuestion()).isCloseTo(m.costPerQuestion(), within(1e-12));
    }
}
