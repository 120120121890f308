package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.ScriptedBackend;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43: {@code gam serve} continues the trace a request carries in its {@code traceparent} header: the question's span
 * (and its rounds' and calls' spans) join that trace, the question's span a child of the caller's; without the header
 * each question is a trace of its own. Spans go to OpenTelemetry's in-memory exporter.
 */
class ServeTraceContextTest {
    @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @TempDir Path dir;

    private static HttpResponse<String> post(ServerFixture f, JsonNode body, String traceparent) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.base + "/v1/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(dev.gamagent.util.Json.write(body)));
        if (traceparent != null) b.header("traceparent", traceparent);
        return f.client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void aRequestsTraceparentIsContinuedByTheQuestionsSpans() throws Exception {
        String traceId = "0af7651916cd43dd8448eb211c80319c", parent = "b7ad6b7169203331";
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), ScriptedBackend.text(r -> "ANSWER: B\nCONFIDENCE: 0.9"),
                Map.of(), List.of())) {
            for (boolean stream : new boolean[] {false, true}) {
                OTEL.clearSpans();
                HttpResponse<String> r = post(f, ServerFixture.request("vote", "What colour is the left half?\nA. blue\nB. red", stream,
                        ServerFixture.dataUrl()), "00-" + traceId + "-" + parent + "-01");
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                List<SpanData> spans = OTEL.getSpans();
                assertThat(spans).as("the question, its rounds and its calls").hasSizeGreaterThan(3)
                        .allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(traceId));
                SpanData q = spans.stream().filter(s -> s.getName().equals("invoke_agent vote")).findFirst().orElseThrow();
                assertThat(q.getParentSpanId()).isEqualTo(parent);
                assertThat(q.getAttributes().get(AttributeKey.stringKey("gam.question.id"))).startsWith("tr-");
                assertThat(spans).filteredOn(s -> "chat".equals(s.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name")))).hasSize(3);
            }

            OTEL.clearSpans();
            assertThat(post(f, ServerFixture.request("single", "What colour is the left half?\nA. blue\nB. red", false, ServerFixture.dataUrl()),
                    null).statusCode()).isEqualTo(200);
            assertThat(OTEL.getSpans()).isNotEmpty().allSatisfy(s -> assertThat(s.getTraceId()).isNotEqualTo(traceId))
                    .filteredOn(s -> s.getName().startsWith("invoke_agent")).singleElement()
                    .satisfies(s -> assertThat(s.getParentSpanContext().isValid()).isFalse());
        }
    }
}
