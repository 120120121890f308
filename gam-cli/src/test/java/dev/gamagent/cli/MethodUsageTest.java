package dev.gamagent.cli;

import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one home of a method's usage in a run (the reproduction's bill and its paper table both read it). */
class MethodUsageTest {
    private static ResultRecord record(String method, String outcome, String error, long prompt, long completion, int calls, long millis) {
        return Records.record("q", method).group("q").category("c").outcome(outcome).predicted("A").groundTruth("A")
                .answer("a").option("A").confidence(0.5).uncertainty(0.5).termination("single").promptTokens(prompt)
                .completionTokens(completion).calls(calls).millis(millis).error(error).backend("local").build();
    }

    @Test
    void sumsTheMethodsAnsweredQuestionsLeavingOutErrorsAndOtherMethods() {
        List<ResultRecord> rs = List.of(record("gam", "correct", null, 100, 10, 3, 500), record("gam", "wrong", null, 50, 5, 2, 250),
                record("gam", "error", "timed out", 999, 999, 9, 9999), record("single", "correct", null, 7, 7, 1, 70));
        assertThat(MethodUsage.of("gam", rs)).isEqualTo(new MethodUsage(5, 150, 15, 750, 2, null));
        assertThat(MethodUsage.of("single", rs)).isEqualTo(new MethodUsage(1, 7, 7, 70, 1, null));
        assertThat(MethodUsage.of("vote", rs)).isEqualTo(new MethodUsage(0, 0, 0, 0, 0, null));
    }
}
