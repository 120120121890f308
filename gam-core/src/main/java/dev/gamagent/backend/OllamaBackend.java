package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.RequestBody;
import dev.gamagent.backend.internal.WireAnswer;
import dev.gamagent.backend.internal.WireParse;
import dev.gamagent.util.Json;

import java.util.List;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * Ollama's native {@code POST {base}/api/chat} (base e.g. {@code http://127.0.0.1:11434}): raw base64
 * {@code images}, {@code stream:false}, log-probs (Ollama ≥ 0.12.11), {@code options.temperature /
 * num_predict / seed}, {@code format} as a JSON schema. Ollama has no {@code n}: n > 1 is n calls.
 */
final class OllamaBackend extends HttpChatBackend {
    public OllamaBackend(EndpointSettings settings) { super("ollama", settings); }

    @Override protected Capabilities wireCapabilities() {
        return new Capabilities(true, true, settings.maxTopLogprobs(), true, true, Capabilities.DEFAULT_MAX_PIXELS);
    }

    @Override protected WireAnswer send(ChatRequest r, String model) {
        return repeated(r, model, this::sendOne);
    }

    private WireAnswer sendOne(ChatRequest r, String model) {
        RequestBody images = new RequestBody();
        HttpTransport.JsonResponse resp = transport.postJson(uri("/api/chat"), body(r, model, images), images,
                headers("Authorization", settings.apiKey() == null ? null : "Bearer " + settings.apiKey()));
        return parse(resp.body(), resp.raw());
    }

    /** An {@code /api/chat} answer; the fuzz tests call it directly. */
    @Override WireAnswer parse(JsonNode b, String raw) {
        JsonNode msg = b.path("message");
        if (!msg.isObject()) throw malformed("without a message", raw);
        List<TokenLogprob> tokens = WireParse.openAiTokens(b.path("logprobs"));
        String finish = b.path("done_reason").isTextual() ? b.get("done_reason").asText() : null;
        Choice c = new Choice(WireParse.text(msg.get("content")), tokens, finish);
        // Ollama reports no cached prompt tokens
        return new WireAnswer(List.of(c), WireParse.optLong(b.get("prompt_eval_count")), WireParse.optLong(b.get("eval_count")), null,
                b.path("model").isTextual() ? b.get("model").asText() : null);
    }

    @Override protected String discoverModel() {
        JsonNode models = transport.getJson(uri("/api/tags"), headers()).body().path("models");
        return models.isArray() && models.size() > 0 ? models.get(0).path("name").asText(null) : null;
    }

    static ObjectNode body(ChatRequest r, String model, RequestBody images) {
        ObjectNode b = Json.MAPPER.createObjectNode();
        b.put("model", model);
        b.put("stream", false);
        ArrayNode msgs = b.putArray("messages");
        for (ChatMessage m : r.messages()) {
            ObjectNode o = msgs.addObject();
            o.put("role", m.role().wire());
            o.put("content", m.text());
            if (!m.images().isEmpty()) {
                ArrayNode imgs = o.putArray("images");
                for (var p : m.images()) imgs.add(images.base64(p));
            }
        }
        ObjectNode opts = b.putObject("options");
        opts.put("temperature", r.temperature());
        opts.put("num_predict", r.maxTokens());
        if (r.seed() != null) opts.put("seed", r.seed());
        if (r.logprobs()) {
            b.put("logprobs", true);
            if (r.topLogprobs() > 0) b.put("top_logprobs", r.topLogprobs());
        }
        if (r.responseSchema() != null) b.set("format", r.responseSchema());
        return b;
    }
}
