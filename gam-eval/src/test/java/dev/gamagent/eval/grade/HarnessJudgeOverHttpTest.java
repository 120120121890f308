package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The judge prompt goes over the OpenAI wire to a judge server on 127.0.0.1 exactly as VLMEvalKit builds it, and its reply is graded. */
class HarnessJudgeOverHttpTest {
    @Test void theMathVistaPromptReachesAnOpenAiJudgeServerVerbatimAndItsExtractionIsGraded() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.respondWith(r -> Reply.answer("1.45"));
            BackendSpec spec = new BackendSpec("openai", List.of(s.baseUrl()), "judge-model", null, Duration.ofSeconds(10), 0, 4, null, null, null);
            Config config = Config.defaults().with(Grader.OPEN_ANSWERS_KEY, "mathvista");
            try (Backend judge = BackendFactory.create(spec, config, Map.<String, String>of()::get)) {
                String text = "Hint: Please answer the question requiring a floating-point number with two decimal places and provide the final value, "
                        + "e.g., 1.23, 1.34, 1.45, at the end.\nQuestion: How much money does Luca need? (Unit: $)";
                KeyedQuestion q = new KeyedQuestion(new Question("7", List.of(), text, null, Map.of()), "1.45", null, null);
                Answer a = new Answer("He needs one dollar and forty-five cents.", null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null);
                Grade g = new Grader(config, judge).grade(q, a);
                assertThat(g).isEqualTo(new Grade(Outcome.CORRECT, "1.45", "mathvista:judge"));
            }
            s.assertNoViolations();
            List<Received> sent = s.chatRequests();
            assertThat(sent).hasSize(1);
            var body = sent.get(0).json();
            assertThat(body.path("messages")).hasSize(1);
            assertThat(body.at("/messages/0/role").asText()).isEqualTo("user");
            var content = body.at("/messages/0/content");
            String prompt = content.isTextual() ? content.asText() : content.at("/0/text").asText();
            assertThat(prompt).isEqualTo(HarnessPrompt.MATHVISTA.render(
                    "Hint: Please answer the question requiring a floating-point number with two decimal places and provide the final value, "
                            + "e.g., 1.23, 1.34, 1.45, at the end.\nQuestion: How much money does Luca need? (Unit: $)",
                    "He needs one dollar and forty-five cents."));
            assertThat(body.path("max_tokens").asInt()).isEqualTo(128);
            assertThat(body.path("temperature").asDouble()).isZero();
        }
    }
}
