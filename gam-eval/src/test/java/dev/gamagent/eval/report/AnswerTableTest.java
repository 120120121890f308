package dev.gamagent.eval.report;

import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The question × method table: one row per graded item, and its CSV reads back field for field. */
class AnswerTableTest {
    static ResultRecord rec(String id, int rotation, String method, String predicted, String outcome, long tokens, int rounds) {
        return Records.record(rotation == 0 ? id : id + "#r" + rotation, method).group(id).rotation(rotation).category("c").outcome(outcome)
                .predicted(predicted).groundTruth("A, \"the\" first").answer("a").option("A").confidence(0.8).uncertainty(0.2)
                .termination("single").promptTokens(tokens).completionTokens(0).calls(1).millis(5).rule("vlmevalkit-2026:option")
                .backend("scripted").rounds(rounds).build();
    }

    @Test void csvQuotesAsRfc4180AndReadsBackOneRowPerQuestion() throws Exception {
        List<ResultRecord> rs = List.of(
                rec("q1", 0, "single", "say \"A\", then\r\nstop", "correct", 10, 0),
                rec("q1", 0, "gam", "ünïcode ✓", "wrong", 30, 2),
                rec("q2", 0, "single", "B", "wrong", 12, 0),
                rec("q2", 1, "single", "B", "correct", 13, 0), // a circular group: right only when every rotation is
                rec("q10", 0, "single", null, "error", 0, 0));
        AnswerTable t = AnswerTable.of(List.of(new ReportRun("", null, rs)), null);
        assertThat(t.series()).containsExactly("single", "gam");
        assertThat(t.rows()).extracting(AnswerTable.Row::id).containsExactly("q1", "q2", "q10");
        List<List<String>> csv = AnswerCsv.parse(t.csv());
        assertThat(csv).hasSize(4);
        assertThat(csv.get(0)).containsExactly("benchmark", "question", "answer", "single: prediction", "single: correct", "single: tokens",
                "single: rounds", "gam: prediction", "gam: correct", "gam: tokens", "gam: rounds");
        assertThat(csv.get(1)).containsExactly("", "q1", "A, \"the\" first", "say \"A\", then\r\nstop", "1", "10", "0", "ünïcode ✓", "0", "30", "2");
        assertThat(csv.get(2)).containsExactly("", "q2", "A, \"the\" first", "B", "0", "25", "0", "", "", "", "");
        assertThat(csv.get(3)).containsExactly("", "q10", "A, \"the\" first", "", "", "0", "0", "", "", "", "");
        // JSON Lines: the same rows
        List<String> lines = t.jsonl().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(Json.MAPPER.convertValue(Json.MAPPER.readTree(lines.get(0)).at("/methods/gam"), AnswerTable.Cell.class))
                .isEqualTo(new AnswerTable.Cell("ünïcode ✓", false, 30, 2));
    }

    @Test void theReaderRefusesWhatIsNotRfc4180() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnswerCsv.parse(AnswerTable.BOM + "a,b\"c\r\n")).hasMessageContaining("bare quote");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnswerCsv.parse(AnswerTable.BOM + "a,b\n")).hasMessageContaining("bare LF");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnswerCsv.parse("a,b\r\n")).hasMessageContaining("byte-order mark");
    }
}
