package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.OpenAiReplyContract;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LocalChatServerTest {
    LocalChatServer server;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        LocalBackend backend = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8));
        server = new LocalChatServer(backend, LocalBackend.MODEL, 0, 2).start();
    }

    @AfterEach
    void stop() { server.close(); }

    HttpResponse<String> post(ObjectNode body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static ObjectNode request(int topLogprobs) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", LocalBackend.MODEL);
        body.put("temperature", 0);
        body.put("logprobs", true);
        body.put("top_logprobs", topLogprobs);
        var content = body.putArray("messages").addObject().put("role", "user").putArray("content");
        content.addObject().put("type", "image_url").putObject("image_url").put("url", LocalBackendTest.scene().dataUrl());
        content.addObject().put("type", "text").put("text", "What color is the triangle?\nA. blue\nB. red\nC. green" + LocalBackendTest.LETTER);
        return body;
    }

    @Test
    void chatCompletionsAnswerInOpenAisShapeWithLogProbs() throws Exception {
        HttpResponse<String> r = post(request(3));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode j = Json.MAPPER.readTree(r.body());
        assertThat(j.path("object").asText()).isEqualTo("chat.completion");
        JsonNode choice = j.path("choices").get(0);
        assertThat(choice.path("message").path("content").asText()).isEqualTo("B");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        JsonNode tok = choice.path("logprobs").path("content").get(0);
        assertThat(tok.path("token").asText()).isEqualTo("B");
        assertThat(tok.path("bytes").get(0).asInt()).isEqualTo(66);
        assertThat(tok.path("top_logprobs")).hasSize(3);
        double mass = 0;
        for (JsonNode a : tok.path("top_logprobs")) mass += Math.exp(a.path("logprob").asDouble());
        assertThat(mass).isCloseTo(1.0, within(1e-6));
        assertThat(j.path("usage").path("completion_tokens").asInt()).isEqualTo(1);
        assertThat(j.path("usage").path("prompt_tokens").asInt()).isGreaterThan(100);
    }

    /** The shared reply contract: the one reader reads what the model answered, from the whole reply and from the stream alike. */
    @Test
    void everyReplyParsesWithTheOneReaderAsTheModelAnsweredWholeOrStreamed() throws Exception {
        for (ObjectNode body : List.of(request(3), request(0).put("n", 2).put("temperature", 1.0).put("seed", 5), request(2).put("logprobs", false))) {
            ChatResult meant = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8))
                    .chat(server.request(Json.write(body).getBytes(StandardCharsets.UTF_8)));
            OpenAiReplyContract.Read whole = OpenAiReplyContract.parse(post(body).body());
            assertThat(whole.choices()).as(Json.write(body)).isEqualTo(meant.choices());
            assertThat(whole.promptTokens()).isEqualTo(meant.usage().promptTokens());
            assertThat(whole.completionTokens()).isEqualTo(meant.usage().completionTokens());
            assertThat(OpenAiReplyContract.parseStream(post(body.deepCopy().put("stream", true)).body()).choices()).isEqualTo(whole.choices());
        }
    }

    @Test
    void streamTrueIsAnsweredWithServerSentChunksThatRebuildTheWholeAnswer() throws Exception {
        JsonNode whole = Json.MAPPER.readTree(post(request(3)).body()).path("choices").get(0);
        HttpResponse<String> r = post(request(3).put("stream", true));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(r.body()).endsWith("data: [DONE]\n\n");
        List<JsonNode> chunks = new ArrayList<>();
        for (String event : r.body().split("\n\n")) {
            assertThat(event).startsWith("data: ");
            if (!event.equals("data: [DONE]")) chunks.add(Json.MAPPER.readTree(event.substring("data: ".length())));
        }
        StringBuilder text = new StringBuilder();
        List<String> finishes = new ArrayList<>();
        JsonNode logprobs = null;
        for (JsonNode c : chunks) {
            assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
            JsonNode choice = c.path("choices").get(0);
            assertThat(choice.path("index").asInt()).isZero();
            text.append(choice.path("delta").path("content").asText(""));
            if (!choice.path("logprobs").isNull()) logprobs = choice.path("logprobs");
            if (!choice.path("finish_reason").isNull()) finishes.add(choice.path("finish_reason").asText());
        }
        assertThat(chunks.get(0).path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
        assertThat(text.toString()).isEqualTo(whole.path("message").path("content").asText()).isEqualTo("B");
        assertThat(finishes).containsExactly(whole.path("finish_reason").asText());
        assertThat(logprobs).isEqualTo(whole.path("logprobs"));
        assertThat(chunks).extracting(c -> c.path("id").asText()).containsOnly(chunks.get(0).path("id").asText());

        HttpResponse<String> sampled = post(request(0).put("logprobs", false).put("n", 3).put("temperature", 1.0).put("stream", true));
        List<Integer> ended = new ArrayList<>();
        for (String event : sampled.body().split("\n\n")) {
            if (event.equals("data: [DONE]")) continue;
            JsonNode choice = Json.MAPPER.readTree(event.substring("data: ".length())).path("choices").get(0);
            assertThat(choice.path("logprobs").isNull()).isTrue();
            if (!choice.path("finish_reason").isNull()) ended.add(choice.path("index").asInt());
        }
        assertThat(ended).containsExactly(0, 1, 2);
    }

    @Test
    void withoutLogprobsTheServerAnswersNullLogprobsEvenWhenAskedAndStillSamplesN() throws Exception {
        LocalBackend backend = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8));
        try (LocalChatServer plain = new LocalChatServer(backend, LocalBackend.MODEL, 0, 1, false).start()) {
            ObjectNode body = request(3).put("n", 3).put("temperature", 1.0);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(plain.baseUrl() + "/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode choices = Json.MAPPER.readTree(r.body()).path("choices");
            assertThat(choices).hasSize(3);
            for (JsonNode c : choices) {
                assertThat(c.path("logprobs").isNull()).isTrue();
                assertThat(c.path("message").path("content").asText()).isNotBlank();
            }
        }
    }

    @Test
    void theOpenAiBackendTalksToTheLocalModelEndToEnd() {
        var spec = new dev.gamagent.backend.BackendSpec("openai", java.util.List.of(server.baseUrl()), LocalBackend.MODEL, null,
                null, 0, 2, null, null, null);
        var req = dev.gamagent.backend.ChatRequest.of(java.util.List.of(dev.gamagent.backend.ChatMessage.user(
                LocalBackendTest.tagged("scene expert", "answer", "What color is the triangle?\nA. blue\nB. red") + LocalBackendTest.LINES,
                java.util.List.of(LocalBackendTest.scene()))));
        var direct = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8)).chat(req).first();
        try (var remote = dev.gamagent.backend.BackendFactory.create(spec, dev.gamagent.config.Config.defaults(), k -> null)) {
            var r = remote.chat(req);
            assertThat(r.text()).isEqualTo(direct.text()).startsWith("ANSWER: B");
            assertThat(r.first().logprobs()).hasSameSizeAs(direct.logprobs());
            for (int i = 0; i < direct.logprobs().size(); i++) {
                assertThat(r.first().logprobs().get(i).token()).isEqualTo(direct.logprobs().get(i).token());
                assertThat(r.first().logprobs().get(i).logprob()).isCloseTo(direct.logprobs().get(i).logprob(), within(1e-9));
                assertThat(r.first().logprobs().get(i).top()).hasSameSizeAs(direct.logprobs().get(i).top());
            }
            assertThat(r.usage().estimated()).isFalse();
            assertThat(r.usage().completionTokens()).isEqualTo(direct.logprobs().size());
        }
    }

    @Test
    void modelsListsTheLocalModel() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(Json.MAPPER.readTree(r.body()).path("data").get(0).path("id").asText()).isEqualTo(LocalBackend.MODEL);
    }

    @Test
    void tooManyTopLogProbsAreRefusedWithAnOpenAiError() throws Exception {
        HttpResponse<String> r = post(request(25));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).path("error").path("message").asText()).contains("top_logprobs");
    }

    @Test
    void imageUrlsThatAreNotDataUrlsAreRefused() throws Exception {
        ObjectNode body = request(2);
        ((ObjectNode) body.path("messages").get(0).path("content").get(0).path("image_url")).put("url", "http://example.com/a.png");
        HttpResponse<String> r = post(body);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("messages[0].content[0]").contains("data URL");
    }

    /** Issue 13, item 8: a 16000² image is refused from its header, before 2 GB of pixels are allocated. */
    @Test
    void aHugeImageIsRefusedFromItsHeaderAndAMidSizedOneIsDownscaledNotRefused() throws Exception {
        ObjectNode huge = request(0);
        huge.remove("logprobs");
        huge.remove("top_logprobs");
        ((ObjectNode) huge.at("/messages/0/content/0/image_url")).put("url", "data:image/png;base64,"
                + java.util.Base64.getEncoder().encodeToString(dev.gamagent.testing.Pngs.claiming(16_000, 16_000)));
        HttpResponse<String> r = post(huge);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(Json.MAPPER.readTree(r.body()).at("/error/message").asText()).contains("16000x16000").contains("megapixels");

        // 6 MP is more than the local model takes (4 MP) but within what a client may send: it is downscaled
        java.awt.image.BufferedImage big = new java.awt.image.BufferedImage(3000, 2000, java.awt.image.BufferedImage.TYPE_INT_RGB);
        var g = big.createGraphics();
        g.drawImage(LocalBackendTest.scene().image(), 0, 0, 3000, 2000, null);
        g.dispose();
        ObjectNode mid = request(0);
        mid.remove("logprobs");
        mid.remove("top_logprobs");
        ((ObjectNode) mid.at("/messages/0/content/0/image_url")).put("url", new dev.gamagent.image.Picture("big", big).dataUrl());
        HttpResponse<String> ok = post(mid);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    }
}
