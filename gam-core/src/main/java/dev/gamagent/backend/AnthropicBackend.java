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
 * Anthropic Messages ({@code POST {base}/v1/messages}, base e.g. {@code https://api.anthropic.com}):
 * base64 image blocks, the system prompt in its own field, {@code x-api-key} and {@code anthropic-version}
 * headers. No log-probs (capabilities say so; the engine uses semantic uncertainty) and no {@code n}
 * (n > 1 is n calls).
 */
final class AnthropicBackend extends HttpChatBackend {
    public static final String API_VERSION = "2023-06-01";

    public AnthropicBackend(EndpointSettings settings) { super("anthropic", settings); }

    @Override protected Capabilities wireCapabilities() {
        return new Capabilities(true, false, 0, true, false, Capabilities.DEFAULT_MAX_PIXELS);
    }

    @Override protected WireAnswer send(ChatRequest r, String model) {
        return repeated(r, model, this::sendOne);
    }

    private WireAnswer sendOne(ChatRequest r, String model) {
        String path = settings.baseUrl().endsWith("/v1") ? "/messages" : "/v1/messages";
        RequestBody images = new RequestBody();
        HttpTransport.JsonResponse resp = transport.postJson(uri(path), body(r, model, images), images,
                headers("x-api-key", settings.apiKey(), "anthropic-version", API_VERSION));
        return parse(resp.body(), resp.raw());
    }

    /** A Messages API answer; the fuzz tests call it directly. */
    @Override WireAnswer parse(JsonNode b, String raw) {
        JsonNode content = b.path("content");
        if (!content.isArray()) throw malformed("without content blocks", raw);
        StringBuilder text = new StringBuilder();
        for (JsonNode block : content) if ("text".equals(block.path("type").asText())) text.append(block.path("text").asText(""));
        Choice c = new Choice(text.toString(), List.of(), b.path("stop_reason").isTextual() ? b.get("stop_reason").asText() : null);
        JsonNode u = b.path("usage");
        // input_tokens counts only what follows the last cache breakpoint: the prompt sent is it plus the tokens read from
        // the cache and those written to it (computed, like input_tokens)
        Long input = WireParse.optLong(u.get("input_tokens"));
        Long read = WireParse.optCount(u.get("cache_read_input_tokens")), created = WireParse.optCount(u.get("cache_creation_input_tokens"));
        Long sent = input == null ? null : input + (read == null ? 0 : read) + (created == null ? 0 : created);
        return new WireAnswer(List.of(c), sent, WireParse.optLong(u.get("output_tokens")), input == null ? null : read,
                b.path("model").isTextual() ? b.get("model").asText() : null);
    }

    static ObjectNode body(ChatRequest r, String model, RequestBody images) {
        ObjectNode b = Json.MAPPER.createObjectNode();
        b.put("model", model);
        b.put("max_tokens", r.maxTokens());
        ArrayNode msgs = Json.MAPPER.createArrayNode();
        for (ChatMessage m : r.messages()) {
            if (m.role() == ChatMessage.Role.SYSTEM) continue; // sent in a field of its own, below
            ObjectNode o = msgs.addObject();
            o.put("role", m.role().wire());
            ArrayNode content = o.putArray("content");
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) content.addObject().put("type", "text").put("text", t.text());
                else if (p instanceof ChatMessage.Image img) {
                    content.addObject().put("type", "image").putObject("source").put("type", "base64")
                            .put("media_type", img.picture().mimeType()).put("data", images.base64(img.picture()));
                }
            }
        }
        String system = r.systemText();
        if (!system.isEmpty()) b.put("system", system);
        b.set("messages", msgs);
        b.put("temperature", Math.max(0.0, Math.min(1.0, r.temperature()))); // Anthropic accepts 0..1 only
        return b;
    }
}
