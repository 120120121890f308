package dev.gamagent.backend;

import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.gamagent.backend.BackendContractTest.fastRetries;
import static dev.gamagent.backend.BackendContractTest.question;
import static dev.gamagent.backend.BackendContractTest.tokenA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.backend.internal.EndpointSettings;

/** Recording real answers to a JSONL file and answering from it later. */
class RecordReplayTest {
    @TempDir Path dir;

    @Test void aRecordedRunReplaysToIdenticalResults() throws Exception {
        Path file = dir.resolve("rec/calls.jsonl");
        ChatRequest q1 = question();
        ChatRequest q2 = question().withSampling(0.7, 64, 2, 7L);
        ChatResult r1, r2;
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.respondWith(r -> Reply.answer("A", List.of(tokenA())));
            BackendSpec spec = new BackendSpec("openai", List.of(s.baseUrl()), "vlm", null, Duration.ofSeconds(10), 0, 4, file, null, null);
            try (Backend b = BackendFactory.create(spec, fastRetries(), Map.<String, String>of()::get)) {
                r1 = b.chat(q1);
                r2 = b.chat(q2);
            }
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("image_sha256").doesNotContain("iVBOR"); // hashes, never pixels
        BackendSpec replay = new BackendSpec("replay", List.of(), null, null, null, 0, 4, null, file, null);
        try (Backend b = BackendFactory.create(replay, fastRetries(), Map.<String, String>of()::get)) {
            ChatResult p1 = b.chat(question());
            ChatResult p2 = b.chat(question().withSampling(0.7, 64, 2, 7L));
            assertThat(p1).isEqualTo(r1);
            assertThat(p2).isEqualTo(r2);
            assertThat(p1.first().logprobs().get(0).top()).hasSize(3);
            assertThat(TokenLogprob.probability(p1.first().logprobs().get(0).top().get(2).logprob())).isZero();
            assertThat(b.capabilities().logprobs()).isTrue();
        }
    }

    @Test void aRequestThatWasNeverRecordedIsAnInvalidRequestNamingItsHashAndTheFile() throws Exception {
        Path file = dir.resolve("calls.jsonl");
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            try (Backend b = new RecordingBackend(new OpenAiCompatibleBackend(EndpointSettings.of(s.baseUrl(), "vlm")), file)) {
                b.chat(question());
            }
        }
        try (Backend b = new ReplayBackend(file)) {
            ChatRequest other = question().withLogprobs(true, 3);
            String hash = dev.gamagent.backend.internal.CanonicalRequest.hash(other);
            assertThatThrownBy(() -> b.chat(other)).isInstanceOf(BackendException.InvalidRequest.class)
                    .hasMessageContaining(hash).hasMessageContaining(file.toString());
        }
    }

    @Test void aDifferentImageChangesTheKey() {
        ChatRequest a = question();
        var img = new java.awt.image.BufferedImage(32, 24, java.awt.image.BufferedImage.TYPE_INT_RGB);
        ChatRequest b = a.withMessages(List.of(ChatMessage.user("What color is the square?\nA. red\nB. blue",
                List.of(new dev.gamagent.image.Picture("black.png", img)))));
        assertThat(dev.gamagent.backend.internal.CanonicalRequest.hash(a)).isNotEqualTo(dev.gamagent.backend.internal.CanonicalRequest.hash(b));
        assertThat(dev.gamagent.backend.internal.CanonicalRequest.hash(a)).isEqualTo(dev.gamagent.backend.internal.CanonicalRequest.hash(question()));
    }
}
