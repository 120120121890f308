package dev.gamagent.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;

import java.util.ArrayList;
import java.util.List;

/** Parsing pieces shared by the wire formats. */
public final class WireParse {
    private WireParse() { }

    /** A log-prob as servers send it: a number, -9999, "-inf"/"-Infinity", or null (all non-finite become -inf). */
    public static double logprob(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return Double.NEGATIVE_INFINITY;
        double v;
        if (n.isNumber()) v = n.asDouble();
        else if (n.isTextual()) {
            String s = n.asText().strip().toLowerCase(java.util.Locale.ROOT);
            if (s.contains("inf") || s.equals("nan")) return Double.NEGATIVE_INFINITY;
            try { v = Double.parseDouble(s); } catch (NumberFormatException e) { return Double.NEGATIVE_INFINITY; }
        } else return Double.NEGATIVE_INFINITY;
        return Double.isFinite(v) ? v : Double.NEGATIVE_INFINITY;
    }

    /**
     * OpenAI-style token entries ({@code token, logprob, bytes, top_logprobs[]}), as used by OpenAI, vLLM,
     * llama.cpp and Ollama; {@code bytes} is ignored (it may be null).
     */
    public static List<TokenLogprob> openAiTokens(JsonNode content) {
        List<TokenLogprob> out = new ArrayList<>();
        if (content == null || !content.isArray()) return out;
        for (JsonNode t : content) {
            List<TokenLogprob.Alternative> top = new ArrayList<>();
            JsonNode tops = t.path("top_logprobs");
            if (tops.isArray()) {
                for (JsonNode a : tops) top.add(new TokenLogprob.Alternative(a.path("token").asText(""), logprob(a.get("logprob"))));
            }
            out.add(new TokenLogprob(t.path("token").asText(""), logprob(t.get("logprob")), top));
        }
        return out;
    }

    public static Long optLong(JsonNode n) {
        return n == null || !n.isNumber() ? null : n.asLong();
    }

    /** A count a server may leave out or send as null: a whole number of at least 0, else null (not reported). */
    public static Long optCount(JsonNode n) {
        return n == null || !n.isIntegralNumber() || n.asLong() < 0 ? null : n.asLong();
    }

    /** Text content that may be a string or an array of {@code {type:text,text}} parts. */
    public static String text(JsonNode content) {
        if (content == null || content.isNull() || content.isMissingNode()) return "";
        if (content.isTextual()) return content.asText();
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode p : content) if (p.path("text").isTextual()) sb.append(p.get("text").asText());
            return sb.toString();
        }
        return content.asText("");
    }
}
