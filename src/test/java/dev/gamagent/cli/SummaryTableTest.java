package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.eval.FlipAccountingTest;
import dev.gamagent.eval.PriceTable;
import dev.gamagent.eval.ResultRecord;
import dev.gamagent.eval.RunSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTableTest {
    @Test void debateMethodsShowTheirFlipsAndOtherMethodsADash() {
        List<ResultRecord> rs = List.of(
                FlipAccountingTest.rec("1", "correct", "B", FlipAccountingTest.round(0, "A", "A"), FlipAccountingTest.round(1, "B", "B")),
                FlipAccountingTest.rec("2", "wrong", "A", FlipAccountingTest.round(0, "B", "B"), FlipAccountingTest.round(1, "A", "A")),
                FlipAccountingTest.rec("3", "wrong", "A", FlipAccountingTest.round(0, "B", "B"), FlipAccountingTest.round(1, "A", "A")),
                FlipAccountingTest.rec("1", "correct", "B", FlipAccountingTest.round(0, null, "B")));
        List<ResultRecord> named = List.of(withMethod(rs.get(0), "debate"), withMethod(rs.get(1), "debate"),
                withMethod(rs.get(2), "debate"), withMethod(rs.get(3), "single"));
        RunSummary s = RunSummary.compute("x.tsv", List.of("single", "debate"), false, 3, List.of(), named,
                PriceTable.from(Config.defaults()), 0.5, null);
        String[] lines = SummaryTable.render(s).split("\n");
        assertThat(lines[0]).endsWith("w→r   r→w");
        assertThat(lines[1]).startsWith("single").endsWith("-     -");
        assertThat(lines[2]).startsWith("debate").endsWith("1     2");
    }

    private static ResultRecord withMethod(ResultRecord r, String m) {
        return new ResultRecord(r.questionId(), r.group(), r.rotation(), m, r.category(), r.l2Category(), r.outcome(), r.predicted(),
                r.groundTruth(), r.answer(), r.option(), r.confidence(), r.uncertainty(), r.rounds(), r.termination(), r.promptTokens(),
                r.completionTokens(), r.tokensEstimated(), r.calls(), r.millis(), r.rule(), r.error(), r.backend(), r.trace());
    }
}
