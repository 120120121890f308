package dev.gamagent.backend;

import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.testing.http.WireServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What every HTTP backend must do against a real server speaking its wire format: parse answers,
 * log-probs and usage; estimate missing usage; retry 429/5xx; type every failure. Subclasses give the
 * server and the backend kind.
 */
abstract class BackendContractTest {
    static final String KEY = "sk-test-SECRET-0123456789";

    protected WireServer server;

    protected abstract WireServer newServer();

    protected abstract String kind();

    /** Whether this wire format carries log-probs at all. */
    protected boolean givesLogprobs() { return true; }

    /** Whether this wire format reports the prompt tokens read from the server's prefix cache. */
    protected boolean reportsCachedTokens() { return true; }

    @BeforeEach void start() { server = newServer(); }

    @AfterEach void stop() {
        server.close();
        server.assertNoViolations();
    }

    static Config fastRetries() {
        return Config.defaults().with("backend.retry_base_ms", "1").with("backend.retry_after_cap_ms", "300");
    }

    protected Backend backend(int retries, Duration timeout, String... urls) {
        BackendSpec spec = new BackendSpec(kind(), List.of(urls), "test-model", null, timeout, retries, 4, null, null, "qwen");
        return BackendFactory.create(spec, fastRetries(), Map.of("OPENAI_API_KEY", KEY, "GEMINI_API_KEY", KEY, "ANTHROPIC_API_KEY", KEY)::get);
    }

    protected Backend backend(int retries) { return backend(retries, Duration.ofSeconds(10), server.baseUrl()); }

