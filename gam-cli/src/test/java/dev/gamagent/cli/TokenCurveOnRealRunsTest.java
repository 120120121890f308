package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.MethodMetrics;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The cumulative-token plot ends, for every method, at the table's tokens per question (issue 42: DREAM's reused probes
 * were counted twice, 13,184 against the table's 10,930), on real runs of the built-in model: the demo's records, and
 * every other method users can pick on a few of the demo's questions (the demo's own methods are checked on the demo's
 * run, shared by the JVM, rather than run a second time).
 */
class TokenCurveOnRealRunsTest {
    @TempDir Path dir;

    private static Map<String, List<ResultRecord>> byMethod(List<ResultRecord> rs) {
        Map<String, List<ResultRecord>> out = new LinkedHashMap<>();
        for (ResultRecord r : rs) out.computeIfAbsent(r.method(), k -> new java.util.ArrayList<>()).add(r);
        return out;
    }

    private static void eachEndsAtTheTable(Map<String, List<ResultRecord>> methods) {
        for (var e : methods.entrySet()) {
            MethodMetrics m = MethodMetrics.of(e.getKey(), e.getValue(), PriceTable.from(Config.defaults()), 0.5, false);
            List<Double> curve = m.cumulativeTokensPerRound();
            assertThat(curve).as("%s has a curve", e.getKey()).isNotEmpty();
            assertThat(curve.get(curve.size() - 1)).as("%s: the curve's last point is the table's tokens per question", e.getKey())
                    .isCloseTo(m.promptTokensPerQuestion() + m.completionTokensPerQuestion(), within(1e-6));
            for (int k = 1; k < curve.size(); k++) assertThat(curve.get(k)).as("%s is cumulative", e.getKey()).isGreaterThanOrEqualTo(curve.get(k - 1));
        }
    }

    @Test void theDemosCurvesEndAtTheTablesTokensPerQuestion() {
        DemoRun demo = DemoRun.get();
        assertThat(demo.run().code()).as(demo.run().err()).isZero();
        List<ResultRecord> rs = ResultStore.read(demo.results().getParent());
        Map<String, List<ResultRecord>> methods = byMethod(rs.stream().filter(r -> !r.isError()).toList());
        assertThat(methods.keySet()).containsAll(DemoCommand.METHODS);
        // what made the plot wrong is in this run: DREAM answers whose round 0 reused probes
        assertThat(methods.get("dream+gam")).anyMatch(r -> r.trace().json().path("extra").path("probe_usage").path("reused_as_round_0").asInt() > 0);
        eachEndsAtTheTable(methods);
    }

    @Test void everyOtherMethodsCurveEndsAtTheTablesTokensPerQuestion() {
        // the demo's methods are checked above on the demo's run; together the two tests cover every listed method
        List<String> others = MethodRegistry.listed().stream().filter(m -> !DemoCommand.METHODS.contains(m)).toList();
        assertThat(others).as("methods users can pick beyond the demo's").isNotEmpty();
        CommandRun r = CommandRun.of(new EvalCommand(), "--data", Path.of("gam-bench/src/main/resources/bench/demo.tsv").toString(),
                "--methods", String.join(",", others), "--limit", "2", "--out", dir.toString(), "--backend", "local", "--concurrency", "2");
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, List<ResultRecord>> methods = byMethod(ResultStore.read(dir).stream().filter(x -> !x.isError()).toList());
        assertThat(methods.keySet()).containsExactlyInAnyOrderElementsOf(others);
        eachEndsAtTheTable(methods);
    }
}
