package dev.gamagent.cli;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The traces of {@code gam serve} and {@code gam eval} exported over OTLP when the standard variables ask for it
 * ({@code OTEL_TRACES_EXPORTER}, {@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} set):
 * OpenTelemetry's SDK configured from the {@code OTEL_*} variables (its autoconfiguration: endpoint, protocol, headers,
 * sampler, resource, ...), made the process's OpenTelemetry for the command's run, and flushed when it is closed. Traces
 * only: metrics and logs stay off unless their own variables name an exporter. Without the variables, or when the process
 * already has an OpenTelemetry (the Java agent's), nothing is configured. docs/observability.md.
 */
final class TraceExport implements AutoCloseable {
    private final OpenTelemetrySdk sdk;

    private TraceExport(OpenTelemetrySdk sdk) { this.sdk = sdk; }

    /** Whether {@code env} asks for traces to be exported. */
    static boolean asked(Map<String, String> env) {
        String exporter = env.get("OTEL_TRACES_EXPORTER");
        if (exporter != null && !exporter.isBlank()) return !exporter.strip().toLowerCase(Locale.ROOT).equals("none");
        return set(env, "OTEL_EXPORTER_OTLP_ENDPOINT") || set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    }

    /** The export {@code env} asks for, or one that does nothing. */
    static TraceExport fromEnvironment(Map<String, String> env) {
        if (!asked(env) || GlobalOpenTelemetry.isSet()) return new TraceExport(null);
        // OTLP over HTTP by default (the SDK's own default is gRPC, whose sender needs OkHttp, which the launcher leaves out)
        Map<String, String> defaults = Map.of("otel.service.name", "gam", "otel.metrics.exporter", "none", "otel.logs.exporter", "none",
                "otel.exporter.otlp.protocol", "http/protobuf");
        Map<String, String> given = new HashMap<>();
        // the variables as the SDK's properties (OTEL_EXPORTER_OTLP_ENDPOINT -> otel.exporter.otlp.endpoint): the same values
        // the SDK reads from the process's environment, and the ones a test hands in
        env.forEach((k, v) -> { if (k.startsWith("OTEL_")) given.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v); });
        try {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> defaults)
                    .addPropertiesCustomizer(config -> given)
                    .disableShutdownHook()
                    .setResultAsGlobal()
                    .build().getOpenTelemetrySdk();
            return new TraceExport(sdk);
        } catch (ConfigurationException e) {
            Throwable why = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("the OTEL_* variables ask for a trace export that cannot be set up: " + why.getMessage()
                    + (String.valueOf(why.getMessage()).contains("GrpcSenderProvider")
                    ? " (gam exports over HTTP: set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, port 4318)" : ""), e);
        }
    }

    boolean exporting() { return sdk != null; }

    /** Exports what is left (within 10 s) and stops the SDK: the command is over. */
    @Override public void close() {
        if (sdk == null) return;
        sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        sdk.shutdown().join(10, TimeUnit.SECONDS);
    }

    private static boolean set(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
