package dev.gamagent.server;

import dev.gamagent.testing.WireRequestCases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam serve} reads a chat-completions body with the shared reader: on the bodies the receivers once disagreed on
 * it accepts and refuses what the reader does, answering a refusal with a 400 naming the field and the reader's code.
 */
class CompletionRequestWireTest {
    @TempDir Path dir;

    @Test void theServerAcceptsAndRefusesWhatTheSharedReaderDoes() throws Exception {
        ServerSettings settings = ServerFixture.settings(dir);
        WireRequestCases.check(ServerFixture.dataUrl(), body -> {
            try {
                return CompletionRequest.parse(body.getBytes(StandardCharsets.UTF_8), settings, u -> new byte[0]);
            } catch (ApiError e) {
                assertThat(e.status()).as(body).isEqualTo(400);
                throw e;
            }
        }, ApiError.class, (c, r) -> assertThat(r.question().images()).as(c.name()).isNotEmpty());
    }

    @Test void refusalsCarryTheReadersCodes() {
        ServerSettings settings = ServerFixture.settings(dir);
        assertThat(code("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"video_url\"}]}]}", settings)).isEqualTo("unsupported_content");
        assertThat(code("{\"messages\": []}", settings)).isEqualTo("missing_messages");
        assertThat(code("{\"n\": 0, \"messages\": [{\"role\": \"user\", \"content\": \"Q\"}]}", settings)).isEqualTo("invalid_field");
        assertThat(code("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"image_url\", \"image_url\": {}}]}]}", settings))
                .isEqualTo("missing_image_url");
        assertThat(code("[]", settings)).isEqualTo("invalid_json");
    }

    private static String code(String body, ServerSettings settings) {
        try {
            CompletionRequest.parse(body.getBytes(StandardCharsets.UTF_8), settings, u -> new byte[0]);
        } catch (ApiError e) {
            return e.code();
        }
        return "accepted";
    }
}