    static Picture redSquare() {
        BufferedImage img = new BufferedImage(32, 24, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(0, 0, 32, 24);
        g.dispose();
        return new Picture("red.png", img);
    }

    static ChatRequest question() {
        return ChatRequest.of(List.of(ChatMessage.system("Answer with one letter."),
                ChatMessage.user("What color is the square?\nA. red\nB. blue", List.of(redSquare()))));
    }

    static TokenLogprob tokenA() {
        return new TokenLogprob("A", -0.105, List.of(new TokenLogprob.Alternative("A", -0.105),
                new TokenLogprob.Alternative("B", -2.4), new TokenLogprob.Alternative("C", -9999.0)));
    }

    @Test void answersWithTheServersTextAndUsage() {
        server.enqueue(Reply.answer("B"));
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question());
            assertThat(r.text()).isEqualTo("B");
            assertThat(r.usage().estimated()).isFalse();
            assertThat(r.usage().promptTokens()).isEqualTo(321);
            assertThat(r.latency()).isPositive();
        }
        assertThat(server.chatRequests()).hasSize(1);
    }

    @Test void readsThePromptTokensTheServerReadFromItsCacheApartFromTheTokensSent() {
        // 900 tokens sent: 640 read from the cache, 100 computed and written to it (Anthropic reports those apart), 160 computed
        server.enqueue(Reply.answer("B").withPromptTokens(900).withCache(640, 100));
        try (Backend b = backend(0)) {
            Usage u = b.chat(question()).usage();
            assertThat(u.estimated()).isFalse();
            assertThat(u.promptTokens()).as("the prompt tokens sent, cached ones included").isEqualTo(900);
            assertThat(u.cachedPromptTokens()).isEqualTo(reportsCachedTokens() ? 640L : null);
            assertThat(u.toTokenCount().computed()).isEqualTo(reportsCachedTokens() ? 260L : null);
        }
    }

    @Test void aServerThatReportsNoCachedCountLeavesItUnknownNotZero() {
        server.enqueue(Reply.answer("B"));
        try (Backend b = backend(0)) {
            Usage u = b.chat(question()).usage();
            assertThat(u.promptTokens()).isEqualTo(321);
            assertThat(u.cachedPromptTokens()).isNull();
            assertThat(u.toTokenCount().computed()).isNull();
        }
    }

    @Test void parsesTopKLogprobsWithImpossibleTokensAndNullBytes() {
        server.enqueue(Reply.answer("A", List.of(tokenA())).withNullBytes());
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question());
            assertThat(r.text()).isEqualTo("A");
            if (!givesLogprobs()) {
                assertThat(r.first().logprobs()).isEmpty();
                assertThat(r.signal()).isEqualTo(UncertaintySignal.SEMANTIC);
                assertThat(b.capabilities().logprobs()).isFalse();
                return;
            }
            TokenLogprob t = r.first().logprobs().get(0);
            assertThat(t.token()).isEqualTo("A");
            assertThat(TokenLogprob.probability(t.logprob())).isCloseTo(Math.exp(-0.105), org.assertj.core.data.Offset.offset(1e-9));
            assertThat(t.top()).extracting(TokenLogprob.Alternative::token).containsExactly("A", "B", "C");
            assertThat(TokenLogprob.probability(t.top().get(2).logprob())).isZero();
            assertThat(r.signal()).isEqualTo(UncertaintySignal.TOP_K);
            assertThat(b.capabilities().bestSignal()).isEqualTo(UncertaintySignal.TOP_K);
        }
    }

    @Test void anAnswerWithoutLogprobsFallsBackToSemanticUncertainty() {
        server.enqueue(Reply.answer("A", List.of(tokenA())).withoutLogprobs());
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question());
            assertThat(r.first().logprobs()).isEmpty();
            assertThat(r.signal()).isEqualTo(UncertaintySignal.SEMANTIC);
        }
    }

    @Test void missingUsageIsEstimatedFromTextAndImages() {
        server.enqueue(Reply.answer("A").withoutUsage());
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question());
            assertThat(r.usage().estimated()).isTrue();
            long imageTokens = dev.gamagent.image.internal.ImageTokens.estimate("qwen", 32, 24);
            assertThat(r.usage().promptTokens()).isGreaterThan(imageTokens + 10);
            assertThat(r.usage().completionTokens()).isPositive();
        }
    }

    @Test void retriesAfter429HonouringRetryAfterThenSucceeds() {
        server.enqueue(Reply.status(429, "{\"error\":{\"message\":\"slow down\"}}").header("Retry-After", "1"), Reply.answer("A"));
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        try (Backend b = backend(3)) {
            System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
            long t0 = System.nanoTime();
            ChatResult r = b.chat(question());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(r.text()).isEqualTo("A");
            assertThat(ms).as("waited Retry-After (1 s, capped at 300 ms in tests)").isGreaterThanOrEqualTo(280);
        } finally {
            System.setErr(err);
        }
        assertThat(server.chatRequests()).hasSize(2);
        assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("WARN").contains("retry 1/3 after 429 from " + server.baseUrl() + " in 0.3s");
    }

    @Test void retriesAfter500ThenSucceeds() {
        server.enqueue(Reply.status(500, "{\"error\":\"boom\"}"), Reply.answer("B"));
        try (Backend b = backend(3)) {
            assertThat(b.chat(question()).text()).isEqualTo("B");
        }
        assertThat(server.chatRequests()).hasSize(2);
    }

    @Test void aPersistent500BecomesServerUnavailableAfterTheLastTry() {
        server.respondWith(r -> Reply.status(503, "{\"error\":\"overloaded\"}"));
        try (Backend b = backend(2)) {
            Throwable t = catchThrowable(() -> b.chat(question()));
            assertThat(t).isInstanceOf(BackendException.ServerUnavailable.class);
            assertThat(((BackendException.ServerUnavailable) t).status()).isEqualTo(503);
            assertThat(t.getMessage()).contains("127.0.0.1").doesNotContain(KEY);
            assertThat(b.name()).doesNotContain(KEY);
        }
        assertThat(server.chatRequests()).hasSize(3);
    }

    /**
     * Issue 28 and 38: whatever header this wire format carries the key in (Authorization, x-api-key, x-goog-api-key), an
     * upstream echoing it in any form — JSON-escaped, HTML-escaped, URL-encoded, base64 (wrapped too), split by white
     * space, hex, {@code \xNN}, most of it — gets none of it into the error the caller sees or the answer it gets.
     */
    @Test void aKeyEchoedInAnyFormReachesNeitherTheErrorNorTheAnswer() {
        String key = "sk-test/SECRET+9876=xyz";
        String forms = java.util.Arrays.stream(dev.gamagent.testing.SecretForm.values()).map(f -> f.of(key))
                .collect(java.util.stream.Collectors.joining(" | "));
        String inJson = java.util.Arrays.stream(dev.gamagent.testing.SecretForm.values()).map(f -> f.inJson(key))
                .collect(java.util.stream.Collectors.joining(" | "));
        server.enqueue(Reply.status(400, "{\"error\":{\"message\":\"bad key " + inJson + "\"}}"), Reply.answer("ANSWER: A, key " + forms));
        BackendSpec spec = new BackendSpec(kind(), List.of(server.baseUrl()), "test-model", null, Duration.ofSeconds(10), 0, 4, null, null, "qwen");
        try (Backend b = BackendFactory.create(spec, fastRetries(), Map.of("OPENAI_API_KEY", key, "OLLAMA_API_KEY", key, "GEMINI_API_KEY", key,
                "ANTHROPIC_API_KEY", key)::get)) {
            Throwable t = catchThrowable(() -> b.chat(question()));
            assertThat(t).isInstanceOf(BackendException.class);
            assertThat(t.getMessage()).contains("bad key [redacted]").doesNotContain("SECRET");
            ChatResult r = b.chat(question());
            assertThat(r.text()).startsWith("ANSWER: A, key [redacted]").doesNotContain("SECRET");
            for (dev.gamagent.testing.SecretForm f : dev.gamagent.testing.SecretForm.values()) assertThat(r.text()).doesNotContain(f.of(key));
            assertThat(dev.gamagent.testing.KeyRecovery.holdsRun(t.getMessage() + r.text(), "SECRET", 6)).isFalse();
            for (TokenLogprob tok : r.first().logprobs()) assertThat(tok.token()).doesNotContain("SECRET");
        }
        assertThat(server.chatRequests()).allSatisfy(q -> assertThat(q.headers().values()).anySatisfy(v -> assertThat(v).contains(key)));
    }

    @Test void aBadRequestIsNotRetried() {
        server.enqueue(Reply.status(404, "{\"error\":\"model not found\"}"));
        try (Backend b = backend(3)) {
            assertThatThrownBy(() -> b.chat(question())).isInstanceOf(BackendException.InvalidRequest.class)
                    .hasMessageContaining("model not found");
        }
        assertThat(server.chatRequests()).hasSize(1);
    }

    @Test void aSlowServerTimesOut() {
        server.enqueue(Reply.delayed(Duration.ofSeconds(5), Reply.answer("A")));
        try (Backend b = backend(0, Duration.ofMillis(300), server.baseUrl())) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> b.chat(question())).isInstanceOf(BackendException.Timeout.class);
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(3000);
        }
    }

    @Test void malformedJsonIsAMalformedResponse() {
        server.enqueue(Reply.raw(200, "{\"choices\": [ {\"message\": "));
        try (Backend b = backend(0)) {
            assertThatThrownBy(() -> b.chat(question())).isInstanceOf(BackendException.MalformedResponse.class);
        }
    }

    @Test void malformedJsonIsRetriedLikeAnyTransientFailure() {
        server.enqueue(Reply.raw(200, "not json at all"), Reply.answer("A"));
        try (Backend b = backend(2)) {
            assertThat(b.chat(question()).text()).isEqualTo("A");
        }
    }

    @Test void aTruncatedBodyIsATypedError() {
        server.enqueue(Reply.truncated("{\"id\":\"x\",\"choices\":[{\"index\":0,", 200));
        try (Backend b = backend(0)) {
            Throwable t = catchThrowable(() -> b.chat(question()));
            assertThat(t).isInstanceOfAny(BackendException.ConnectionFailed.class, BackendException.MalformedResponse.class);
        }
    }

    @Test void aDroppedConnectionIsConnectionFailed() {
        server.enqueue(Reply.drop());
        try (Backend b = backend(0)) {
            assertThatThrownBy(() -> b.chat(question())).isInstanceOf(BackendException.ConnectionFailed.class);
        }
    }

    @Test void aRefusedConnectionIsConnectionFailed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) { port = s.getLocalPort(); }
        String url = server.baseUrl().replace(":" + server.port(), ":" + port);
        try (Backend b = backend(1, Duration.ofSeconds(5), url)) {
            assertThatThrownBy(() -> b.chat(question())).isInstanceOf(BackendException.ConnectionFailed.class)
                    .hasMessageContaining("127.0.0.1:" + port);
        }
    }

    @Test void severalSamplesGiveSeveralChoices() {
        server.respondWith(r -> Reply.answer("A"));
        try (Backend b = backend(0)) {
            ChatResult r = b.chat(question().withSampling(0.7, 16, 3, 42L));
            assertThat(r.choices()).hasSize(3).allSatisfy(c -> assertThat(c.text()).isEqualTo("A"));
        }
    }
}
