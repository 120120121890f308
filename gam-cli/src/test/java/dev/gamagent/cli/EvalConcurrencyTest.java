package dev.gamagent.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --concurrency and --max-concurrent: one follows from the other, and a cap is never silent. */
class EvalConcurrencyTest {
    @Test void withNeitherFlagAServerGetsEightQuestionsPerEndpointAndNoLimitOfItsOwn() {
        EvalConcurrency c = EvalConcurrency.resolve(null, null, 4, false, 2);
        assertThat(c.questions()).isEqualTo(32);
        assertThat(c.perEndpoint()).isEqualTo(EvalConcurrency.NO_LIMIT);
        assertThat(c.warnings()).isEmpty();
    }

    @Test void theBuiltInModelGetsOneQuestionPerCore() {
        assertThat(EvalConcurrency.resolve(null, null, 1, true, 2).questions()).isEqualTo(2);
        assertThat(EvalConcurrency.resolve(5, null, 1, true, 2).questions()).isEqualTo(5);
    }

    @Test void eitherFlagAloneSetsTheOther() {
        EvalConcurrency onlyLimit = EvalConcurrency.resolve(null, 64, 4, false, 2);
        assertThat(onlyLimit.questions()).isEqualTo(256);
        assertThat(onlyLimit.perEndpoint()).isEqualTo(64);
        EvalConcurrency onlyQuestions = EvalConcurrency.resolve(64, null, 1, false, 2);
        assertThat(onlyQuestions.questions()).isEqualTo(64);
        assertThat(onlyQuestions.perEndpoint()).isEqualTo(EvalConcurrency.NO_LIMIT);
        assertThat(onlyQuestions.warnings()).isEmpty();
    }

    @Test void aLimitThatCapsTheQuestionsIsWarnedAboutWithTheNumbersToUse() {
        EvalConcurrency c = EvalConcurrency.resolve(64, 8, 2, false, 2);
        assertThat(c.questions()).isEqualTo(64);
        assertThat(c.perEndpoint()).isEqualTo(8);
        assertThat(c.warnings()).singleElement().asString()
                .contains("--max-concurrent 8 × 2 endpoints allows 16 requests in flight, fewer than the 64 questions")
                .contains("raise it to 32").contains("lower --concurrency to 16");
        assertThat(EvalConcurrency.resolve(16, 8, 2, false, 2).warnings()).isEmpty();
    }

    @Test void nonPositiveValuesAreRefusedNamingTheFlag() {
        assertThatThrownBy(() -> EvalConcurrency.resolve(0, null, 1, false, 2)).hasMessageContaining("--concurrency");
        assertThatThrownBy(() -> EvalConcurrency.resolve(null, -1, 1, false, 2)).hasMessageContaining("--max-concurrent");
    }
}
