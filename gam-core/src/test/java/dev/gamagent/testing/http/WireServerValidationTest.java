package dev.gamagent.testing.http;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The test servers refuse malformed requests, so a backend that sends one fails its tests. */
class WireServerValidationTest {
    private static final String PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

    private static int post(WireServer s, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.rootUrl() + path)).version(HttpClient.Version.HTTP_1_1)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test void openAiServerRefusesAMissingModelAndARawBase64ImageUrl() throws Exception {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            assertThat(post(s, "/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).isEqualTo(400);
            assertThat(post(s, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                    + "\"image_url\":{\"url\":\"" + PNG_B64 + "\"}}]}]}")).isEqualTo(400);
            assertThat(post(s, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                    + "\"image_url\":{\"url\":\"data:image/png;base64," + PNG_B64 + "\"}}]}]}")).isEqualTo(200);
            assertThat(s.violations()).hasSize(2);
            assertThat(s.violations().get(1)).contains("data URL");
            assertThatThrownBy(s::assertNoViolations).isInstanceOf(AssertionError.class);
        }
    }

    @Test void ollamaServerRefusesADataUrlImageAndStreaming() throws Exception {
        try (OllamaWireServer s = new OllamaWireServer()) {
            assertThat(post(s, "/api/chat", "{\"model\":\"m\",\"stream\":false,\"messages\":[{\"role\":\"user\",\"content\":\"x\","
                    + "\"images\":[\"data:image/png;base64," + PNG_B64 + "\"]}]}")).isEqualTo(400);
            assertThat(post(s, "/api/chat", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")).isEqualTo(400);
            assertThat(post(s, "/api/chat", "{\"model\":\"m\",\"stream\":false,\"options\":{\"num_predict\":\"8\"},"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")).isEqualTo(400);
            assertThat(s.violations()).hasSize(3);
        }
    }

    @Test void geminiServerNeedsTheKeyHeaderAndRealBase64() throws Exception {
        try (GeminiWireServer s = new GeminiWireServer()) {
            String ok = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"" + PNG_B64 + "\"}}]}]}";
            assertThat(post(s, "/v1beta/models/g:generateContent", ok)).isEqualTo(400);
            assertThat(post(s, "/v1beta/models/g:generateContent", ok.replace(PNG_B64, "not*base64"), "x-goog-api-key", "k")).isEqualTo(400);
            assertThat(post(s, "/v1beta/models/g:generateContent", ok, "x-goog-api-key", "k")).isEqualTo(200);
            assertThat(s.violations()).hasSize(2);
        }
    }

    @Test void anthropicServerRefusesASystemRoleAndUnknownFields() throws Exception {
        try (AnthropicWireServer s = new AnthropicWireServer()) {
            String h1 = "x-api-key", h2 = "anthropic-version";
            assertThat(post(s, "/v1/messages", "{\"model\":\"c\",\"max_tokens\":8,\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}",
                    h1, "k", h2, "2023-06-01")).isEqualTo(400);
            assertThat(post(s, "/v1/messages", "{\"model\":\"c\",\"max_tokens\":8,\"logprobs\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                    h1, "k", h2, "2023-06-01")).isEqualTo(400);
            assertThat(post(s, "/v1/messages", "{\"model\":\"c\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                    h1, "k", h2, "2023-06-01")).isEqualTo(400);
            assertThat(post(s, "/v1/messages", "{\"model\":\"c\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                    h1, "k", h2, "2023-06-01")).isEqualTo(200);
            assertThat(s.violations()).hasSize(3);
        }
    }
}
