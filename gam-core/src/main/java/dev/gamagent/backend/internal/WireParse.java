package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;

/** Parsing pieces shared by the wire formats. */
public final class WireParse {
    private WireParse() { }

    /** A log-prob as servers send it: a number, -9999, "-inf"/"-Infinity", or null (all non-finite become -inf). */
    public static double logprob(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return Double.NEGATIVE_INFINITY;
        double v;
        if (n.isNumber()) return logprob(n.asDouble());
        else if (n.isTextual()) {
            String s = n.asText().strip().toLowerCase(java.util.Locale.ROOT);
            if (s.contains("inf") || s.equals("nan")) return Double.NEGATIVE_INFINITY;
            try { v = Double.parseDouble(s); } catch (NumberFormatException e) { return Double.NEGATIVE_INFINITY; }
        } else return Double.NEGATIVE_INFINITY;
        return Double.isFinite(v) ? v : Double.NEGATIVE_INFINITY;
    }

    /** A log-prob the parser read as a number: non-finite becomes -inf (as {@link #logprob(JsonNode)} for a number). */
    public static double logprob(double v) {
        return Double.isFinite(v) ? v : Double.NEGATIVE_INFINITY;
    }

    /**
     * OpenAI-style token entries ({@code token, logprob, bytes, top_logprobs[]}), as used by OpenAI, vLLM,
     * llama.cpp and Ollama; {@code bytes} is ignored (it may be null). Read by {@link #openAiTokens(JsonParser)} from
     * the node's tokens.
     */
    public static List<TokenLogprob> openAiTokens(JsonNode content) {
        if (content == null || !content.isArray()) return new ArrayList<>();
        try (JsonParser p = content.traverse(Json.MAPPER)) {
            p.nextToken();
            return openAiTokens(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a tree in memory: no I/O can fail
        }
    }

    /**
     * The token entries of the array at the parser's current token, streamed into {@link TokenLogprob}s without a
     * tree: what {@link #openAiTokens(JsonNode)} gives for that array (a field named twice counts as the tree counts
     * it, the last; an entry or alternative that is not an object is an empty token of log-prob -inf; {@code bytes}
     * and any other field skipped). Leaves the parser at the array's end; a value that is not an array gives no tokens.
     */
    public static List<TokenLogprob> openAiTokens(JsonParser p) throws IOException {
        List<TokenLogprob> out = new ArrayList<>();
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                out.add(new TokenLogprob("", Double.NEGATIVE_INFINITY, List.of()));
                continue;
            }
            String token = "";
            double logprob = Double.NEGATIVE_INFINITY;
            List<TokenLogprob.Alternative> top = List.of();
            for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
                p.nextToken();
                switch (f) {
                    case "token" -> token = tokenText(p);
                    case "logprob" -> logprob = logprob(p);
                    case "top_logprobs" -> top = alternatives(p);
                    default -> p.skipChildren();
                }
            }
            out.add(new TokenLogprob(token, logprob, top));
        }
        return out;
    }

    private static List<TokenLogprob.Alternative> alternatives(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return List.of();
        }
        List<TokenLogprob.Alternative> top = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                top.add(new TokenLogprob.Alternative("", Double.NEGATIVE_INFINITY));
                continue;
            }
            String token = "";
            double logprob = Double.NEGATIVE_INFINITY;
            for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
                p.nextToken();
                switch (f) {
                    case "token" -> token = tokenText(p);
                    case "logprob" -> logprob = logprob(p);
                    default -> p.skipChildren();
                }
            }
            top.add(new TokenLogprob.Alternative(token, logprob));
        }
        return top;
    }

    /** A token's text at the parser's value: a string as it is, anything else as its node's {@code asText("")}. */
    private static String tokenText(JsonParser p) throws IOException {
        return p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : node(p).asText("");
    }

    /** The log-prob at the parser's value: a number read directly, anything else through {@link #logprob(JsonNode)}. */
    private static double logprob(JsonParser p) throws IOException {
        return p.currentToken().isNumeric() ? logprob(p.getDoubleValue()) : logprob(node(p));
    }

    /** The value at the parser's current token as a node (the rare shapes: null, a string log-prob, a number token). */
    public static JsonNode node(JsonParser p) throws IOException {
        JsonNode n = Json.MAPPER.readTree(p);
        return n == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : n;
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
