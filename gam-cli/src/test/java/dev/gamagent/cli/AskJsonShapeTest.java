package dev.gamagent.cli;

import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam ask --json} (docs/design.md §9) is {@link AnswerJson}'s object, then the method and the backend: the one home
 * of the answer's JSON, which {@code gam serve}'s {@code gam} object shares (GamServerAnswerJsonTest).
 */
class AskJsonShapeTest {
    static final Answer ANSWER = new Answer("triangle", "B", 0.75, 0.25, 2, Termination.CONSENSUS, new TokenCount(100, 20, false), 5, 1234L, null);

    @Test void theJsonIsTheSharedAnswerObjectThenTheMethodAndTheBackendByteForByte() {
        assertThat(Json.write(AskCommand.toJson(ANSWER, "scripted"))).isEqualTo("{\"answer\":\"triangle\",\"option\":\"B\",\"confidence\":0.75,"
                + "\"uncertainty\":0.25,\"rounds\":2,\"termination\":\"consensus\",\"tokens\":{\"prompt\":100,\"completion\":20,"
                + "\"estimated\":false},\"calls\":5,\"millis\":1234,\"method\":null,\"backend\":\"scripted\"}");
        var own = AskCommand.toJson(ANSWER, "scripted");
        own.remove("method");
        own.remove("backend");
        assertThat(own).isEqualTo(AnswerJson.of(ANSWER, true));
    }
}
