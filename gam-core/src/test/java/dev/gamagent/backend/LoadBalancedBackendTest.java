package dev.gamagent.backend;

import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.gamagent.backend.BackendContractTest.fastRetries;
import static dev.gamagent.backend.BackendContractTest.question;
import static org.assertj.core.api.Assertions.assertThat;

/** Several replicas of one model behind one backend. */
class LoadBalancedBackendTest {
    private static Backend backend(List<String> urls, int retries) { return backend(urls, retries, 4); }

    private static Backend backend(List<String> urls, int retries, int maxConcurrent) {
        return BackendFactory.create(new BackendSpec("openai", urls, "vlm", null, Duration.ofSeconds(10), retries, maxConcurrent, null, null, null),
                fastRetries().with("backend.endpoint_cooldown_ms", "60000"), Map.<String, String>of()::get);
    }

    @Test void concurrentRequestsAreSpreadOverBothServers() throws Exception {
        try (OpenAiWireServer a = new OpenAiWireServer(); OpenAiWireServer b = new OpenAiWireServer()) {
            // A little latency keeps requests in flight, so least-in-flight has something to balance.
            a.respondWith(r -> Reply.delayed(Duration.ofMillis(40), Reply.answer("A")));
            b.respondWith(r -> Reply.delayed(Duration.ofMillis(40), Reply.answer("A")));
            ExecutorService ex = Executors.newFixedThreadPool(6);
            try (Backend lb = backend(List.of(a.baseUrl(), b.baseUrl()), 0)) {
                List<Future<ChatResult>> fs = new ArrayList<>();
                for (int i = 0; i < 24; i++) fs.add(ex.submit(() -> lb.chat(question())));
                for (Future<ChatResult> f : fs) assertThat(f.get().text()).isEqualTo("A");
            } finally {
                ex.shutdownNow();
            }
            assertThat(a.chatRequests().size() + b.chatRequests().size()).isEqualTo(24);
            assertThat(a.chatRequests().size()).isBetween(6, 18);
            assertThat(b.chatRequests().size()).isBetween(6, 18);
        }
    }

    @Test void anEndpointThatRefusesConnectionsIsSkippedAfterItsFirstFailure() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) { dead = s.getLocalPort(); }
        try (OpenAiWireServer live = new OpenAiWireServer()) {
            try (Backend lb = backend(List.of("http://127.0.0.1:" + dead + "/v1", live.baseUrl()), 2)) {
                for (int i = 0; i < 6; i++) assertThat(lb.chat(question()).text()).isEqualTo("A");
                LoadBalancedBackend inner = (LoadBalancedBackend) ((ResilientBackend) lb).inner();
                assertThat(inner.servedCounts()).containsExactly(0L, 6L);
            }
            assertThat(live.chatRequests()).hasSize(6);
        }
    }

    @Test void capabilitiesAreWhatEveryEndpointCanGive() {
        try (OpenAiWireServer a = new OpenAiWireServer(); OpenAiWireServer b = new OpenAiWireServer()) {
            b.rejectLogprobs();
            try (Backend lb = backend(List.of(a.baseUrl(), b.baseUrl()), 0)) {
                for (int i = 0; i < 4; i++) lb.chat(question());
                assertThat(lb.capabilities().logprobs()).isFalse();
            }
        }
    }

    @Test void eachEndpointGetsAtMostMaxConcurrentRequestsEvenWhenItsPeerIsDown() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) { dead = s.getLocalPort(); }
        try (OpenAiWireServer live = new OpenAiWireServer()) {
            live.respondWith(r -> Reply.delayed(Duration.ofMillis(30), Reply.answer("A")));
            ExecutorService ex = Executors.newFixedThreadPool(8);
            try (Backend lb = backend(List.of("http://127.0.0.1:" + dead + "/v1", live.baseUrl()), 3, 2)) {
                List<Future<ChatResult>> fs = new ArrayList<>();
                for (int i = 0; i < 16; i++) fs.add(ex.submit(() -> lb.chat(question())));
                for (Future<ChatResult> f : fs) assertThat(f.get().text()).isEqualTo("A");
            } finally {
                ex.shutdownNow();
            }
            assertThat(live.chatRequests()).hasSize(16);
            assertThat(live.peakConcurrent()).isBetween(1, 2);
        }
    }
}
