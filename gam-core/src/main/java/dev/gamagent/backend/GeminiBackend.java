package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.RequestBody;
import dev.gamagent.backend.internal.WireAnswer;
import dev.gamagent.backend.internal.WireParse;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * Gemini {@code POST {base}/models/{model}:generateContent} (base e.g.
 * {@code https://generativelanguage.googleapis.com/v1beta}, key in the {@code x-goog-api-key} header):
 * {@code inlineData} images, {@code generationConfig.responseLogprobs/logprobs}, log-probs from
 * {@code logprobsResult.chosenCandidates/topCandidates}, usage from {@code usageMetadata}. Models without
 * log-probs answer 400 naming them; the shared fallback then drops them for this endpoint.
 */
final class GeminiBackend extends HttpChatBackend {
    public GeminiBackend(EndpointSettings settings) { super("gemini", settings); }

    @Override protected Capabilities wireCapabilities() {
        return new Capabilities(true, true, settings.maxTopLogprobs(), true, true, Capabilities.DEFAULT_MAX_PIXELS);
    }

    @Override protected WireAnswer send(ChatRequest r, String model) {
        String path = "/models/" + (model.startsWith("models/") ? model.substring(7) : model) + ":generateContent";
        RequestBody images = new RequestBody();
        HttpTransport.JsonResponse resp = transport.postJson(uri(path), body(r, images), images, headers("x-goog-api-key", settings.apiKey()));
        return parse(resp.body(), resp.raw());
    }

    static ObjectNode body(ChatRequest r, RequestBody images) {
        ObjectNode b = Json.MAPPER.createObjectNode();
        ArrayNode contents = b.putArray("contents");
        for (ChatMessage m : r.messages()) {
            if (m.role() == ChatMessage.Role.SYSTEM) continue; // sent in a field of its own, below
            ObjectNode c = contents.addObject();
            c.put("role", m.role() == ChatMessage.Role.ASSISTANT ? "model" : "user");
            ArrayNode parts = c.putArray("parts");
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) parts.addObject().put("text", t.text());
                else if (p instanceof ChatMessage.Image img) {
                    parts.addObject().putObject("inlineData").put("mimeType", img.picture().mimeType()).put("data", images.base64(img.picture()));
                }
            }
        }
        String system = r.systemText();
        if (!system.isEmpty()) b.putObject("systemInstruction").putArray("parts").addObject().put("text", system);
        ObjectNode g = b.putObject("generationConfig");
        g.put("temperature", r.temperature());
        g.put("maxOutputTokens", r.maxTokens());
        if (r.n() > 1) g.put("candidateCount", r.n());
        if (r.seed() != null) g.put("seed", r.seed());
        if (r.logprobs()) {
            g.put("responseLogprobs", true);
            if (r.topLogprobs() > 0) g.put("logprobs", r.topLogprobs());
        }
        if (r.responseSchema() != null) {
            g.put("responseMimeType", "application/json");
            g.set("responseJsonSchema", r.responseSchema());
        }
        return b;
    }

    /** One answer of this wire format; the fuzz tests call it directly. */
    @Override WireAnswer parse(JsonNode body, String raw) {
        JsonNode cands = body.path("candidates");
        if (!cands.isArray() || cands.isEmpty()) {
            String block = body.path("promptFeedback").path("blockReason").asText("");
            if (!block.isEmpty()) {
                throw new BackendException.InvalidRequest(endpoint() + " blocked the prompt (" + block + ")", 200, HttpTransport.abbreviate(raw));
            }
            throw malformed("without candidates", raw);
        }
        List<Choice> out = new ArrayList<>();
        for (JsonNode c : cands) {
            StringBuilder text = new StringBuilder();
            for (JsonNode p : c.path("content").path("parts")) {
                if (p.path("thought").asBoolean(false)) continue; // thinking summaries are not the answer
                if (p.path("text").isTextual()) text.append(p.get("text").asText());
            }
            out.add(new Choice(text.toString(), tokens(c.path("logprobsResult")),
                    c.path("finishReason").isTextual() ? c.get("finishReason").asText().toLowerCase(Locale.ROOT) : null));
        }
        JsonNode u = body.path("usageMetadata");
        // promptTokenCount includes the cached content's tokens; a count of 0 is left out of the JSON, so absent reads as none
        return new WireAnswer(out, WireParse.optLong(u.get("promptTokenCount")), WireParse.optLong(u.get("candidatesTokenCount")),
                WireParse.optCount(u.get("cachedContentTokenCount")),
                body.path("modelVersion").isTextual() ? body.get("modelVersion").asText() : null);
    }

    /** chosenCandidates[i] is token i; topCandidates[i].candidates are its alternatives (same index). */
    private static List<TokenLogprob> tokens(JsonNode lr) {
        List<TokenLogprob> out = new ArrayList<>();
        JsonNode chosen = lr.path("chosenCandidates");
        if (!chosen.isArray()) return out;
        JsonNode tops = lr.path("topCandidates");
        for (int i = 0; i < chosen.size(); i++) {
            JsonNode t = chosen.get(i);
            List<TokenLogprob.Alternative> alts = new ArrayList<>();
            if (tops.isArray() && i < tops.size()) {
                for (JsonNode a : tops.get(i).path("candidates")) {
                    alts.add(new TokenLogprob.Alternative(a.path("token").asText(""), WireParse.logprob(a.get("logProbability"))));
                }
            }
            out.add(new TokenLogprob(t.path("token").asText(""), WireParse.logprob(t.get("logProbability")), alts));
        }
        return out;
    }
}
