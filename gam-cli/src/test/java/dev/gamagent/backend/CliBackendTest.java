package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.cli.Main;
import dev.gamagent.testing.http.OllamaWireServer;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.testing.http.WireServer;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@code gam ask} and {@code gam backends check} against real wire servers. */
class CliBackendTest {
    @TempDir Path dir;

    private static TokenLogprob aOverB() {
        return new TokenLogprob("A", Math.log(0.8), List.of(new TokenLogprob.Alternative("A", Math.log(0.8)),
                new TokenLogprob.Alternative("B", Math.log(0.15)), new TokenLogprob.Alternative(" A", Math.log(0.05))));
    }

    private Path png() throws Exception {
        Path p = dir.resolve("square.png");
        ImageIO.write(BackendContractTest.redSquare().image(), "png", p.toFile());
        return p;
    }

    /** Runs the CLI and returns (exit code, stdout). */
    private static Object[] run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Object[] {code, buf.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(old);
        }
    }

    private void asksAndPrintsUncertaintyFromTheServersLogprobs(WireServer server, String kind) throws Exception {
        server.respondWith(r -> Reply.answer("A", List.of(aOverB())));
        Object[] out = run("ask", "--backend", kind, "--base-url", server.baseUrl(), "--image", png().toString(),
                "--question", "What color is the square?", "--option", "A=red", "--option", "B=blue", "--json", "--retries", "0");
        assertThat(out[0]).as("exit code; stdout: " + out[1]).isEqualTo(0);
        JsonNode o = Json.MAPPER.readTree(((String) out[1]).strip());
        assertThat(o.path("option").asText()).isEqualTo("A");
        assertThat(o.path("answer").asText()).isEqualTo("red");
        assertThat(o.path("signal").asText()).isEqualTo(UncertaintySignal.TOP_K.label());
        double expected = UncertaintyEstimator.defaults().estimate(new Choice("A", List.of(aOverB()), "stop")).value();
        assertThat(o.path("uncertainty").asDouble()).isCloseTo(expected, within(1e-9)).isGreaterThan(0.05);
        assertThat(o.path("tokens").path("prompt").asLong()).isEqualTo(321);
        assertThat(server.chatRequests()).hasSize(1);
        server.assertNoViolations();
    }

    @Test void askWithAnOpenAiServerPrintsTheOptionAndLogprobUncertainty() throws Exception {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            asksAndPrintsUncertaintyFromTheServersLogprobs(s, "openai");
        }
    }

    @Test void askWithAnOllamaServerPrintsTheOptionAndLogprobUncertainty() throws Exception {
        try (OllamaWireServer s = new OllamaWireServer()) {
            asksAndPrintsUncertaintyFromTheServersLogprobs(s, "ollama");
        }
    }

    @Test void backendsCheckReportsImagesLogprobsTopKAndSignal() throws Exception {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.respondWith(r -> Reply.answer("A", List.of(aOverB())));
            Object[] out = run("backends", "check", "--backend", "openai", "--base-url", s.baseUrl(), "--json");
            assertThat(out[0]).isEqualTo(0);
            JsonNode o = Json.MAPPER.readTree(((String) out[1]).strip());
            assertThat(o.path("reachable").asBoolean()).isTrue();
            assertThat(o.path("images").asBoolean()).isTrue();
            assertThat(o.path("logprobs").asBoolean()).isTrue();
            assertThat(o.path("top_k").asInt()).isEqualTo(3);
            assertThat(o.path("signal").asText()).isEqualTo("logprobs-topk");
            assertThat(o.path("signal_meaning").asText()).contains("Φ_gen");
            assertThat(o.path("answer").asText()).isEqualTo("A");
            s.assertNoViolations();
        }
    }

    @Test void backendsCheckOfAServerWithoutLogprobsReportsSemantic() {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.rejectLogprobs();
            Object[] out = run("backends", "check", "--backend", "openai", "--base-url", s.baseUrl());
            assertThat(out[0]).isEqualTo(0);
            assertThat((String) out[1]).contains("log-probs:   no").contains("(semantic)").contains("OK");
        }
    }

    @Test void backendsCheckOfAServerThatSilentlyOmitsLogprobsSaysWhatSemanticMeansAndNamesTheSamplingOption() throws Exception {
        try (OpenAiWireServer s = new OpenAiWireServer()) {
            s.respondWith(r -> Reply.answer("A", List.of(aOverB())).withoutLogprobs());
            Object[] out = run("backends", "check", "--backend", "openai", "--base-url", s.baseUrl(), "--json");
            assertThat(out[0]).isEqualTo(0);
            JsonNode o = Json.MAPPER.readTree(((String) out[1]).strip());
            assertThat(o.path("logprobs").asBoolean()).isFalse();
            assertThat(o.path("signal").asText()).isEqualTo("semantic");
            assertThat(o.path("signal_meaning").asText()).contains("hedge words").contains("gam.uncertainty_fallback=sampling");
            Object[] human = run("backends", "check", "--backend", "openai", "--base-url", s.baseUrl());
            assertThat((String) human[1]).contains("signal:      no log-probs");
        }
    }

    @Test void backendsCheckOfANonRunningServerFailsWithExitCode1() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) { port = s.getLocalPort(); }
        Object[] out = run("backends", "check", "--backend", "ollama", "--model", "m", "--base-url", "http://127.0.0.1:" + port,
                "--retries", "0", "--json");
        assertThat(out[0]).isEqualTo(1);
        JsonNode o = Json.MAPPER.readTree(((String) out[1]).strip());
        assertThat(o.path("reachable").asBoolean()).isFalse();
        assertThat(o.path("error").asText()).contains("127.0.0.1:" + port);
    }
}
