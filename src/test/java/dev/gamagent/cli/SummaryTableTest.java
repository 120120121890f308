package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.eval.PriceTable;
import dev.gamagent.eval.ResultRecord;
import dev.gamagent.eval.RunSummary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTableTest {
    private static RunSummary withCategories(int n) {
        List<ResultRecord> rs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            for (String m : List.of("single", "gam")) {
                rs.add(new ResultRecord("q" + k, "q" + k, 0, m, "Attribute Recognition " + k, "Finegrained Perception (instance-level)",
                        k % 2 == 0 ? "correct" : "wrong", "A", "A", "a", "A", 0.5, 0.5, 0, "single", 10, 1, false, 1, 5,
                        "vlmevalkit-2026:method", null, "local", null));
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
}
