package dev.gamagent.server;

import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A completion's {@code gam} object (docs/SERVER.md) is {@link AnswerJson}'s object, then the backend and the trace's
 * id: the one home of the answer's JSON, which {@code gam ask --json} shares (AskJsonShapeTest).
 */
class GamServerAnswerJsonTest {
    static final Answer ANSWER = new Answer("triangle", "B", 0.75, 0.25, 2, Termination.CONSENSUS, new TokenCount(100, 20, false), 5, 1234L, null);

    @Test void theGamObjectIsTheSharedAnswerObjectThenTheBackendAndTheTraceIdByteForByte() {
        assertThat(Json.write(ChatCompletions.gamAnswer(ANSWER, "tr-1", "scripted"))).isEqualTo("{\"answer\":\"triangle\",\"option\":\"B\","
                + "\"confidence\":0.75,\"uncertainty\":0.25,\"rounds\":2,\"termination\":\"consensus\",\"tokens\":{\"prompt\":100,"
                + "\"completion\":20,\"estimated\":false},\"calls\":5,\"millis\":1234,\"backend\":\"scripted\",\"trace_id\":\"tr-1\"}");
        var own = ChatCompletions.gamAnswer(ANSWER, "tr-1", "scripted");
        own.remove("backend");
        own.remove("trace_id");
        assertThat(own).isEqualTo(AnswerJson.of(ANSWER, false));
        assertThat(ReplyParameters.content(ANSWER)).isEqualTo("B. triangle");
    }
}
