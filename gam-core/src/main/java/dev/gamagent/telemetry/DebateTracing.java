package dev.gamagent.telemetry;

import dev.gamagent.api.Question;

import java.util.Map;

/**
 * Traces of questions for OpenTelemetry (docs/observability.md): with {@code opentelemetry-api} on the class path (an
 * optional dependency of gam-core), a question is a span, each round and each backend call a child span, with the GenAI
 * semantic conventions and GAM's own {@code gam.*} attributes; spans go to the process's OpenTelemetry
 * ({@code GlobalOpenTelemetry}: an application's, the Java agent's, or the SDK {@code gam serve} and {@code gam eval}
 * configure from the {@code OTEL_*} variables), a no-op until one is set. Without the API on the class path nothing of
 * it is loaded and every question runs as before.
 */
public final class DebateTracing {
    /** Whether opentelemetry-api is on the class path: looked up once, without loading a class of it. */
    private static final boolean AVAILABLE = present("io.opentelemetry.api.GlobalOpenTelemetry");

    private DebateTracing() { }

    /** Whether questions can be traced (opentelemetry-api is on the class path). */
    public static boolean available() { return AVAILABLE; }

    /**
     * Starts the span of one question asked of {@code method}.
     *
     * @param traceContext the W3C trace context of the request the question came in ({@code traceparent}, {@code tracestate}
     *                     headers; empty: the span's parent is the current span, if any)
     */
    public static QuestionSpan start(String method, Question question, Map<String, String> traceContext) {
        return AVAILABLE ? OtelQuestionSpan.start(method, question, traceContext) : QuestionSpan.NONE;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, DebateTracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
