package dev.gamagent.langchain4j;

import dev.gamagent.Gam;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.local.LocalBackend;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import dev.langchain4j.model.output.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 43: any LangChain4j chat model as a GAM backend, one agent of a panel on it, against what `gam local-server` runs. */
class LangChain4jBackendTest {
    static final Question QUESTION = Question.of("q1", List.of(ImageLoader.load(Path.of("examples/red-triangle.png"))),
            "What shape is the red object?", options());

    static Map<String, String> options() {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        o.put("A", "circle");
        o.put("B", "triangle");
        o.put("C", "square");
        return o;
    }

    @TempDir Path dir;

    @Test void aGamPanelRunsWithOneAgentOnALangChain4jModelAgainstTheLocalServer() throws Exception {
        try (LocalServer server = new LocalServer(true)) {
            ChatModel openAi = OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none").modelName(LocalBackend.MODEL)
                    .logprobs(true).topLogprobs(5).build();
            Path panel = dir.resolve("panel.json");
            Files.writeString(panel, "{\"gam\": {\"experts\": [{\"role\": \"scene\", \"backend\": \"lc4j\"}, {\"role\": \"ocr\"},"
                    + " {\"role\": \"relational\"}], \"max_rounds\": 2, \"embedding\": \"none\"}}");
            try (Gam gam = Gam.builder().builtInModel().method("gam").config(panel)
                    .backend("lc4j", LangChain4jBackend.builder(openAi).name("openai-via-langchain4j").logprobs(5).build()).build()) {
                Answer a = gam.ask(QUESTION);
                assertThat(a.option()).as(a.trace().toJson()).isEqualTo("B");
                List<Trace.AgentTurn> turns = a.trace().rounds().stream().flatMap(r -> r.agents().stream()).toList();
                List<Trace.AgentTurn> onLc4j = turns.stream().filter(t -> "lc4j".equals(t.backend())).toList();
                assertThat(onLc4j).isNotEmpty().allSatisfy(t -> {
                    assertThat(t.role()).isEqualTo("scene");
                    assertThat(t.model()).isEqualTo(LocalBackend.MODEL); // as the server named it, through LangChain4j's response
                    assertThat(t.signal()).isEqualTo("logprobs-topk");   // the log-probs came through the OpenAI metadata
                    assertThat(t.error()).isNull();
                });
                assertThat(turns).filteredOn(t -> !"scene".equals(t.role())).isNotEmpty().allMatch(t -> "default".equals(t.backend()));
            }
        }
    }

    @Test void withoutLogProbsTheAgentsOnALangChain4jModelFallBackToSampling() throws Exception {
        try (LocalServer server = new LocalServer(false)) {
            List<Integer> calls = new ArrayList<>();
            ChatModel openAi = OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none").modelName(LocalBackend.MODEL).build();
            LangChain4jBackend backend = LangChain4jBackend.builder(openAi).parameters((r, p) -> {
                calls.add(r.n());
                // a provider's own parameter through the hook: OpenAI's seed
                return OpenAiChatRequestParameters.builder().overrideWith(p).seed(r.seed() == null ? null : r.seed().intValue()).build();
            }).build();
            try (Gam gam = Gam.builder().backend(backend).method("gam").set("gam.uncertainty_fallback", "sampling")
                    .set("gam.max_rounds", "1").set("gam.embedding", "none").build()) {
                Answer a = gam.ask(QUESTION);
                assertThat(a.option()).isEqualTo("B");
                // the experts with an opinion (the OCR expert declares itself not applicable here: signal "fixed")
                assertThat(a.trace().rounds().get(0).agents()).hasSize(3).filteredOn(t -> !"fixed".equals(t.signal())).isNotEmpty()
                        .allSatisfy(t -> assertThat(t.signal()).isEqualTo("sampling"));
                // each expert's answer, then one request for 3 samples that the backend makes as 3 calls
                assertThat(calls.size()).isGreaterThan(a.calls());
            }
        }
    }

