package dev.gamagent.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.explain.TraceExplainer;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The trace endpoints: {@code /v1/traces} (the newest), {@code /v1/traces/{id}} (one trace's JSON, with its
 * {@code explanation} added: {@link TraceExplainer}) and
 * {@code /v1/traces/{id}/image}, with 404s that say how long the store keeps traces.
 */
record TraceApi(TraceStore traces, ServerSettings settings, Replies replies) {

    int recent(Exchange ex) throws IOException {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("object", "list");
        ArrayNode data = o.putArray("data");
        for (TraceStore.Summary s : traces.recent(100)) {
            data.addObject().put("id", s.id()).put("method", s.method()).put("question", s.question())
                    .put("time", java.time.Instant.ofEpochMilli(s.time()).toString());
        }
        return replies.json(ex, 200, o);
    }

    int trace(Exchange ex, String id) throws IOException {
        String json = traces.json(id).orElseThrow(() -> new ApiError(404, "invalid_request_error", "trace_not_found",
                "no trace '" + id + "' (" + retentionText() + ")"));
        // the stored trace, with its decision explained beside it (TraceExplainer: the viewer draws it; the store keeps the trace as recorded)
        String explained = Json.write(TraceExplainer.withExplanation(Json.MAPPER.readTree(json)));
        return Replies.send(ex, 200, "application/json; charset=utf-8", explained.getBytes(StandardCharsets.UTF_8));
    }

    int image(Exchange ex, String id) throws IOException {
        byte[] png = traces.image(id).orElseThrow(() -> new ApiError(404, "invalid_request_error", "trace_not_found",
                "no image for trace '" + id + "' (" + retentionText() + ")"));
        return Replies.send(ex, 200, "image/png", png);
    }

    /** How long traces are kept, in the words the 404s use (the web page shows them). */
    private String retentionText() {
        Duration age = settings.traceMaxAge();
        return "the server keeps the traces of its newest " + settings.traceRetention() + " questions"
                + (age.isZero() ? "" : ", none older than " + (age.toHours() % 24 == 0 ? age.toDays() + " days" : age.toHours() + " hours"))
                + ", in " + settings.traceDb().getFileName() + " (config server.trace_retention, server.trace_retention_days, --trace-db)";
    }
}
