package dev.gamagent.gam;

import dev.gamagent.Gam;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;
import dev.gamagent.testing.ScriptedBackend;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 43: with OpenTelemetry's SDK (its in-memory exporter), a GAM question is one trace: the question's span, a span per
 * round and per backend call under it, with the GenAI semantic conventions and GAM's own attributes — the same rounds,
 * calls and figures as the question's {@link Trace}. A session given a W3C trace context continues it.
 */
class DebateTracingTest {
    @RegisterExtension static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<Long> ROUND = AttributeKey.longKey("gam.round");
    static final AttributeKey<String> AGENT = AttributeKey.stringKey("gam.agent");
    static final AttributeKey<Long> INPUT = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT = AttributeKey.longKey("gen_ai.usage.output_tokens");

    private final ExecutorService exec = Executors.newFixedThreadPool(4);

    @AfterEach void stop() { exec.shutdownNow(); }

    private Answer ask(Map<String, String> traceContext) {
        ScriptedBackend panel = TracePromptsTest.panel();
        return Gam.session(panel, name -> panel, Config.defaults(), exec).continuing(traceContext)
                .ask(MethodRegistry.create("gam"), TracePromptsTest.question(), null, null);
    }

    @Test void aGamQuestionIsOneTraceWhoseSpansAreItsRoundsAndCallsWithTheGenAiAttributes() {
        Answer a = ask(Map.of());
        List<SpanData> spans = OTEL.getSpans();
        assertThat(spans.stream().map(SpanData::getTraceId).distinct()).as("one trace").hasSize(1);

        SpanData q = spans.stream().filter(s -> "invoke_agent".equals(s.getAttributes().get(OPERATION))).collect(single());
        assertThat(q.getName()).isEqualTo("invoke_agent gam");
        assertThat(q.getParentSpanContext().isValid()).as("the question's span is the root").isFalse();
        assertThat(q.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.name"))).isEqualTo("gam");
        assertThat(q.getAttributes().get(AttributeKey.stringKey("gam.question.id"))).isEqualTo("q-7");
        assertThat(q.getAttributes().get(AttributeKey.stringKey("gam.termination"))).isEqualTo(a.termination().label());
        assertThat(q.getAttributes().get(AttributeKey.longKey("gam.rounds"))).isEqualTo(a.rounds());
        assertThat(q.getAttributes().get(AttributeKey.longKey("gam.calls"))).isEqualTo(a.calls());
        assertThat(q.getAttributes().get(AttributeKey.doubleKey("gam.u_sys"))).isEqualTo(a.uncertainty());
        assertThat(q.getAttributes().get(AttributeKey.doubleKey("gam.confidence"))).isEqualTo(a.confidence());
        assertThat(q.getAttributes().get(INPUT)).isEqualTo(a.tokens().prompt());
        assertThat(q.getAttributes().get(OUTPUT)).isEqualTo(a.tokens().completion());

        // a round span per round of the trace, each under the question, with U_sys, C and the weights after it
        List<SpanData> rounds = spans.stream().filter(s -> s.getName().startsWith("gam.round ")).toList();
        List<Trace.Round> traced = a.trace().rounds();
        assertThat(traced).as("a debate ran").hasSizeGreaterThan(1);
        assertThat(rounds).extracting(s -> s.getAttributes().get(ROUND)).containsExactlyInAnyOrderElementsOf(
                traced.stream().map(r -> (long) r.k()).toList());
        Map<Long, SpanData> roundByK = rounds.stream().collect(Collectors.toMap(s -> s.getAttributes().get(ROUND), s -> s));
        for (Trace.Round r : traced) {
            SpanData rs = roundByK.get((long) r.k());
            assertThat(rs.getParentSpanId()).isEqualTo(q.getSpanId());
            if (r.uSys() != null) assertThat(rs.getAttributes().get(AttributeKey.doubleKey("gam.u_sys"))).isCloseTo(r.uSys(), within(1e-12));
            if (r.conflict() != null) assertThat(rs.getAttributes().get(AttributeKey.doubleKey("gam.conflict"))).isCloseTo(r.conflict(), within(1e-12));
            assertThat(rs.getAttributes().get(AttributeKey.stringArrayKey("gam.weights.agents"))).isNotEmpty();
        }

        // a chat span per backend call, each under a round, with the model and the usage; every expert's turn among them
        List<SpanData> calls = spans.stream().filter(s -> "chat".equals(s.getAttributes().get(OPERATION))).toList();
        assertThat(calls).hasSize(a.calls());
        assertThat(spans).hasSize(1 + rounds.size() + calls.size());
        assertThat(calls).allSatisfy(c -> {
            assertThat(c.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(c.getName()).isEqualTo("chat scripted");
            assertThat(c.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("scripted");
            assertThat(c.getAttributes().get(AttributeKey.stringKey("gen_ai.response.model"))).isEqualTo("scripted");
            assertThat(c.getAttributes().get(INPUT)).isEqualTo(10L);
            assertThat(c.getAttributes().get(OUTPUT)).isPositive();
            assertThat(roundByK.values()).extracting(SpanData::getSpanId).contains(c.getParentSpanId());
        });
        assertThat(calls.stream().mapToLong(c -> c.getAttributes().get(INPUT)).sum()).isEqualTo(a.tokens().prompt());
        assertThat(calls.stream().mapToLong(c -> c.getAttributes().get(OUTPUT)).sum()).isEqualTo(a.tokens().completion());
        for (Trace.Round r : traced) {
            for (Trace.AgentTurn t : r.agents()) {
                assertThat(calls).as("round %d, %s", r.k(), t.id()).anySatisfy(c -> {
                    assertThat(c.getAttributes().get(AGENT)).isEqualTo(t.id());
                    assertThat(c.getAttributes().get(ROUND)).isEqualTo(r.k());
                    assertThat(c.getParentSpanId()).isEqualTo(roundByK.get((long) r.k()).getSpanId());
                    assertThat(c.getAttributes().get(OUTPUT)).isEqualTo(t.tokens().completion());
                });
            }
        }
    }

    @Test void aSessionGivenATraceparentContinuesItsTrace() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736", parent = "00f067aa0ba902b7";
        ask(Map.of("traceparent", "00-" + traceId + "-" + parent + "-01"));
        List<SpanData> spans = OTEL.getSpans();
        assertThat(spans).isNotEmpty().allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(traceId));
        SpanData q = spans.stream().filter(s -> "invoke_agent".equals(s.getAttributes().get(OPERATION))).collect(single());
        assertThat(q.getParentSpanId()).isEqualTo(parent);
        assertThat(q.getParentSpanContext().isRemote()).isTrue();
    }

    private static <T> java.util.stream.Collector<T, ?, T> single() {
        return Collectors.collectingAndThen(Collectors.toList(), l -> {
            assertThat(l).hasSize(1);
            return l.get(0);
        });
    }
}
