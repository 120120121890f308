package dev.gamagent.eval.report;

import dev.gamagent.config.Config;
import dev.gamagent.eval.stats.Binomial;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** summary.json's intervals and pairwise block, computed from the records as the run counts them. */
class RunSummaryStatisticsTest {
    @TempDir Path dir;

    static ResultRecord rec(String method, String id, String category, String outcome) {
        return Records.record(id, method).group(id).category(category).outcome(outcome).predicted("A")
                .groundTruth("A").answer("a").option("A").confidence(0.8).uncertainty(0.2).termination("single")
                .promptTokens(10).completionTokens(1).calls(1).millis(5).rule("vlmevalkit-2026:method")
                .backend("scripted").build();
    }

    /** 20 questions: single right on 10; gam right on those and 6 more; vote answers only the first 12, right on 6. */
    static List<ResultRecord> records() {
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String cat = i < 10 ? "color" : "shape";
            rs.add(rec("single", "q" + i, cat, i % 2 == 0 ? "correct" : "wrong"));
            rs.add(rec("gam", "q" + i, cat, i % 2 == 0 || i < 12 ? "correct" : "wrong"));
            if (i < 12) rs.add(rec("vote", "q" + i, cat, i < 6 ? "correct" : "wrong"));
            else rs.add(rec("vote", "q" + i, cat, "error"));
        }
        return rs;
    }

    @Test void everyPairOfMethodsIsComparedOnTheQuestionsBothGraded() {
        RunSummary s = RunSummary.compute("b.tsv", List.of("single", "gam", "vote"), false, 20, List.of(), records(),
                PriceTable.from(Config.defaults()), 0.5, null);
        assertThat(s.metrics().get("single").accuracyCi()).isEqualTo(Binomial.wilson(10, 20, 0.95));
        assertThat(s.byCategory().get("gam").get("color").ci()).isEqualTo(Binomial.wilson(10, 10, 0.95));
        Pairwise.Report st = s.statistics();
        assertThat(st.interval()).isEqualTo("Wilson score");
        assertThat(st.pairs()).hasSize(3);
        Pairwise.Pair gamVsSingle = st.find("gam", "single");
        assertThat(gamVsSingle.method()).isEqualTo("gam");
        assertThat(gamVsSingle.n()).isEqualTo(20);
        assertThat(gamVsSingle.onlyMethod()).as("q1, q3, q5, q7, q9, q11").isEqualTo(6);
        assertThat(gamVsSingle.onlyVersus()).isZero();
        assertThat(gamVsSingle.difference()).isCloseTo(0.3, within(1e-15));
        assertThat(gamVsSingle.p()).isCloseTo(2.0 / 64, within(1e-15));
        Pairwise.Pair voteVsSingle = st.find("vote", "single");
        assertThat(voteVsSingle.n()).as("vote's errors are not graded: 12 shared questions").isEqualTo(12);
        assertThat(voteVsSingle.methodRight()).isEqualTo(6);
        assertThat(voteVsSingle.versusRight()).isEqualTo(6);
        assertThat(voteVsSingle.p()).isEqualTo(1.0);
        // Holm over the three pairs: the smallest p (gam vs vote: 6 vs 0 on 12) times 3
        Pairwise.Pair gamVsVote = st.find("gam", "vote");
        assertThat(gamVsVote.pHolm()).isCloseTo(3 * gamVsVote.p(), within(1e-15));
        assertThat(gamVsSingle.pHolm()).isCloseTo(Math.max(gamVsVote.pHolm(), 2 * gamVsSingle.p()), within(1e-15));
        assertThat(voteVsSingle.significant()).isFalse();

        RunSummary bootstrap = s.withIntervals(IntervalMethod.BOOTSTRAP, RunSummary.itemsByMethod(s.methods(), records()));
        assertThat(bootstrap.statistics().interval()).contains("bootstrap");
        assertThat(bootstrap.statistics().find("gam", "single").p()).as("the test does not change").isEqualTo(gamVsSingle.p());
        assertThat(bootstrap.metrics().get("single").accuracyCi()).isNotEqualTo(s.metrics().get("single").accuracyCi());
    }

    @Test void theStatisticsSurviveSummaryJson() {
        RunSummary s = RunSummary.compute("b.tsv", List.of("single", "gam", "vote"), false, 20, List.of(), records(),
                PriceTable.from(Config.defaults()), 0.5, null);
        Path f = dir.resolve("summary.json");
        s.write(f);
        RunSummary back = RunSummary.read(f);
        assertThat(back.statistics()).isEqualTo(s.statistics());
        assertThat(back.metrics().get("gam").accuracyCi()).isEqualTo(s.metrics().get("gam").accuracyCi());
        assertThat(back.byCategory()).isEqualTo(s.byCategory());
        assertThat(back.withoutRunData().statistics()).isEqualTo(s.statistics());
    }
}