    @Test void nChoicesAreNCallsWithTheSeedMovedOnAndUsageSummed() {
        List<ChatRequest> seen = new ArrayList<>();
        ChatModel scripted = new ChatModel() {
            @Override public ChatResponse doChat(ChatRequest r) {
                seen.add(r);
                return ChatResponse.builder().aiMessage(AiMessage.from("answer " + seen.size())).tokenUsage(new TokenUsage(10, 2)).modelName("m").build();
            }
        };
        List<Long> seeds = new ArrayList<>();
        LangChain4jBackend b = LangChain4jBackend.builder(scripted).parameters((r, p) -> { seeds.add(r.seed()); return p; }).build();
        ChatResult r = b.chat(new dev.gamagent.backend.ChatRequest(List.of(ChatMessage.system("be brief"),
                ChatMessage.user("What shape?", QUESTION.images())), 0.7, 64, 3, 41L, false, 0, null, null));
        assertThat(r.choices()).extracting(c -> c.text()).containsExactly("answer 1", "answer 2", "answer 3");
        assertThat(seeds).containsExactly(41L, 42L, 43L);
        assertThat(r.usage().promptTokens()).isEqualTo(30);
        assertThat(r.usage().completionTokens()).isEqualTo(6);
        assertThat(r.usage().estimated()).isFalse();
        assertThat(r.model()).isEqualTo("m");
        ChatRequest first = seen.get(0);
        assertThat(first.temperature()).isEqualTo(0.7);
        assertThat(first.maxOutputTokens()).isEqualTo(64);
        assertThat(first.messages().get(0)).isInstanceOf(SystemMessage.class);
        UserMessage user = (UserMessage) first.messages().get(1);
        assertThat(user.contents().get(0)).isInstanceOfSatisfying(ImageContent.class, ic -> {
            assertThat(ic.image().mimeType()).isEqualTo("image/png");
            assertThat(ImageLoader.fromEncodedBase64("x", ic.image().base64Data()).width()).isEqualTo(320);
        });
        assertThat(b.capabilities().logprobs()).isFalse();
    }

    @Test void aProviderWithoutUsageIsEstimatedAndItsErrorsAreGamsTypedErrors() {
        ChatModel noUsage = new ChatModel() {
            @Override public ChatResponse doChat(ChatRequest r) { return ChatResponse.builder().aiMessage(AiMessage.from("B")).build(); }
        };
        ChatResult r = LangChain4jBackend.of(noUsage).chat(dev.gamagent.backend.ChatRequest.of(List.of(ChatMessage.user("What?", List.of()))));
        assertThat(r.usage().estimated()).isTrue();
        assertThat(r.usage().promptTokens()).isPositive();

        assertThatThrownBy(() -> failing(new RateLimitException("slow down")).chat(dev.gamagent.backend.ChatRequest.of(List.of(ChatMessage.user("q", List.of())))))
                .isInstanceOf(BackendException.RateLimited.class).hasMessageContaining("slow down");
        assertThatThrownBy(() -> failing(new HttpException(503, "busy")).chat(dev.gamagent.backend.ChatRequest.of(List.of(ChatMessage.user("q", List.of())))))
                .isInstanceOfSatisfying(BackendException.ServerUnavailable.class, e -> assertThat(e.status()).isEqualTo(503));
        assertThatThrownBy(() -> failing(new HttpException(400, "bad")).chat(dev.gamagent.backend.ChatRequest.of(List.of(ChatMessage.user("q", List.of())))))
                .isInstanceOf(BackendException.InvalidRequest.class);
    }

    @Test void aNameTheProgramRegistersIsCheckedAndUnknownAgentBackendsFailAtBuild() throws Exception {
        ChatModel m = new ChatModel() {
            @Override public ChatResponse doChat(ChatRequest r) { return ChatResponse.builder().aiMessage(AiMessage.from("B")).build(); }
        };
        assertThatThrownBy(() -> Gam.builder().builtInModel().backend("local", LangChain4jBackend.of(m)).build())
                .hasMessageContaining("'local' is reserved");
        Path panel = dir.resolve("typo.json");
        Files.writeString(panel, "{\"gam\": {\"experts\": [{\"role\": \"scene\", \"backend\": \"lc4k\"}]}}");
        assertThatThrownBy(() -> Gam.builder().builtInModel().method("gam").config(panel).backend("lc4j", LangChain4jBackend.of(m)).build())
                .hasMessageContaining("gam.experts[0].backend = 'lc4k'").hasMessageContaining("lc4j");
    }

    private static LangChain4jBackend failing(RuntimeException e) {
        return LangChain4jBackend.of(new ChatModel() {
            @Override public ChatResponse doChat(ChatRequest r) { throw e; }
        });
    }

}
