package dev.gamagent.cli;

import com.sun.net.httpserver.HttpServer;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43: {@code gam eval} exports its traces over OTLP when the standard OTEL_* variables say so — here to a collector
 * stand-in on 127.0.0.1 that keeps what it is sent — and configures nothing when they do not.
 */
class TraceExportTest {
    @TempDir Path dir;

    @Test void theVariablesThatAskForAnExport() {
        assertThat(TraceExport.asked(Map.of())).isFalse();
        assertThat(TraceExport.asked(Map.of("OTEL_SERVICE_NAME", "gam"))).isFalse();
        assertThat(TraceExport.asked(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))).isTrue();
        assertThat(TraceExport.asked(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces"))).isTrue();
        assertThat(TraceExport.asked(Map.of("OTEL_TRACES_EXPORTER", "otlp"))).isTrue();
        assertThat(TraceExport.asked(Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))).isFalse();
        try (TraceExport none = TraceExport.fromEnvironment(Map.of())) {
            assertThat(none.exporting()).isFalse();
        }
        // gRPC needs a sender the launcher leaves out: the error says what to set
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TraceExport.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"))).hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf");
    }

    @Test void gamEvalExportsItsQuestionsSpansOverOtlpWhenTheVariablesSaySo() throws Exception {
        List<byte[]> received = Collections.synchronizedList(new ArrayList<>());
        List<String> paths = Collections.synchronizedList(new ArrayList<>());
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", ex -> {
            paths.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " " + ex.getRequestHeaders().getFirst("Content-Type"));
            received.add(ex.getRequestBody().readAllBytes());
            ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        collector.start();
        // the model: an OpenAI-compatible server on 127.0.0.1 that answers A with its usage, rather than the built-in model,
        // whose load and perception were most of the child's CPU (5.4 s) and none of what is checked here: the spans, their
        // names and attributes (the tokens the reply's usage reports) and how they are sent
        try (OpenAiWireServer model = new OpenAiWireServer()) {
            model.respondWith(req -> Reply.answer("A"));
            // no protocol named: gam's default is OTLP over HTTP
            Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort(),
                    "OTEL_BSP_SCHEDULE_DELAY", "200");
            CliProcess.Result r = CliProcess.run(dir, env, 600, "eval", "--data", "gam-bench/src/main/resources/bench/demo.tsv",
                    "--methods", "single", "--backend", "openai", "--base-url", model.baseUrl(), "--model", "m", "--retries", "0",
                    "--limit", "2", "--out", dir.resolve("run").toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(model.chatRequests()).as("the questions went to the model").hasSize(2);
        } finally {
            collector.stop(0);
        }
        assertThat(paths).isNotEmpty().allMatch(p -> p.equals("POST /v1/traces application/x-protobuf"));
        String all;
        synchronized (received) {
            StringBuilder sb = new StringBuilder();
            for (byte[] b : received) sb.append(new String(b, StandardCharsets.ISO_8859_1));
            all = sb.toString();
        }
        // the protobuf carries names and attribute keys as plain strings
        assertThat(all).contains("invoke_agent single", "gam.round 0", "gen_ai.operation.name", "gen_ai.usage.input_tokens",
                "gam.termination", "dev.gamagent");
        assertThat(all.split("invoke_agent single", -1).length - 1).as("one question span per question").isEqualTo(2);
        assertThat(all).as("the service's name").contains("gam");
    }
}
