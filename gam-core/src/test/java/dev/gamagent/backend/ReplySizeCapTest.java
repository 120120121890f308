package dev.gamagent.backend;

import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.config.Config;
import dev.gamagent.testing.http.EndlessServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.backend.internal.SecretScrubber;

/** Issue 25: an upstream reply that never ends is cut off at the cap with an error naming the server, not read into the heap. */
class ReplySizeCapTest {
    @Test void anEndlessReplyEndsAtTheCapWithAnErrorNamingTheServer() throws Exception {
        try (EndlessServer server = new EndlessServer(0)) {
            HttpTransport t = new HttpTransport(Duration.ofSeconds(60), SecretScrubber.NONE, 256 * 1024);
            URI uri = URI.create(server.url() + "/chat/completions");
            assertThatThrownBy(() -> t.postJson(uri, Map.of("model", "m"), Map.of()))
                    .isInstanceOf(BackendException.ReplyTooLarge.class)
                    .hasMessageStartingWith("http://127.0.0.1:" + uri.getPort() + "/v1/chat/completions sent a reply of more than 0.3 MB")
                    .hasMessageContaining("config backend.max_reply_mb");
            Thread.sleep(200);
            long afterCut = server.sent.get();
            Thread.sleep(300);
            assertThat(server.sent.get()).as("the server could send nothing more once the client hung up").isLessThanOrEqualTo(afterCut + 4 << 20);
        }
    }

    @Test void aReplyDeclaredLargerThanTheCapIsRefusedFromItsHeaders() throws Exception {
        try (EndlessServer server = new EndlessServer(1L << 40)) {
            HttpTransport t = new HttpTransport(Duration.ofSeconds(60), SecretScrubber.NONE, 1 << 20);
            assertThatThrownBy(() -> t.postJson(URI.create(server.url() + "/chat/completions"), Map.of("model", "m"), Map.of()))
                    .isInstanceOf(BackendException.ReplyTooLarge.class).hasMessageContaining("declared as 1048576.0 MB");
        }
    }

    @Test void theCapIsASettingAndTheErrorIsNotRetried() throws Exception {
        try (EndlessServer server = new EndlessServer(0)) {
            BackendSpec spec = new BackendSpec("openai", java.util.List.of(server.url()), "m", null, Duration.ofSeconds(60), 3, 4, null, null, null);
            Config config = Config.defaults().with("backend.max_reply_mb", "0.5");
            try (Backend b = BackendFactory.create(spec, config, k -> null)) {
                assertThatThrownBy(() -> b.chat(BackendContractTest.question())).isInstanceOf(BackendException.ReplyTooLarge.class)
                        .hasMessageContaining("past the limit of 0.5 MB");
            }
            assertThat(server.accepted.get()).as("one request: the same request would be cut off again").isEqualTo(1);
        }
    }
}
