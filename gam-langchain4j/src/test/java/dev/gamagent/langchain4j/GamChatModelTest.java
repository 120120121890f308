package dev.gamagent.langchain4j;

import dev.gamagent.Gam;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.image.ImageLoader;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 43: GAM as a LangChain4j chat model, called by an AI service, streamed, and reading questions as gam serve does. */
class GamChatModelTest {
    static final Path IMAGE = Path.of("examples/red-triangle.png");
    static Gam gam;
    static String png;

    @BeforeAll static void gam() throws Exception {
        gam = Gam.builder().builtInModel().method("gam").set("gam.max_rounds", "2").set("gam.embedding", "none").build();
        png = Base64.getEncoder().encodeToString(Files.readAllBytes(IMAGE));
    }

    @AfterAll static void close() { gam.close(); }

    interface ShapeAssistant {
        Result<String> ask(@dev.langchain4j.service.UserMessage String question, @dev.langchain4j.service.UserMessage ImageContent image);
    }

    @Test void anAiServiceAnswersAnImageQuestionThroughGamWithUsageAndTheDebateInTheMetadata() {
        ShapeAssistant assistant = AiServices.create(ShapeAssistant.class, GamChatModel.builder().gam(gam).build());
        Result<String> r = assistant.ask("What shape is the red object?\nA. circle\nB. triangle\nC. square", ImageContent.from(png, "image/png"));

        assertThat(r.content()).isEqualTo("B. triangle");
        GamResponseMetadata debate = (GamResponseMetadata) r.finalResponse().metadata();
        assertThat(debate.method()).isEqualTo("gam");
        assertThat(debate.option()).isEqualTo("B");
        assertThat(debate.termination()).isNotBlank().isEqualTo(debate.trace().termination());
        assertThat(debate.rounds()).isEqualTo(debate.answer().rounds()).isGreaterThanOrEqualTo(0);
        assertThat(debate.trace().rounds()).isNotEmpty();
        assertThat(debate.confidence()).isBetween(0.5, 1.0);
        assertThat(debate.traceId()).startsWith("tr-").isEqualTo(debate.trace().question().id()).isEqualTo(r.finalResponse().id());
        // the question reached the method as asked: the options read from the text, the image from the content
        assertThat(debate.trace().question().options()).containsExactly(
                java.util.Map.entry("A", "circle"), java.util.Map.entry("B", "triangle"), java.util.Map.entry("C", "square"));
        assertThat(debate.trace().question().images()).hasSize(1).allMatch(s -> s.contains("320x200"));
        // usage: every agent's tokens, the same in the AI service's result and the metadata
        assertThat(r.tokenUsage().inputTokenCount()).isPositive().isEqualTo((int) debate.answer().tokens().prompt());
        assertThat(r.tokenUsage().outputTokenCount()).isPositive().isEqualTo((int) debate.answer().tokens().completion());
        assertThat(debate.calls()).isGreaterThanOrEqualTo(3);
    }

    @Test void theStreamedTextIsTheAnswerAloneAndTheProgressGoesToTheListener() throws Exception {
        List<ProgressEvent> events = new CopyOnWriteArrayList<>();
        GamStreamingChatModel model = GamStreamingChatModel.builder().gam(gam).progress(events::add).build();
        StringBuilder partials = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        model.chat(ChatRequest.builder().messages(UserMessage.from(TextContent.from("What shape is the red object? A. circle B. triangle C. square"),
                ImageContent.from(png, "image/png"))).build(), new StreamingChatResponseHandler() {
            @Override public void onPartialResponse(String partial) { partials.append(partial); }
            @Override public void onCompleteResponse(ChatResponse r) { done.complete(r); }
            @Override public void onError(Throwable e) { done.completeExceptionally(e); }
        });
        ChatResponse r = done.get(5, TimeUnit.MINUTES);
        assertThat(partials.toString()).isEqualTo(r.aiMessage().text()).isEqualTo("B. triangle");
        assertThat(events).anyMatch(e -> e instanceof ProgressEvent.RoundStarted).anyMatch(e -> e instanceof ProgressEvent.Weights);
        assertThat(r.metadata()).isInstanceOf(GamResponseMetadata.class);
        assertThat(r.tokenUsage().totalTokenCount()).isPositive();
    }

    @Test void aBadStreamedRequestFailsThroughOnError() throws Exception {
        GamStreamingChatModel model = GamStreamingChatModel.builder().gam(gam).build();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        model.chat(ChatRequest.builder().messages(UserMessage.from(ImageContent.from(png, "image/png"))).build(), new StreamingChatResponseHandler() {
            @Override public void onCompleteResponse(ChatResponse r) { done.complete(r); }
            @Override public void onError(Throwable e) { done.completeExceptionally(e); }
        });
        assertThatThrownBy(() -> done.get(1, TimeUnit.MINUTES)).hasRootCauseMessage("no question text in the user messages");
    }

    @Test void optionsAreReadAsGamServeReadsThemAndAFreeFormQuestionIsOpen() {
        QuestionReader reader = new QuestionReader(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS), Duration.ofSeconds(5));
        Question mc = reader.read("q", List.of(SystemMessage.from("You are a helpful assistant. The chart is from 2020."),
                UserMessage.from(TextContent.from("Question: Which bar is tallest?\nOptions:\nA. red\nB) blue\n"
                        + "Please select the correct answer from the options above."), ImageContent.from(png, "image/png"))));
        assertThat(mc.text()).isEqualTo("Which bar is tallest?");
        assertThat(mc.options()).containsExactly(java.util.Map.entry("A", "red"), java.util.Map.entry("B", "blue"));
        assertThat(mc.hint()).isEqualTo("The chart is from 2020.");
        assertThat(mc.images()).hasSize(1);

        Question open = reader.read("q", List.of(UserMessage.from(TextContent.from("Which shape is on the right?"),
                ImageContent.from("data:image/png;base64," + png))));
        assertThat(open.isMultipleChoice()).isFalse();
        assertThat(open.images()).singleElement().satisfies(p -> assertThat(p.width()).isEqualTo(320));
    }

    @Test void imagesComeAsBase64DataUrlsFileUrlsAndHttpUrls() throws Exception {
        QuestionReader reader = new QuestionReader(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS), Duration.ofSeconds(5));
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        byte[] bytes = Files.readAllBytes(IMAGE);
        http.createContext("/t.png", ex -> {
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        http.start();
        try {
            String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/t.png";
            Question q = reader.read("q", List.of(UserMessage.from(TextContent.from("What colour is the triangle?"),
                    ImageContent.from(png, "image/png"), ImageContent.from(IMAGE.toAbsolutePath().toUri()), ImageContent.from(url))));
            assertThat(q.images()).hasSize(3).allSatisfy(p -> assertThat(p.width()).isEqualTo(320));
            assertThatThrownBy(() -> reader.read("q", List.of(UserMessage.from(TextContent.from("What?"),
                    ImageContent.from(url.replace("t.png", "missing.png")))))).hasMessageContaining("messages[0].contents[1]").hasMessageContaining("HTTP 404");
        } finally {
            http.stop(0);
        }
    }

    @Test void aRequestWithToolsIsRefusedNamingThem() {
        GamChatModel model = GamChatModel.builder().gam(gam).build();
        ChatRequest withTool = ChatRequest.builder().messages(UserMessage.from("What shape?"))
                .toolSpecifications(ToolSpecification.builder().name("weather").build()).build();
        assertThatThrownBy(() -> model.chat(withTool)).hasMessageContaining("calls no tools").hasMessageContaining("offers 1");
    }
}
