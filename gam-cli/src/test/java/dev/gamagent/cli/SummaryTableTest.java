package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.eval.report.FlipAccountingTest;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTableTest {
    private static RunSummary withCategories(int n) {
        List<ResultRecord> rs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            for (String m : List.of("single", "gam")) {
                rs.add(Records.record("q" + k, m).group("q" + k).category("Attribute Recognition " + k)
                        .l2Category("Finegrained Perception (instance-level)")
                        .outcome(k % 2 == 0 ? "correct" : "wrong").predicted("A").groundTruth("A").answer("a")
                        .option("A").confidence(0.5).uncertainty(0.5).termination("single").promptTokens(10)
                        .completionTokens(1).calls(1).millis(5).rule("vlmevalkit-2026:method").backend("local")
                        .build());
            }
        }
        return RunSummary.compute("b.tsv", List.of("single", "gam"), false, n, List.of(), rs, PriceTable.from(Config.defaults()), 0.5, null);
    }

    @Test void upToSixCategoriesAreColumnsWithFullNames() {
        String t = SummaryTable.render(withCategories(3));
        String header = t.lines().findFirst().orElseThrow();
        assertThat(header).contains("Attribute Recognition 0", "Attribute Recognition 2", "ECE");
        assertThat(t).contains("grading: vlmevalkit-2026");
    }

    /** MMBench has twenty categories: columns cut to eight characters ("Attribut Attribut") could not be read. */
    @Test void moreThanSixCategoriesGoToASecondTableOneRowEach() {
        String t = SummaryTable.render(withCategories(20));
        List<String> lines = t.lines().toList();
        assertThat(lines.get(0)).doesNotContain("Attribute").contains("method", "acc", "ECE");
        assertThat(lines.get(1)).startsWith("single").contains("50.0%");
        int second = lines.indexOf(lines.stream().filter(l -> l.startsWith("category")).findFirst().orElseThrow());
        assertThat(lines.get(second)).contains("n", "single", "gam");
        assertThat(lines.subList(second + 1, second + 21)).allMatch(l -> l.startsWith("Attribute Recognition "));
        assertThat(t).contains("Attribute Recognition 19").contains("l2-category").contains("Finegrained Perception (instance-level)");
        assertThat(t).doesNotContain("Attribut Attribut");
    }

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
        return Records.from(r).method(m).backends(null).build();
    }

    /** 20 questions: single right on the even ones; gam on those and on q1, q3, q5, q7, q9, q11. */
    @Test void theTableShowsEachAccuracysIntervalAndEveryPairsTest() {
        List<ResultRecord> rs = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            for (String m : List.of("single", "gam")) {
                boolean right = k % 2 == 0 || m.equals("gam") && k < 12;
                rs.add(Records.record("q" + k, m).group("q" + k).category("c").outcome(right ? "correct" : "wrong")
                        .predicted("A").groundTruth("A").answer("a").option("A").confidence(0.5).uncertainty(0.5)
                        .termination("single").promptTokens(10).completionTokens(1).calls(1).millis(5)
                        .rule("vlmevalkit-2026:method").backend("local").build());
            }
        }
        RunSummary s = RunSummary.compute("b.tsv", List.of("single", "gam"), false, 20, List.of(), rs, PriceTable.from(Config.defaults()), 0.5, null);
        String t = SummaryTable.render(s);
        List<String> lines = t.lines().toList();
        assertThat(lines.get(0)).contains("acc", "±95%");
        // Wilson 10/20: 29.9–70.1 %, half-width 20.1 points; 16/20: 58.4–91.9 %, half-width 16.8
        assertThat(lines.get(1)).startsWith("single").contains("50.0%  20.1");
        assertThat(lines.get(2)).startsWith("gam").contains("80.0%  16.8");
        assertThat(t).contains("±95%: half the width of accuracy's 95% interval (Wilson score)");
        assertThat(t).contains("pairs on the questions both answered (McNemar's exact test (two-sided)", "Holm's correction across the 1 pair");
        String pair = lines.stream().filter(l -> l.startsWith("gam vs single")).findFirst().orElseThrow();
        // 6 right only for gam, none only for single: p = 2/2^6 = 0.031; one pair, so Holm's p is the same
        assertThat(pair).contains("+30.0", "6 vs 0", "0.031", "significant").doesNotContain("n.s.");
    }
}
