package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, item 8: against a server that accepts connections and drops them, every method fails after
 * one call's retries (not one set of retries per parallel agent) and says why; DREAM does not pretend a
 * probe branch was decided.
 */
class DeadBackendTest {
    @TempDir Path dir;

    private CommandRun ask(OpenAiWireServer server, String method) throws Exception {
        return CommandRun.main("ask", "--image", AskEndToEndTest.trianglePng(dir).toString(), "--question", "What colour?", "--option", "A=red",
                "--option", "B=blue", "--method", method, "--backend", "openai", "--model", "m", "--base-url", server.baseUrl(),
                "--retries", "4", "--set", "backend.retry_base_ms=50", "--set", "backend.retry_max_ms=100");
    }

    @Test void dreamGamAgainstADeadServerMakesOneCallsRetriesAndSaysTheProbesFailed() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.drop());
            CommandRun r = ask(server, "dream+gam");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).contains("error: dream+gam: every one of the 9 probe calls failed")
                    .contains("connection to http://127.0.0.1:" + server.port() + "/v1/chat/completions failed")
                    .doesNotContain("StaticAll");
            // every call that started before the verdict made its first try at once; only one call retried (issue 25)
            assertThat(server.chatRequests().size()).as("attempts: a first try of each probe call at most + 4 retries of one call")
                    .isBetween(1 + 4, 9 + 4);
        }
    }

    @Test void gamAgainstADeadServerAlsoStopsAfterOneCallsRetries() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.drop());
            CommandRun r = ask(server, "gam");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).contains("error: gam: no expert answered");
            assertThat(server.chatRequests().size()).as("a first try of each expert at most + 4 retries of one").isBetween(1 + 4, 3 + 4);
        }
    }

    @Test void oneAnsweredCallOpensTheGateForAllParallelCalls() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            CommandRun r = ask(server, "vote");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(server.chatRequests()).hasSize(3);
        }
    }

    @Test void theFirstRoundOfAFreshProcessSendsEveryExpertsCallAtOnce() throws Exception {
        // issue 25: a fresh `gam ask` sent one expert's call and the other two only when its answer was back
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            var allThree = new java.util.concurrent.CountDownLatch(3);
            server.respondWith(req -> {
                allThree.countDown();
                try {
                    allThree.await(10, java.util.concurrent.TimeUnit.SECONDS); // answers once the three are in (or never were)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Reply.answer("A");
            });
            CommandRun r = ask(server, "gam");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(server.peakConcurrent()).as("requests in flight at once in round 0").isEqualTo(3);
        }
    }

    @Test void backendsCheckSaysImagesAreUnknownWhenA503LeftItUntested() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.status(503, "{\"error\":{\"message\":\"model is loading\"}}"));
            CommandRun r = CommandRun.main("backends", "check", "--backend", "openai", "--model", "m", "--base-url", server.baseUrl(), "--retries", "0");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.out()).contains("images:      unknown").doesNotContain("images:      no").contains("model is loading");
            CommandRun json = CommandRun.main("backends", "check", "--backend", "openai", "--model", "m", "--base-url", server.baseUrl(), "--retries", "0", "--json");
            assertThat(dev.gamagent.util.Json.MAPPER.readTree(json.out()).path("images").isNull()).as(json.out()).isTrue();
        }
    }
}
