package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An Ollama server's native API ({@code POST /api/chat}, {@code GET /api/tags}). Base URL:
 * {@code http://127.0.0.1:PORT}.
 *
 * <p>Validates: model, {@code stream: false} (a streamed answer would be NDJSON), messages with string
 * content and {@code images} as raw base64 (a data URL is a violation), {@code options} types,
 * {@code top_logprobs} 0–20 only with {@code logprobs}, no {@code n} (Ollama has none). Renders
 * {@code message}, {@code done_reason}, {@code prompt_eval_count}/{@code eval_count} (unless usage is
 * withheld) and {@code logprobs[]} with {@code top_logprobs} when asked.
 */
public final class OllamaWireServer extends WireServer {
    private static final Set<String> ROLES = Set.of("system", "user", "assistant");
    private volatile String model = "qwen2.5vl:7b";

    @Override public String baseUrl() { return rootUrl(); }

    public OllamaWireServer model(String m) { this.model = m; return this; }

    @Override protected Reply sidePath(Received r) {
        if (r.method().equals("GET") && r.path().equals("/api/tags")) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.putArray("models").addObject().put("name", model).put("model", model);
            return Reply.raw(200, Json.write(o));
        }
        if (!r.path().equals("/api/chat") || !r.method().equals("POST")) return Reply.status(404, "{\"error\":\"404 page not found\"}");
        return null;
    }

    @Override protected List<String> validate(Received r) {
        List<String> p = new ArrayList<>();
        JsonNode b = r.json();
        if (b == null || !b.isObject()) return List.of("body is not a JSON object");
        requireType(p, b, "model", "string", true);
        requireType(p, b, "messages", "array", true);
        requireType(p, b, "stream", "boolean", true);
        if (b.path("stream").asBoolean(true)) p.add("'stream' must be false (this client reads one JSON object)");
        requireType(p, b, "logprobs", "boolean", false);
        requireType(p, b, "top_logprobs", "integer", false);
        if (b.has("top_logprobs") && !b.path("logprobs").asBoolean(false)) p.add("'top_logprobs' needs 'logprobs': true");
        if (b.path("top_logprobs").asInt(0) > 20 || b.path("top_logprobs").asInt(0) < 0) p.add("'top_logprobs' must be 0..20");
        if (b.has("n")) p.add("Ollama has no 'n'");
        JsonNode o = b.get("options");
        if (o != null) {
            if (!o.isObject()) p.add("'options' must be an object");
            else {
                requireType(p, o, "temperature", "number", false);
                requireType(p, o, "num_predict", "integer", false);
                requireType(p, o, "seed", "integer", false);
            }
        }
        JsonNode f = b.get("format");
        if (f != null && !(f.isObject() || "json".equals(f.asText()))) p.add("'format' must be \"json\" or a JSON schema object");
        JsonNode msgs = b.path("messages");
        if (msgs.isArray() && msgs.isEmpty()) p.add("'messages' must not be empty");
        for (int i = 0; i < msgs.size(); i++) {
            JsonNode m = msgs.get(i);
            String where = "messages[" + i + "]";
            if (!ROLES.contains(m.path("role").asText())) p.add(where + ".role must be system|user|assistant");
            if (!m.path("content").isTextual()) p.add(where + ".content must be a string");
            JsonNode imgs = m.get("images");
            if (imgs != null) {
                if (!imgs.isArray()) p.add(where + ".images must be an array of base64 strings");
                else for (int j = 0; j < imgs.size(); j++) {
                    String prob = base64ImageProblem(where + ".images[" + j + "]", imgs.get(j));
                    if (prob != null) p.add(prob);
                }
            }
        }
        return p;
    }

    @Override protected String render(Reply.Answer a, Received r) {
        JsonNode req = r.json();
        Reply.Generated g = a.choices().get(0);
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("model", req.path("model").asText()).put("created_at", "2026-01-01T00:00:00Z");
        o.putObject("message").put("role", "assistant").put("content", g.text());
        o.put("done", true).put("done_reason", "stop");
        if (a.usage()) o.put("prompt_eval_count", a.promptTokens()).put("eval_count", Math.max(1, g.tokens().size()));
        o.put("total_duration", 123_456_789L);
        if (req.path("logprobs").asBoolean(false) && a.logprobs()) {
            int k = req.path("top_logprobs").asInt(0);
            ArrayNode lps = o.putArray("logprobs");
            for (TokenLogprob t : g.tokens()) {
                ObjectNode to = lps.addObject().put("token", t.token()).put("logprob", wireLogprob(t.logprob()));
                if (!a.nullBytes()) to.set("bytes", bytes(t.token()));
                if (k > 0) {
                    ArrayNode top = to.putArray("top_logprobs");
                    for (TokenLogprob.Alternative alt : topK(t, k)) top.addObject().put("token", alt.token()).put("logprob", wireLogprob(alt.logprob()));
                }
            }
        }
        return Json.write(o);
    }
}
