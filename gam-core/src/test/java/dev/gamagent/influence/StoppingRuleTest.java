package dev.gamagent.influence;

import dev.gamagent.api.Termination;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StoppingRuleTest {
    private final StoppingRule rule = new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 1000);

    @Test void theDebateStartsOnlyAboveEitherThreshold() {
        assertThat(rule.triggers(0.5, 0.6)).isFalse();
        assertThat(rule.triggers(0.51, 0.0)).isTrue();
        assertThat(rule.triggers(0.0, 0.61)).isTrue();
    }

    @Test void eachStoppingReasonFiresInItsOrder() {
        assertThat(rule.after(1, 0.10, 0.40, 0)).isEqualTo(Termination.UNCERTAINTY);
        assertThat(rule.after(1, 0.300, 0.305, 0)).isEqualTo(Termination.STAGNATION);
        assertThat(rule.after(3, 0.30, 0.40, 0)).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(rule.after(1, 0.30, 0.40, 1000)).isEqualTo(Termination.BUDGET);
        assertThat(rule.after(1, 0.30, 0.40, 999)).isNull();
        assertThat(new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 0).budgetSpent(Long.MAX_VALUE)).isFalse();
    }
}
