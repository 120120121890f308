package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.OpenAiReply;
import dev.gamagent.backend.internal.RequestBody;
import dev.gamagent.backend.internal.WireAnswer;
import dev.gamagent.backend.internal.WireParse;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * OpenAI chat completions ({@code POST {base}/chat/completions}) as spoken by OpenAI, vLLM, llama.cpp's
 * llama-server and Ollama's {@code /v1}: images as base64 data URLs, log-probs with top-k, {@code n},
 * {@code seed}, and {@code response_format: json_schema} for structured output. Base URLs include
 * {@code /v1}, e.g. {@code http://127.0.0.1:8000/v1}.
 */
final class OpenAiCompatibleBackend extends HttpChatBackend {
    private static final java.util.regex.Pattern N_PARAM = java.util.regex.Pattern.compile("['\"`]n['\"`]|completion choice");
    private volatile boolean maxCompletionTokens;
    private volatile boolean emulateN;
    private volatile boolean omitTemperature;

    public OpenAiCompatibleBackend(EndpointSettings settings) { super("openai", settings); }

    @Override protected Capabilities wireCapabilities() {
        return new Capabilities(true, true, settings.maxTopLogprobs(), true, true, Capabilities.DEFAULT_MAX_PIXELS);
    }

    @Override protected WireAnswer send(ChatRequest r, String model) {
        if (emulateN && r.n() > 1) return repeated(r, model, this::sendOne);
        WireAnswer a = sendOne(r, model);
        if (a.choices().size() >= r.n()) return a;
        // Ollama's /v1 silently answers one choice for n > 1: remember, and make up the rest with single calls.
        emulateN = true;
        ChatRequest rest = r.withSampling(r.temperature(), r.maxTokens(), r.n() - a.choices().size(), r.seed() == null ? null : r.seed() + 1);
        WireAnswer more = repeated(rest, model, this::sendOne);
        List<Choice> all = new ArrayList<>(a.choices());
        all.addAll(more.choices());
        return new WireAnswer(all, sum(a.promptTokens(), more.promptTokens()), sum(a.completionTokens(), more.completionTokens()),
                sum(a.cachedPromptTokens(), more.cachedPromptTokens()), a.model());
    }

    private WireAnswer sendOne(ChatRequest r, String model) {
        RequestBody images = new RequestBody();
        // the reply is streamed into its answer, not built into a tree: its log-prob entries are most of it (OpenAiReply)
        HttpTransport.Reply<OpenAiReply> resp = transport.postJson(uri("/chat/completions"),
                body(r, model, maxCompletionTokens, omitTemperature, images), images, authHeaders(), OpenAiReply::read);
        return answer(resp.value(), resp.raw());
    }

    private static Long sum(Long a, Long b) { return a == null || b == null ? null : a + b; }

    /**
     * Hosted reasoning models refuse {@code max_tokens} and name its replacement; llama.cpp refuses
     * {@code n > 1} ("Only one completion choice is allowed"): then samples are separate calls.
     */
    @Override protected boolean adaptAfter(ChatRequest r, BackendException.InvalidRequest e) {
        String body = e.body() == null ? "" : e.body();
        if (!maxCompletionTokens && body.contains("max_completion_tokens")) {
            maxCompletionTokens = true;
            return true;
        }
        if (!omitTemperature && body.contains("temperature") && (body.contains("nsupported") || body.contains("default (1)"))) {
            omitTemperature = true; // reasoning models only take their default temperature
            return true;
        }
        if (!emulateN && r.n() > 1 && N_PARAM.matcher(body).find()) {
            emulateN = true;
            return true;
        }
        return false;
    }

    @Override protected String discoverModel() {
        JsonNode data = transport.getJson(uri("/models"), authHeaders()).body().path("data");
        return data.isArray() && data.size() > 0 ? data.get(0).path("id").asText(null) : null;
    }

    private java.util.Map<String, String> authHeaders() {
        return headers("Authorization", settings.apiKey() == null ? null : "Bearer " + settings.apiKey());
    }

    static ObjectNode body(ChatRequest r, String model, boolean maxCompletionTokens, boolean omitTemperature, RequestBody images) {
        ObjectNode b = Json.MAPPER.createObjectNode();
        b.put("model", model);
        ArrayNode msgs = b.putArray("messages");
        for (ChatMessage m : r.messages()) {
            ObjectNode o = msgs.addObject();
            o.put("role", m.role().wire());
            boolean onlyText = m.parts().stream().allMatch(p -> p instanceof ChatMessage.Text);
            if (onlyText) {
                o.put("content", m.text());
                continue;
            }
            ArrayNode content = o.putArray("content");
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) {
                    content.addObject().put("type", "text").put("text", t.text());
                } else if (p instanceof ChatMessage.Image img) {
                    ObjectNode iu = content.addObject().put("type", "image_url").putObject("image_url");
                    iu.put("url", images.dataUrl(img.picture()));
                    if (img.detail() != null) iu.put("detail", img.detail());
                }
            }
        }
        if (!omitTemperature) b.put("temperature", r.temperature());
        b.put(maxCompletionTokens ? "max_completion_tokens" : "max_tokens", r.maxTokens());
        if (r.n() > 1) b.put("n", r.n());
        if (r.seed() != null) b.put("seed", r.seed());
        if (r.logprobs()) {
            b.put("logprobs", true);
            if (r.topLogprobs() > 0) b.put("top_logprobs", r.topLogprobs());
        }
        if (r.responseSchema() != null) {
            ObjectNode js = b.putObject("response_format").put("type", "json_schema").putObject("json_schema");
            js.put("name", r.schemaName() == null ? "answer" : r.schemaName());
            js.set("schema", r.responseSchema());
            js.put("strict", true);
        }
        return b;
    }

    /** One answer of this wire format; the fuzz tests call it directly (read as a reply's text is, {@link OpenAiReply}). */
    @Override WireAnswer parse(JsonNode body, String raw) { return answer(OpenAiReply.read(body), raw); }

    /** The answer in what {@link OpenAiReply} read, or the malformed reply's error. */
    WireAnswer answer(OpenAiReply reply, String raw) {
        List<OpenAiReply.Part> choices = reply.choices();
        if (choices == null || choices.isEmpty()) throw malformed("without choices", raw);
        List<Choice> out = new ArrayList<>();
        for (OpenAiReply.Part c : choices) {
            JsonNode msg = c.message();
            if (!msg.isObject()) throw malformed("a choice has no message", raw);
            String finish = c.finishReason().isTextual() ? c.finishReason().asText().toLowerCase(Locale.ROOT) : null;
            out.add(new Choice(WireParse.text(msg.get("content")), c.tokens(), finish));
        }
        JsonNode u = reply.usage();
        // prompt_tokens counts the cached ones too; vLLM sends the details only with --enable-prompt-tokens-details
        return new WireAnswer(out, WireParse.optLong(u.get("prompt_tokens")), WireParse.optLong(u.get("completion_tokens")),
                WireParse.optCount(u.path("prompt_tokens_details").get("cached_tokens")),
                reply.model().isTextual() ? reply.model().asText() : null);
    }
}
