package dev.gamagent.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.util.Json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The canonical JSON of a request (message text, image SHA-256 + size, sampling, log-prob settings,
 * schema) and its hash, the key of recordings; plus the JSON form of results. Pixels are never written.
 */
public final class CanonicalRequest {
    private CanonicalRequest() { }

    public static ObjectNode json(ChatRequest r) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ArrayNode msgs = o.putArray("messages");
        for (ChatMessage m : r.messages()) {
            ObjectNode mo = msgs.addObject();
            mo.put("role", m.role().wire());
            ArrayNode parts = mo.putArray("parts");
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) parts.addObject().put("text", t.text());
                else if (p instanceof ChatMessage.Image img) {
                    byte[] png = img.picture().png();
                    ObjectNode io = parts.addObject();
                    io.put("image_sha256", sha256(png));
                    io.put("width", img.picture().width());
                    io.put("height", img.picture().height());
                    io.put("bytes", png.length);
                    if (img.detail() != null) io.put("detail", img.detail());
                }
            }
        }
        o.put("temperature", r.temperature());
        o.put("max_tokens", r.maxTokens());
        o.put("n", r.n());
        if (r.seed() == null) o.putNull("seed"); else o.put("seed", r.seed());
        o.put("logprobs", r.logprobs());
        o.put("top_logprobs", r.logprobs() ? r.topLogprobs() : 0);
        if (r.responseSchema() != null) {
            o.set("schema", r.responseSchema());
            o.put("schema_name", r.schemaName());
        }
        return o;
    }

    /** SHA-256 (hex) of the canonical JSON; Jackson keeps insertion order, which {@link #json} fixes. */
    public static String hash(ChatRequest r) {
        return sha256(Json.write(json(r)).getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    public static ObjectNode result(ChatResult r) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ArrayNode cs = o.putArray("choices");
        for (Choice c : r.choices()) {
            ObjectNode co = cs.addObject();
            co.put("text", c.text());
            if (c.finishReason() == null) co.putNull("finish_reason"); else co.put("finish_reason", c.finishReason());
            ArrayNode lps = co.putArray("logprobs");
            for (TokenLogprob t : c.logprobs()) {
                ObjectNode to = lps.addObject().put("token", t.token());
                putLogprob(to, t.logprob());
                ArrayNode top = to.putArray("top");
                for (TokenLogprob.Alternative a : t.top()) putLogprob(top.addObject().put("token", a.token()), a.logprob());
            }
        }
        ObjectNode u = o.putObject("usage").put("prompt", r.usage().promptTokens()).put("completion", r.usage().completionTokens())
                .put("estimated", r.usage().estimated());
        if (r.usage().cachedPromptTokens() != null) u.put("cached", r.usage().cachedPromptTokens()); // only when the server said
        o.put("latency_ns", r.latency().toNanos());
        o.put("model", r.model());
        return o;
    }

    private static void putLogprob(ObjectNode o, double lp) {
        if (Double.isFinite(lp)) o.put("logprob", lp); else o.putNull("logprob"); // null reads back as -inf
    }

    public static ChatResult readResult(JsonNode o) {
        List<Choice> choices = new ArrayList<>();
        for (JsonNode c : o.path("choices")) {
            List<TokenLogprob> lps = new ArrayList<>();
            for (JsonNode t : c.path("logprobs")) {
                List<TokenLogprob.Alternative> top = new ArrayList<>();
                for (JsonNode a : t.path("top")) top.add(new TokenLogprob.Alternative(a.path("token").asText(), WireParse.logprob(a.get("logprob"))));
                lps.add(new TokenLogprob(t.path("token").asText(), WireParse.logprob(t.get("logprob")), top));
            }
            choices.add(new Choice(c.path("text").asText(""), lps, c.path("finish_reason").isTextual() ? c.get("finish_reason").asText() : null));
        }
        JsonNode u = o.path("usage");
        return new ChatResult(choices, new Usage(u.path("prompt").asLong(), u.path("completion").asLong(), u.path("estimated").asBoolean(),
                        WireParse.optCount(u.get("cached"))),
                Duration.ofNanos(o.path("latency_ns").asLong()), o.path("model").asText(null));
    }
}
