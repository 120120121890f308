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
                "--retries", "4", "--set", "backend.retry_base_ms=1", "--set", "backend.retry_max_ms=5");
    }

    @Test void dreamGamAgainstADeadServerMakesOneCallsRetriesAndSaysTheProbesFailed() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.drop());
            CommandRun r = ask(server, "dream+gam");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).contains("error: dream+gam: every one of the 9 probe calls failed")
                    .contains("connection to http://127.0.0.1:" + server.port() + "/v1/chat/completions failed")
                    .doesNotContain("StaticAll");
            assertThat(server.chatRequests()).as("attempts: 1 try + 4 retries of one call").hasSize(5);
        }
    }

    @Test void gamAgainstADeadServerAlsoStopsAfterOneCallsRetries() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.drop());
            CommandRun r = ask(server, "gam");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).contains("error: gam: no expert answered");
            assertThat(server.chatRequests()).hasSize(5);
        }
    }

    @Test void oneAnsweredCallOpensTheGateForAllParallelCalls() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            CommandRun r = ask(server, "vote");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(server.chatRequests()).hasSize(3);
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
