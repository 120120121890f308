package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.http.GeminiWireServer;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.gamagent.backend.BackendContractTest.fastRetries;
import static dev.gamagent.backend.BackendContractTest.question;
import static dev.gamagent.backend.BackendContractTest.tokenA;
import static org.assertj.core.api.Assertions.assertThat;

/** Servers that refuse log-probs or a large top-k: the backend adapts once and remembers it per endpoint. */
class LogprobNegotiationTest {
    private static Backend backend(String kind, String url, String model) {
        return BackendFactory.create(new BackendSpec(kind, List.of(url), model, null, Duration.ofSeconds(10), 0, 4, null, null, null),
                fastRetries(), Map.of("GEMINI_API_KEY", "k")::get);
    }

    @Test void aReasoningModelThatRefusesLogprobsIsAskedAgainWithoutThemAndRemembered() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.rejectLogprobs().respondWith(r -> Reply.answer("A", List.of(tokenA())));
            try (Backend b = backend("openai", s.baseUrl(), "o-reasoner")) {
                assertThat(b.capabilities().logprobs()).isTrue();
                ChatResult first = b.chat(question());
                assertThat(first.text()).isEqualTo("A");
                assertThat(first.signal()).isEqualTo(UncertaintySignal.SEMANTIC);
                assertThat(b.capabilities().logprobs()).isFalse();
                assertThat(b.capabilities().bestSignal()).isEqualTo(UncertaintySignal.SEMANTIC);
                b.chat(question());
            }
            List<Received> reqs = s.chatRequests();
            assertThat(reqs).hasSize(3);
            assertThat(reqs.get(0).json().has("logprobs")).isTrue();
            assertThat(reqs.get(1).json().has("logprobs")).isFalse();
            assertThat(reqs.get(2).json().has("logprobs")).as("remembered: no second refusal").isFalse();
            s.assertNoViolations();
        }
    }

    @Test void aServerThatAcceptsLogprobsButAnswersWithoutThemIsRememberedAsGivingNone() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.respondWith(r -> Reply.answer("A", List.of(tokenA())).withoutLogprobs());
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                assertThat(b.capabilities().logprobs()).isTrue();
                assertThat(b.chat(question()).first().hasLogprobs()).isFalse();
                assertThat(b.capabilities().logprobs()).as("learned from the reply").isFalse();
                assertThat(b.capabilities().bestSignal()).isEqualTo(UncertaintySignal.SEMANTIC);
            }
            s.assertNoViolations();
        }
    }

    @Test void aReplyWithLogprobsOrAnEmptyReplyDoesNotMarkTheServer() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.enqueue(Reply.answer("", List.of()).withoutLogprobs());
            s.respondWith(r -> Reply.answer("A", List.of(tokenA())));
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                b.chat(question());
                assertThat(b.capabilities().logprobs()).as("an empty reply says nothing about log-probs").isTrue();
                b.chat(question());
                b.chat(question().withLogprobs(false, 0));
                assertThat(b.capabilities().logprobs()).as("not asked, so not missing").isTrue();
            }
        }
    }

    @Test void aTopKAboveVllmsLimitIsLoweredToTheLimitTheServerNames() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.maxTopLogprobs(3).respondWith(r -> Reply.answer("A", List.of(tokenA())));
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                ChatResult r = b.chat(question().withLogprobs(true, 10));
                assertThat(r.first().logprobs().get(0).top()).hasSize(3);
                assertThat(b.capabilities().maxTopLogprobs()).isEqualTo(3);
                b.chat(question().withLogprobs(true, 10));
            }
            assertThat(s.chatRequests()).extracting(q -> q.json().path("top_logprobs").asInt()).containsExactly(10, 3, 3);
            s.assertNoViolations();
        }
    }

    @Test void topKIsCappedAtTheConfiguredServerLimitBeforeSending() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                b.chat(question().withLogprobs(true, 50));
            }
            assertThat(s.chatRequests()).extracting(q -> q.json().path("top_logprobs").asInt()).containsExactly(20);
        }
    }

    @Test void aGeminiModelWithoutLogprobsFallsBackToText() {
        try (GeminiWireServer s = new GeminiWireServer()) {
            s.rejectLogprobs();
            try (Backend b = backend("gemini", s.baseUrl(), "gemini-test")) {
                ChatResult r = b.chat(question());
                assertThat(r.text()).isEqualTo("A");
                assertThat(r.first().hasLogprobs()).isFalse();
                assertThat(b.capabilities().logprobs()).isFalse();
            }
            assertThat(s.chatRequests()).hasSize(2);
            s.assertNoViolations();
        }
    }

    @Test void withoutAModelTheServerIsAskedWhichItServes() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.model("Qwen/Qwen2.5-VL-7B-Instruct");
            try (Backend b = backend("openai", s.baseUrl(), null)) {
                b.chat(question());
                assertThat(b.name()).isEqualTo("openai:Qwen/Qwen2.5-VL-7B-Instruct");
            }
            assertThat(s.chatRequests().get(0).json().path("model").asText()).isEqualTo("Qwen/Qwen2.5-VL-7B-Instruct");
        }
    }

    @Test void aResponseSchemaIsSentAsJsonSchemaResponseFormat() throws Exception {
        JsonNode schema = Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\"}},\"required\":[\"answer\"]}");
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                b.chat(question().withSchema("claims", schema));
            }
            JsonNode rf = s.chatRequests().get(0).json().path("response_format");
            assertThat(rf.path("type").asText()).isEqualTo("json_schema");
            assertThat(rf.path("json_schema").path("name").asText()).isEqualTo("claims");
            assertThat(rf.path("json_schema").path("schema")).isEqualTo(schema);
            s.assertNoViolations();
        }
    }

    @Test void imagesTravelAsDataUrlsForOpenAiAndRawBase64ForOllama() {
        try (OpenAiWireServer o = new OpenAiWireServer(); dev.gamagent.testing.http.OllamaWireServer l = new dev.gamagent.testing.http.OllamaWireServer()) {
            try (Backend a = backend("openai", o.baseUrl(), "vlm"); Backend b = backend("ollama", l.baseUrl(), "qwen2.5vl:7b")) {
                a.chat(question());
                b.chat(question());
            }
            String url = o.chatRequests().get(0).json().path("messages").get(1).path("content").get(0).path("image_url").path("url").asText();
            assertThat(url).startsWith("data:image/png;base64,iVBOR");
            String img = l.chatRequests().get(0).json().path("messages").get(1).path("images").get(0).asText();
            assertThat(img).startsWith("iVBOR");
            o.assertNoViolations();
            l.assertNoViolations();
        }
    }

    @Test void anUnsupportedParameterLogprobsErrorAlsoTriggersTheFallback() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.enqueue(Reply.status(400, "{\"error\":{\"message\":\"Unsupported parameter: 'logprobs' is not supported with this model.\"}}"));
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                assertThat(b.chat(question()).text()).isEqualTo("A");
                assertThat(b.capabilities().logprobs()).isFalse();
            }
        }
    }

    @Test void openAisTopLogprobsLimitMessageLowersTopK() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.enqueue(Reply.status(400, "{\"error\":{\"message\":\"Invalid 'top_logprobs': integer above maximum value. Expected a value <= 7, but got 9 instead.\"}}"));
            try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                b.chat(question().withLogprobs(true, 9));
            }
            assertThat(s.chatRequests()).extracting(q -> q.json().path("top_logprobs").asInt()).containsExactly(9, 7);
        }
    }

    @Test void serversWithoutNGetSeveralSingleCalls() {
        try (OpenAiWireServer ollamaV1 = new OpenAiWireServer(); OpenAiWireServer llamaCpp = new OpenAiWireServer()) {
            ollamaV1.ignoreN();
            llamaCpp.rejectN();
            for (OpenAiWireServer s : List.of(ollamaV1, llamaCpp)) {
                try (Backend b = backend("openai", s.baseUrl(), "vlm")) {
                    assertThat(b.chat(question().withSampling(0.8, 16, 3, 1L)).choices()).hasSize(3);
                    assertThat(b.chat(question().withSampling(0.8, 16, 2, 1L)).choices()).hasSize(2);
                }
                s.assertNoViolations();
            }
            // first call: one n=3 request then 2 singles; second call: 2 singles directly
            assertThat(ollamaV1.chatRequests()).hasSize(5);
            // first call: refused n=3, then 3 singles; second call: 2 singles
            assertThat(llamaCpp.chatRequests()).hasSize(6);
        }
    }
}
