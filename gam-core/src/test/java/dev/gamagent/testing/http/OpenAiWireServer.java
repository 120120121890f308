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
 * An OpenAI-compatible chat-completions server ({@code POST /v1/chat/completions}, {@code GET /v1/models})
 * as vLLM, llama.cpp and OpenAI speak it. Base URL: {@code http://127.0.0.1:PORT/v1}.
 *
 * <p>Validates: model, messages/roles, content strings or {@code text}/{@code image_url} parts with base64
 * data URLs of real images, numeric sampling fields, {@code top_logprobs} only with {@code logprobs},
 * {@code response_format} shape. Behaviours: {@link #maxTopLogprobs(int)} answers 400 like vLLM above the
 * limit; {@link #rejectLogprobs()} answers 400 like hosted reasoning models to any {@code logprobs}.
 * Renders answers with {@code logprobs.content[].top_logprobs} (top-k as asked), usage unless withheld,
 * and {@code n} copies of a single generated choice when the request asks for n ({@link #ignoreN()} and
 * {@link #rejectN()} imitate Ollama's /v1 and llama.cpp, which do not support {@code n}).
 */
public final class OpenAiWireServer extends WireServer {
    private static final Set<String> ROLES = Set.of("system", "user", "assistant");
    private volatile int maxTop = 20;
    private volatile boolean rejectLogprobs;
    private volatile String model = "test-vlm";
    private volatile int nMode; // 0 = honour n, 1 = answer one choice (Ollama /v1), 2 = 400 (llama.cpp)

    @Override public String baseUrl() { return rootUrl() + "/v1"; }

    /** Like vLLM's {@code --max-logprobs}: a larger {@code top_logprobs} gets a 400. */
    public OpenAiWireServer maxTopLogprobs(int max) { this.maxTop = max; return this; }

    /** Like a hosted reasoning model: any {@code logprobs} field gets a 400. */
    public OpenAiWireServer rejectLogprobs() { this.rejectLogprobs = true; return this; }

    /** Like Ollama's /v1: {@code n} is ignored and one choice comes back. */
    public OpenAiWireServer ignoreN() { this.nMode = 1; return this; }

    /** Like llama.cpp's server: {@code n > 1} gets a 400. */
    public OpenAiWireServer rejectN() { this.nMode = 2; return this; }

    /** The model {@code GET /v1/models} lists. */
    public OpenAiWireServer model(String m) { this.model = m; return this; }

    @Override protected Reply sidePath(Received r) {
        if (r.method().equals("GET") && r.path().equals("/v1/models")) {
            ObjectNode o = Json.MAPPER.createObjectNode().put("object", "list");
            o.putArray("data").addObject().put("id", model).put("object", "model").put("owned_by", "test");
            return Reply.raw(200, Json.write(o));
        }
        if (!r.path().equals("/v1/chat/completions") || !r.method().equals("POST")) {
            return Reply.status(404, errorJson("no route " + r.method() + " " + r.path()));
        }
        return null;
    }

    @Override protected Reply refusal(Received r) {
        JsonNode b = r.json();
        if (rejectLogprobs && (b.has("logprobs") || b.has("top_logprobs"))) {
            return Reply.status(400, "{\"error\":{\"message\":\"logprobs are not supported with reasoning models.\","
                    + "\"type\":\"invalid_request_error\",\"param\":\"logprobs\",\"code\":\"unsupported_parameter\"}}");
        }
        if (nMode == 2 && b.path("n").asInt(1) > 1) {
            return Reply.status(400, "{\"error\":{\"code\":400,\"message\":\"Only one completion choice is allowed\",\"type\":\"invalid_request_error\"}}");
        }
        int top = b.path("top_logprobs").asInt(0);
        if (top > maxTop) {
            return Reply.status(400, "{\"object\":\"error\",\"message\":\"Requested sample logprobs of " + top
                    + ", which is greater than max allowed: " + maxTop + "\",\"type\":\"BadRequestError\",\"code\":400}");
        }
        return null;
    }

    @Override protected List<String> validate(Received r) {
        List<String> p = new ArrayList<>();
        JsonNode b = r.json();
        if (b == null || !b.isObject()) return List.of("body is not a JSON object");
        if (!"application/json".equals(r.header("content-type"))) p.add("Content-Type must be application/json");
        requireType(p, b, "model", "string", true);
        requireType(p, b, "messages", "array", true);
        requireType(p, b, "temperature", "number", false);
        requireType(p, b, "max_tokens", "integer", false);
        requireType(p, b, "max_completion_tokens", "integer", false);
        requireType(p, b, "n", "integer", false);
        requireType(p, b, "seed", "integer", false);
        requireType(p, b, "logprobs", "boolean", false);
        requireType(p, b, "top_logprobs", "integer", false);
        if (b.has("top_logprobs") && !b.path("logprobs").asBoolean(false)) p.add("'top_logprobs' needs 'logprobs': true");
        if (b.path("n").asInt(1) < 1) p.add("'n' must be >= 1");
        JsonNode msgs = b.path("messages");
        if (msgs.isArray() && msgs.isEmpty()) p.add("'messages' must not be empty");
        for (int i = 0; i < msgs.size(); i++) {
            JsonNode m = msgs.get(i);
            String where = "messages[" + i + "]";
            if (!ROLES.contains(m.path("role").asText())) p.add(where + ".role must be system|user|assistant");
            JsonNode c = m.get("content");
            if (c == null || !(c.isTextual() || c.isArray())) { p.add(where + ".content must be a string or an array of parts"); continue; }
            if (c.isArray()) {
                for (int j = 0; j < c.size(); j++) {
                    JsonNode part = c.get(j);
                    String pw = where + ".content[" + j + "]";
                    String type = part.path("type").asText();
                    if (type.equals("text")) {
                        if (!part.path("text").isTextual()) p.add(pw + ".text must be a string");
                    } else if (type.equals("image_url")) {
                        if (!m.path("role").asText().equals("user")) p.add(pw + ": images only in user messages");
                        JsonNode iu = part.path("image_url");
                        if (!iu.isObject()) p.add(pw + ".image_url must be an object {url, detail}");
                        else {
                            String prob = dataUrlProblem(pw + ".image_url.url", iu.get("url"));
                            if (prob != null) p.add(prob);
                            if (iu.has("detail") && !Set.of("low", "high", "auto").contains(iu.path("detail").asText())) p.add(pw + ".image_url.detail must be low|high|auto");
                        }
                    } else p.add(pw + ".type must be text or image_url, got '" + type + "'");
                }
            }
        }
        JsonNode rf = b.get("response_format");
        if (rf != null) {
            String t = rf.path("type").asText();
            if (t.equals("json_schema")) {
                JsonNode js = rf.path("json_schema");
                if (!js.path("name").isTextual()) p.add("response_format.json_schema.name is required");
                if (!js.path("schema").isObject()) p.add("response_format.json_schema.schema must be an object");
            } else if (!t.equals("json_object") && !t.equals("text")) p.add("response_format.type must be json_schema|json_object|text");
        }
        return p;
    }

    @Override protected String render(Reply.Answer a, Received r) {
        JsonNode req = r.json();
        boolean wantLp = req.path("logprobs").asBoolean(false);
        int k = req.path("top_logprobs").asInt(0);
        int n = nMode == 1 ? 1 : req.path("n").asInt(1);
        List<Reply.Generated> gens = a.choices().size() == 1 && n > 1 ? java.util.Collections.nCopies(n, a.choices().get(0)) : a.choices();
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", "chatcmpl-test").put("object", "chat.completion").put("created", 1_700_000_000L).put("model", req.path("model").asText());
        ArrayNode choices = o.putArray("choices");
        long completion = 0;
        for (int i = 0; i < gens.size(); i++) {
            Reply.Generated g = gens.get(i);
            ObjectNode c = choices.addObject();
            c.put("index", i);
            c.putObject("message").put("role", "assistant").put("content", g.text());
            if (wantLp && a.logprobs()) {
                ObjectNode lp = c.putObject("logprobs");
                ArrayNode content = lp.putArray("content");
                for (TokenLogprob t : g.tokens()) {
                    ObjectNode to = content.addObject().put("token", t.token()).put("logprob", wireLogprob(t.logprob()));
                    if (a.nullBytes()) to.putNull("bytes"); else to.set("bytes", bytes(t.token()));
                    ArrayNode top = to.putArray("top_logprobs");
                    for (TokenLogprob.Alternative alt : topK(t, k)) {
                        ObjectNode ao = top.addObject().put("token", alt.token()).put("logprob", wireLogprob(alt.logprob()));
                        if (a.nullBytes()) ao.putNull("bytes"); else ao.set("bytes", bytes(alt.token()));
                    }
                }
                lp.putNull("refusal");
            } else {
                c.putNull("logprobs");
            }
            c.put("finish_reason", "stop");
            completion += Math.max(1, g.tokens().size());
        }
        if (a.usage()) {
            ObjectNode u = o.putObject("usage").put("prompt_tokens", a.promptTokens()).put("completion_tokens", completion)
                    .put("total_tokens", a.promptTokens() + completion);
            // vLLM without --enable-prompt-tokens-details sends the details as null
            if (a.cachedPromptTokens() == null) u.putNull("prompt_tokens_details");
            else u.putObject("prompt_tokens_details").put("cached_tokens", a.cachedPromptTokens());
        }
        return Json.write(o);
    }
}
