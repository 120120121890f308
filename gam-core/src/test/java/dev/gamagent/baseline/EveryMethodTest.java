package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.util.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Objects;

import static dev.gamagent.baseline.SingleRoundMethodsTest.tokensOf;
import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** What {@code gam ask --method M} relies on, for every method and its DREAM wrapper. */
class EveryMethodTest {

    @ParameterizedTest
    @ValueSource(strings = {"single", "cot", "sc", "vote", "debate", "self-debate", "mad", "div-mad", "dmad", "chateval", "debunc", "dwi",
            "dream+cot", "dream+vote", "dream+debate", "dream+self-debate", "dream+mad", "dream+div-mad", "dream+dmad", "dream+chateval", "dream+debunc",
            "dream+dwi"})
    void everyMethodAnswersCountsItsCallsAndTokensAndWritesAStableTrace(String name) {
        var b = textBackend(u -> u.contains("<task>moderate</task>") ? "DECISION: CONTINUE\nANSWER: B\nCONFIDENCE: 0.6"
                : "The triangle is blue.\nANSWER: B\nCONFIDENCE: 0.8");
        Answer a = MethodRegistry.create(name).run(question(), context(b));
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.answer()).isEqualTo("blue");
        assertThat(a.calls()).isEqualTo(b.requests.size());
        assertThat(a.tokens()).isEqualTo(tokensOf(b.requests.size()));
        assertThat(a.confidence()).isBetween(0.0, 1.0);
        assertThat(a.uncertainty()).isBetween(0.0, 1.0);
        assertThat(a.termination()).isNotNull();
        Trace t = a.trace();
        assertThat(t.method()).isEqualTo(name);
        assertThat(t.tokens()).isEqualTo(a.tokens());
        assertThat(t.finalAnswer().option()).isEqualTo("B");
        if (!name.startsWith("dream+")) {
            TokenCount inTurns = t.rounds().stream().flatMap(r -> r.agents().stream()).map(Trace.AgentTurn::tokens)
                    .filter(Objects::nonNull).reduce(TokenCount.ZERO, TokenCount::plus);
            assertThat(inTurns).isEqualTo(a.tokens());
        }
        // agents keep their ids across rounds
        if (t.rounds().size() > 1) {
            var first = t.rounds().get(0).agents().stream().map(Trace.AgentTurn::id).toList();
            assertThat(t.rounds().get(1).agents().stream().map(Trace.AgentTurn::id).toList()).containsAll(first);
        }
        String json = Json.write(t);
        assertThat(json).contains("\"method\":\"" + name + "\"", "\"final\":", "\"rounds\":");
    }
}
