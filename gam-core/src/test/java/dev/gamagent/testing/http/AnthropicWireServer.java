package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * An Anthropic Messages server ({@code POST /v1/messages}). Base URL: {@code http://127.0.0.1:PORT}.
 *
 * <p>Validates: {@code x-api-key} and {@code anthropic-version} headers, model, {@code max_tokens}
 * (required), roles user/assistant only (system goes in the {@code system} field), content blocks
 * {@code text} or {@code image{source{type:base64, media_type, data}}} with raw base64 of a real image,
 * temperature 0–1, and no fields Anthropic does not know (it rejects e.g. {@code logprobs}).
 * Renders {@code content[{type:text}]}, {@code stop_reason} and usage unless withheld; never log-probs.
 */
public final class AnthropicWireServer extends WireServer {
    private static final Set<String> KNOWN = Set.of("model", "max_tokens", "messages", "system", "temperature", "top_p", "top_k",
            "stop_sequences", "metadata", "stream", "tools", "tool_choice", "thinking");

    @Override public String baseUrl() { return rootUrl(); }

    @Override protected Reply sidePath(Received r) {
        if (!r.method().equals("POST") || !r.path().equals("/v1/messages")) {
            return Reply.status(404, "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"Not found\"}}");
        }
        return null;
    }

    @Override protected List<String> validate(Received r) {
        List<String> p = new ArrayList<>();
        JsonNode b = r.json();
        if (b == null || !b.isObject()) return List.of("body is not a JSON object");
        if (r.header("x-api-key") == null || r.header("x-api-key").isBlank()) p.add("header x-api-key is required");
        if (r.header("anthropic-version") == null) p.add("header anthropic-version is required");
        for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!KNOWN.contains(f)) p.add(f + ": Extra inputs are not permitted");
        }
        requireType(p, b, "model", "string", true);
        requireType(p, b, "max_tokens", "integer", true);
        requireType(p, b, "messages", "array", true);
        requireType(p, b, "temperature", "number", false);
        double t = b.path("temperature").asDouble(0);
        if (t < 0 || t > 1) p.add("temperature must be in 0..1");
        JsonNode sys = b.get("system");
        if (sys != null && !sys.isTextual() && !sys.isArray()) p.add("'system' must be a string or text blocks");
        JsonNode msgs = b.path("messages");
        if (msgs.isArray() && msgs.isEmpty()) p.add("'messages' must not be empty");
        for (int i = 0; i < msgs.size(); i++) {
            JsonNode m = msgs.get(i);
            String where = "messages[" + i + "]";
            if (!Set.of("user", "assistant").contains(m.path("role").asText())) p.add(where + ".role must be user|assistant (system goes in 'system')");
            JsonNode c = m.get("content");
            if (c == null || !(c.isTextual() || c.isArray())) { p.add(where + ".content must be a string or blocks"); continue; }
            if (!c.isArray()) continue;
            for (int j = 0; j < c.size(); j++) {
                JsonNode block = c.get(j);
                String bw = where + ".content[" + j + "]";
                String type = block.path("type").asText();
                if (type.equals("text")) {
                    if (!block.path("text").isTextual()) p.add(bw + ".text must be a string");
                } else if (type.equals("image")) {
                    JsonNode src = block.path("source");
                    if (!"base64".equals(src.path("type").asText())) p.add(bw + ".source.type must be base64");
                    if (!Set.of("image/png", "image/jpeg", "image/gif", "image/webp").contains(src.path("media_type").asText())) p.add(bw + ".source.media_type must be an image type");
                    String prob = base64ImageProblem(bw + ".source.data", src.get("data"));
                    if (prob != null) p.add(prob);
                } else p.add(bw + ".type must be text or image, got '" + type + "'");
            }
        }
        return p;
    }

    @Override protected String render(Reply.Answer a, Received r) {
        Reply.Generated g = a.choices().get(0);
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", "msg_test").put("type", "message").put("role", "assistant").put("model", r.json().path("model").asText());
        o.putArray("content").addObject().put("type", "text").put("text", g.text());
        o.put("stop_reason", "end_turn").putNull("stop_sequence");
        if (a.usage()) {
            // input_tokens are the tokens after the last cache breakpoint only: neither read from the cache nor written to it
            ObjectNode u = o.putObject("usage").put("input_tokens", a.uncachedPromptTokens() - a.cacheWrittenTokens());
            if (a.cachedPromptTokens() != null) {
                u.put("cache_creation_input_tokens", a.cacheWrittenTokens()).put("cache_read_input_tokens", a.cachedPromptTokens());
            }
            u.put("output_tokens", Math.max(1, g.tokens().size()));
        }
        return Json.write(o);
    }
}
