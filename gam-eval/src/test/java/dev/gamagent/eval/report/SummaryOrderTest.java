package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A summary depends on the answers, not on the order they arrived in (a run resumed after a kill stores them in another). */
class SummaryOrderTest {
    private static ResultRecord record(int i, double uSys) throws Exception {
        JsonNode trace = Json.MAPPER.readTree("{\"rounds\":[{\"k\":0,\"U_sys\":" + uSys + "},{\"k\":1,\"U_sys\":" + uSys / 3 + "}]}");
        return Records.record("q" + i, "gam").group("q" + i).category("cat" + i % 3)
                .outcome(i % 2 == 0 ? "correct" : "wrong").predicted("A").groundTruth("A").answer("a").option("A")
                .confidence(0.1 * (i % 10)).uncertainty(uSys).rounds(1).termination("uncertainty").promptTokens(10)
                .completionTokens(1).calls(6).millis(5).rule("vlmevalkit-2026:option").backend("scripted")
                .trace(trace).build();
    }

    private static String summary(List<ResultRecord> rs) {
        RunSummary s = RunSummary.compute("b.tsv", List.of("gam"), false, rs.size(), List.of(), rs, PriceTable.from(Config.defaults()), 0.5, null);
        return Json.write(s.metrics());
    }

    @Test void theSameAnswersInAnyOrderGiveTheSameSummaryToTheLastBit() throws Exception {
        // 0.1 + 0.2 + 0.3 summed in another order differs in the last bit: the means of U_sys per round did
        double[] u = {0.1, 0.2, 0.3, 0.7, 0.11, 0.13, 0.17, 0.19, 0.23, 0.29, 0.31, 0.37};
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < 60; i++) rs.add(record(i, u[i % u.length] + i * 1e-3));
        String inOrder = summary(rs);
        List<ResultRecord> reversed = new ArrayList<>(rs);
        Collections.reverse(reversed);
        assertThat(summary(reversed)).isEqualTo(inOrder);
        for (long seed = 1; seed <= 5; seed++) {
            List<ResultRecord> shuffled = new ArrayList<>(rs);
            Collections.shuffle(shuffled, new Random(seed));
            assertThat(summary(shuffled)).as("shuffled with seed " + seed).isEqualTo(inOrder);
        }
    }
}
