package dev.gamagent;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.BackendException;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.gamagent.testing.MethodFixtures.question;
import static dev.gamagent.testing.MethodFixtures.textBackend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Gam} reads its backend settings from the configuration (defaults.json, a file, {@code set}) as the command
 * line does, and its agents may name the backends of the configuration's {@code backends} section.
 */
class GamConfigurationTest {
    @TempDir Path dir;

    /** Asks one question of a server that answers every request 503 and returns how many requests it received. */
    private static int requestsUntilGivingUp(String... settings) {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.status(503, "{\"error\":{\"message\":\"overloaded\"}}"));
            Gam.Builder b = Gam.builder().openAiCompatible(server.baseUrl(), "test-vlm")
                    .set("backend.retry_base_ms", "1").set("backend.retry_max_ms", "1");
            for (int i = 0; i < settings.length; i += 2) b.set(settings[i], settings[i + 1]);
            try (Gam gam = b.build()) {
                assertThatThrownBy(() -> gam.ask(question())).isInstanceOf(BackendException.ServerUnavailable.class);
            }
            return server.chatRequests().size();
        }
    }

    @Test void theRetriesOfTheConfigurationAreHonouredAndDefaultToDefaultsJson() {
        assertThat(requestsUntilGivingUp()).as("defaults.json's backend.retries (4) after the first request").isEqualTo(5);
        assertThat(requestsUntilGivingUp("backend.retries", "1")).isEqualTo(2);
        assertThat(requestsUntilGivingUp("backend.retries", "0")).isEqualTo(1);
    }

    @Test void gamsAgentsRunOnTheNamedBackendsOfTheConfigurationsBackendsSection() throws IOException {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> Reply.answer("ANSWER: B\nCONFIDENCE: 0.9"));
            Path config = dir.resolve("gam.json");
            Files.writeString(config, """
                    {"backends": {"big": {"kind": "openai", "base_urls": ["%s"], "model": "big-vlm", "retries": 0}},
                     "gam": {"agents": [{"role": "scene", "backend": "big"}, {"role": "ocr"}, {"role": "relational"}], "max_rounds": 0}}
                    """.formatted(server.baseUrl()));
            ScriptedBackend own = textBackend(u -> "ANSWER: B\nCONFIDENCE: 0.9");
            Answer a;
            try (Gam gam = Gam.builder().backend(own).method("gam").config(config).build()) {
                a = gam.ask(question());
            }
            assertThat(server.chatRequests()).as("the agent on 'big' asked its server").isNotEmpty();
            assertThat(server.chatRequests()).allSatisfy(r -> assertThat(r.json().path("model").asText()).isEqualTo("big-vlm"));
            server.assertNoViolations();
            assertThat(own.requests).as("the other agents asked the builder's backend").isNotEmpty();
            assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::backend).containsExactly("big", "default", "default");
        }
    }

    @Test void anAgentNamingABackendTheConfigurationLacksFailsNamingTheKnownOnes() {
        // at build(), before any question: every reference that names no backend, with the known names (issue 43)
        assertThatThrownBy(() -> Gam.builder().backend(textBackend(u -> "ANSWER: A")).method("gam")
                .set("gam.agents", "[{\"role\": \"scene\", \"backend\": \"nowhere\"}, {\"role\": \"ocr\", \"backend\": \"nowhere\"}]").build())
                .hasMessageContaining("gam.agents[0].backend = 'nowhere'").hasMessageContaining("gam.agents[1].backend = 'nowhere'")
                .hasMessageContaining("known backends: default, local");
    }
}
