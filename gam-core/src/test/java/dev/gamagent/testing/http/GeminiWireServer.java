package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Gemini {@code generateContent} server ({@code POST /v1beta/models/MODEL:generateContent}). Base URL:
 * {@code http://127.0.0.1:PORT/v1beta}.
 *
 * <p>Validates: the {@code x-goog-api-key} header, model in the path, {@code contents} with roles
 * user/model and parts {@code text} or {@code inlineData{mimeType,data}} (raw base64 of a real image),
 * {@code systemInstruction}, {@code generationConfig} field types, {@code logprobs} only with
 * {@code responseLogprobs}. {@link #rejectLogprobs()} answers 400 like models without log-probs.
 * Renders candidates (one per {@code candidateCount}) with {@code logprobsResult.chosenCandidates} and
 * {@code topCandidates}, {@code avgLogprobs}, and {@code usageMetadata} unless withheld.
 */
public final class GeminiWireServer extends WireServer {
    private static final Pattern PATH = Pattern.compile("^/v1beta/models/([^/:]+):generateContent$");
    private static final Set<String> GEN_INT = Set.of("maxOutputTokens", "candidateCount", "seed", "logprobs");
    private volatile boolean rejectLogprobs;

    @Override public String baseUrl() { return rootUrl() + "/v1beta"; }

    public GeminiWireServer rejectLogprobs() { this.rejectLogprobs = true; return this; }

    @Override protected Reply sidePath(Received r) {
        if (!r.method().equals("POST") || !PATH.matcher(r.path()).matches()) {
            return Reply.status(404, errorJson("no route " + r.method() + " " + r.path()));
        }
        return null;
    }

    @Override protected Reply refusal(Received r) {
        if (rejectLogprobs && r.json().path("generationConfig").has("responseLogprobs")) {
            Matcher m = PATH.matcher(r.path());
            m.matches();
            return Reply.status(400, "{\"error\":{\"code\":400,\"message\":\"Logprobs is not enabled for models/" + m.group(1)
                    + "\",\"status\":\"INVALID_ARGUMENT\"}}");
        }
        return null;
    }

    @Override protected List<String> validate(Received r) {
        List<String> p = new ArrayList<>();
        JsonNode b = r.json();
        if (b == null || !b.isObject()) return List.of("body is not a JSON object");
        if (r.header("x-goog-api-key") == null || r.header("x-goog-api-key").isBlank()) p.add("header x-goog-api-key is required");
        if (r.path().contains("key=")) p.add("the API key must not be in the URL");
        requireType(p, b, "contents", "array", true);
        JsonNode contents = b.path("contents");
        if (contents.isArray() && contents.isEmpty()) p.add("'contents' must not be empty");
        for (int i = 0; i < contents.size(); i++) {
            JsonNode c = contents.get(i);
            String where = "contents[" + i + "]";
            if (!Set.of("user", "model").contains(c.path("role").asText())) p.add(where + ".role must be user|model");
            partsProblems(p, where, c.get("parts"));
        }
        JsonNode si = b.get("systemInstruction");
        if (si != null) partsProblems(p, "systemInstruction", si.get("parts"));
        JsonNode g = b.get("generationConfig");
        if (g != null) {
            if (!g.isObject()) p.add("'generationConfig' must be an object");
            else {
                requireType(p, g, "temperature", "number", false);
                for (String f : GEN_INT) requireType(p, g, f, "integer", false);
                requireType(p, g, "responseLogprobs", "boolean", false);
                requireType(p, g, "responseMimeType", "string", false);
                requireType(p, g, "responseJsonSchema", "object", false);
                if (g.has("logprobs") && !g.path("responseLogprobs").asBoolean(false)) p.add("generationConfig.logprobs needs responseLogprobs: true");
                if (g.path("logprobs").asInt(0) > 20) p.add("generationConfig.logprobs must be <= 20");
            }
        }
        return p;
    }

    private static void partsProblems(List<String> p, String where, JsonNode parts) {
        if (parts == null || !parts.isArray() || parts.isEmpty()) { p.add(where + ".parts must be a non-empty array"); return; }
        for (int j = 0; j < parts.size(); j++) {
            JsonNode part = parts.get(j);
            String pw = where + ".parts[" + j + "]";
            if (part.has("text")) {
                if (!part.get("text").isTextual()) p.add(pw + ".text must be a string");
            } else if (part.has("inlineData")) {
                JsonNode d = part.get("inlineData");
                if (!d.path("mimeType").asText().startsWith("image/")) p.add(pw + ".inlineData.mimeType must be image/...");
                String prob = base64ImageProblem(pw + ".inlineData.data", d.get("data"));
                if (prob != null) p.add(prob);
            } else p.add(pw + " must have text or inlineData");
        }
    }

    @Override protected String render(Reply.Answer a, Received r) {
        JsonNode g = r.json().path("generationConfig");
        boolean wantLp = g.path("responseLogprobs").asBoolean(false) && a.logprobs();
        int k = g.path("logprobs").asInt(0);
        int n = g.path("candidateCount").asInt(1);
        List<Reply.Generated> gens = a.choices().size() == 1 && n > 1 ? java.util.Collections.nCopies(n, a.choices().get(0)) : a.choices();
        ObjectNode o = Json.MAPPER.createObjectNode();
        ArrayNode cands = o.putArray("candidates");
        long completion = 0;
        for (int i = 0; i < gens.size(); i++) {
            Reply.Generated gen = gens.get(i);
            ObjectNode c = cands.addObject();
            ObjectNode content = c.putObject("content");
            content.putArray("parts").addObject().put("text", gen.text());
            content.put("role", "model");
            c.put("finishReason", "STOP").put("index", i);
            if (wantLp) {
                double sum = 0;
                ObjectNode lr = c.putObject("logprobsResult");
                ArrayNode tops = lr.putArray("topCandidates");
                ArrayNode chosen = lr.putArray("chosenCandidates");
                for (TokenLogprob t : gen.tokens()) {
                    ArrayNode alts = tops.addObject().putArray("candidates");
                    for (TokenLogprob.Alternative alt : topK(t, k)) alts.addObject().put("token", alt.token()).put("tokenId", 1).put("logProbability", wireLogprob(alt.logprob()));
                    chosen.addObject().put("token", t.token()).put("tokenId", 1).put("logProbability", wireLogprob(t.logprob()));
                    sum += wireLogprob(t.logprob());
                }
                c.put("avgLogprobs", gen.tokens().isEmpty() ? 0 : sum / gen.tokens().size());
            }
            completion += Math.max(1, gen.tokens().size());
        }
        if (a.usage()) {
            ObjectNode u = o.putObject("usageMetadata").put("promptTokenCount", a.promptTokens()).put("candidatesTokenCount", completion)
                    .put("totalTokenCount", a.promptTokens() + completion);
            // the prompt count includes the cached tokens; like the API, a count of 0 is left out
            if (a.cachedPromptTokens() != null && a.cachedPromptTokens() > 0) u.put("cachedContentTokenCount", a.cachedPromptTokens());
        }
        o.put("modelVersion", "gemini-test");
        return Json.write(o);
    }
}
