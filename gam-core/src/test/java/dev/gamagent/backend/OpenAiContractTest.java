package dev.gamagent.backend;

import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.testing.http.WireServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The backend contract against a OpenAiWireServer. */
class OpenAiContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new OpenAiWireServer(); }

    @Override protected String kind() { return "openai"; }

    @Override protected boolean givesLogprobs() { return true; }

    @Test void aCachedCountOfZeroIsZeroNotUnknown() {
        server.enqueue(Reply.answer("B").withPromptTokens(500).withCache(0, 0));
        try (Backend b = backend(0)) {
            Usage u = b.chat(question()).usage();
            assertThat(u.cachedPromptTokens()).isZero();
            assertThat(u.toTokenCount().computed()).isEqualTo(500);
        }
    }

    @Test void samplesMadeUpBySeparateCallsAddTheirCachedTokens() {
        // a server answering one choice for n = 2 (Ollama's /v1): the second sample is a call of its own, with its own usage
        ((OpenAiWireServer) server).ignoreN();
        server.enqueue(Reply.answer("A").withPromptTokens(400).withCache(0, 0), Reply.answer("B").withPromptTokens(400).withCache(384, 0));
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question().withSampling(0.7, 16, 2, 1L));
            assertThat(r.choices()).hasSize(2);
            assertThat(r.usage().promptTokens()).isEqualTo(800);
            assertThat(r.usage().cachedPromptTokens()).isEqualTo(384);
        }
        assertThat(server.chatRequests()).hasSize(2);
    }
}
