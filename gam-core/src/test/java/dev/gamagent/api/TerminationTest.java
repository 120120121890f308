package dev.gamagent.api;

import dev.gamagent.backend.TokenCount;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import dev.gamagent.api.internal.AnswerJson;

/**
 * {@link Answer#termination()} is a {@link Termination}; what is written stays the label it was as a string, and the labels
 * stored before (results.jsonl, traces) read back as the same reason.
 */
class TerminationTest {

    @Test void everyReasonIsWrittenAsItsLabelAndReadBackFromIt() {
        for (Termination t : Termination.values()) {
            assertThat(Json.write(t)).isEqualTo("\"" + t.label() + "\"");
            assertThat(Json.write(Map.of("inner_termination", t))).isEqualTo("{\"inner_termination\":\"" + t.label() + "\"}");
            assertThat(Termination.fromLabel(t.label())).contains(t);
        }
        assertThat(Arrays.stream(Termination.values()).map(Termination::label)).containsExactly("consensus", "uncertainty",
                "stagnation", "max_rounds", "budget", "moderator", "single", "fixed_rounds", "agreement");
    }

    @Test void aLabelNoReasonHasReadsAsNone() {
        assertThat(Termination.fromLabel(null)).isEmpty();
        assertThat(Termination.fromLabel("MAX_ROUNDS")).isEmpty();
        assertThat(Termination.fromLabel("-")).isEmpty();
    }

    @Test void theAnswersJsonNamesTheReasonByItsLabel() {
        Answer a = new Answer("blue", "B", 0.9, 0.1, 1, Termination.MAX_ROUNDS, new TokenCount(3, 2, false), 2, 7, null);
        assertThat(Json.write(AnswerJson.of(a, false))).contains("\"rounds\":1,\"termination\":\"max_rounds\",\"tokens\"");
    }
}
