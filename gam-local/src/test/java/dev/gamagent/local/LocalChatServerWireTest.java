package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.testing.WireRequestCases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in model's server reads a chat-completions body with the shared reader: on the bodies the receivers once
 * disagreed on it accepts and refuses what the reader does; then its own policy (roles it has, OpenAI's defaults).
 */
class LocalChatServerWireTest {
    private static LocalChatServer server;

    @BeforeAll static void start() throws Exception {
        server = new LocalChatServer(new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8)), LocalBackend.MODEL, 0, 1);
    }

    @AfterAll static void stop() { server.close(); }

    private static ChatRequest request(String body) {
        return server.request(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test void theServerAcceptsAndRefusesWhatTheSharedReaderDoes() throws Exception {
        WireRequestCases.check(LocalBackendTest.scene().dataUrl(), LocalChatServerWireTest::request, IllegalArgumentException.class, (c, r) -> {
            assertThat(r.messages().stream().mapToInt(m -> m.images().size()).sum()).as(c.name()).isPositive();
            if (c.name().equals(WireRequestCases.BOTH_MAX_TOKENS)) assertThat(r.maxTokens()).isEqualTo(64);
        });
    }

    @Test void developerIsSystemToolIsRefusedAndOpenAisDefaultsApply() {
        String user = "{\"role\": \"user\", \"content\": \"Q\"}";
        ChatRequest r = request("{\"messages\": [{\"role\": \"developer\", \"content\": \"Be brief.\"}, " + user + "]}");
        assertThat(r.messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.SYSTEM, ChatMessage.Role.USER);
        assertThat(r.maxTokens()).isEqualTo(512);
        assertThat(r.temperature()).isEqualTo(1.0);
        assertThat(r.responseSchema()).isNull();
        ChatRequest schema = request("{\"response_format\": {\"type\": \"json_schema\"}, \"messages\": [" + user + "]}");
        assertThat(schema.schemaName()).isEqualTo("response");
        assertThat(schema.responseSchema().isObject()).isTrue();
        try {
            request("{\"messages\": [{\"role\": \"tool\", \"content\": \"42\"}, " + user + "]}");
            throw new AssertionError("a tool message was accepted");
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).contains("messages[0].role 'tool'");
        }
    }
}
