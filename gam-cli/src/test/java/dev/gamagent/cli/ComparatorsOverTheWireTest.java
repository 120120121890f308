package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.http.AnthropicWireServer;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.GeminiWireServer;
import dev.gamagent.testing.http.OllamaWireServer;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.WireServer;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The papers' comparators ({@code dwi}, {@code div-mad} and their DREAM wrappers) through {@code gam ask}
 * against real HTTP servers of every wire format: DwI's marked images and MAD's multi-turn memory must be
 * valid requests in each.
 */
class ComparatorsOverTheWireTest {
    @TempDir Path dir;

    private static synchronized String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            assertThat(code).as("exit code; stdout: " + buf.toString(StandardCharsets.UTF_8)).isZero();
            return buf.toString(StandardCharsets.UTF_8);
        } finally {
            System.setOut(old);
        }
    }

    /** How many PNG images a request carries, whatever its wire format (every backend sends base64 PNG). */
    private static int pngs(Received r) {
        int n = 0;
        for (int i = r.body().indexOf("iVBORw0KGgo"); i >= 0; i = r.body().indexOf("iVBORw0KGgo", i + 1)) n++;
        return n;
    }

    @ParameterizedTest(name = "{0} through {1}")
    @CsvSource({"dwi, openai", "dwi, ollama", "dwi, gemini", "dwi, anthropic", "div-mad, openai", "div-mad, ollama",
            "div-mad, gemini", "div-mad, anthropic", "dream+dwi, openai", "dream+div-mad, anthropic"})
    void theComparatorsAnswerThroughEveryWireFormat(String method, String backend) throws Exception {
        try (WireServer server = switch (backend) {
            case "openai" -> new OpenAiWireServer();
            case "gemini" -> new GeminiWireServer();
            case "anthropic" -> new AnthropicWireServer();
            default -> new OllamaWireServer();
        }) {
            server.respondWith(new DisagreeingExperts(AskEndToEndTest.WIDTH));
            Path trace = dir.resolve(method + "-" + backend + ".json");
            List<String> args = new ArrayList<>(List.of("ask", "--method", method, "--backend", backend, "--base-url", server.baseUrl(),
                    "--image", AskEndToEndTest.trianglePng(dir).toString(), "--question", "What color is the triangle?",
                    "--option", "A=red", "--option", "B=blue", "--option", "C=green", "--json", "--trace", trace.toString(), "--retries", "0"));
            if (backend.equals("gemini") || backend.equals("anthropic")) {
                // hosted APIs need a model name and a key header: the key comes from a variable every environment has
                args.addAll(List.of("--model", backend.equals("gemini") ? "gemini-2.5-flash" : "claude-sonnet-4-5", "--api-key-env", "PATH"));
            }
            JsonNode o = Json.MAPPER.readTree(run(args.toArray(String[]::new)).strip());
            server.assertNoViolations();
            assertThat(o.path("method").asText()).isEqualTo(method);
            assertThat(o.path("option").asText()).isEqualTo("A");
            JsonNode t = Json.MAPPER.readTree(Files.readString(trace));
            assertThat(t.path("method").asText()).isEqualTo(method);
            List<Received> calls = server.chatRequests().stream().filter(r -> !DisagreeingExperts.promptText(r.json()).contains("<task>probe</task>")).toList();
            if (method.endsWith("dwi")) {
                assertThat(calls).hasSize(5);
                // each speaker gets the picture plus one marked picture per earlier turn (every reply marks a region)
                assertThat(calls.stream().map(ComparatorsOverTheWireTest::pngs).toList()).containsExactly(1, 2, 3, 4, 5);
            } else {
                assertThat(calls).as("no moderator decision: 3 rounds of 3 calls, then the judge's two").hasSize(11);
                // the third affirmative turn carries its conversation: its opening prompt and its own first reply
                assertThat(DisagreeingExperts.promptText(calls.get(6).json())).contains("You are the affirmative side and speak first",
                        "The triangle looks", "the third round");
            }
        }
    }
}
