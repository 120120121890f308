package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An OpenAI chat completion read from a JSON parser, without building the reply's tree: the choices' log-prob
 * entries (most of a reply with log-probs) go straight into {@link TokenLogprob}s ({@link WireParse#openAiTokens(JsonParser)}),
 * the few small parts (each choice's message and finish reason, the usage, the model) are read as nodes, and
 * everything else is skipped. {@code OpenAiCompatibleBackend} reads both a reply's text (as it arrives) and a reply
 * already in a tree (its fuzz tests) this one way, and checks what it read in {@code OpenAiCompatibleBackend.answer}.
 * A field named twice counts as a tree counts it, the last.
 */
public record OpenAiReply(List<Part> choices, JsonNode usage, JsonNode model) {
    /** One choice: its message (missing when the choice is not an object), log-prob tokens and finish reason. */
    public record Part(JsonNode message, List<TokenLogprob> tokens, JsonNode finishReason) { }

    private static final JsonNode MISSING = MissingNode.getInstance();

    /** The reply at the parser's start; null for an empty body. {@code choices} is null when they are not an array. */
    public static OpenAiReply read(JsonParser p) throws IOException {
        JsonToken first = p.nextToken();
        if (first == null) return null;
        if (first != JsonToken.START_OBJECT) {
            p.skipChildren();
            return new OpenAiReply(null, MISSING, MISSING);
        }
        List<Part> choices = null;
        JsonNode usage = MISSING;
        JsonNode model = MISSING;
        for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
            p.nextToken();
            switch (f) {
                case "choices" -> choices = choices(p);
                case "usage" -> usage = WireParse.node(p);
                case "model" -> model = WireParse.node(p);
                default -> p.skipChildren();
            }
        }
        return new OpenAiReply(choices, usage, model);
    }

    /** A reply already in a tree, read the same way. */
    public static OpenAiReply read(JsonNode body) {
        try (JsonParser p = body.traverse(Json.MAPPER)) {
            return read(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a tree in memory: no I/O can fail
        }
    }

    private static List<Part> choices(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        List<Part> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                out.add(new Part(MISSING, List.of(), MISSING));
                continue;
            }
            JsonNode message = MISSING;
            JsonNode finish = MISSING;
            List<TokenLogprob> tokens = List.of();
            for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
                p.nextToken();
                switch (f) {
                    case "message" -> message = WireParse.node(p);
                    case "finish_reason" -> finish = WireParse.node(p);
                    case "logprobs" -> tokens = logprobs(p);
                    default -> p.skipChildren();
                }
            }
            out.add(new Part(message, tokens, finish));
        }
        return out;
    }

    /** A choice's {@code logprobs}: the tokens of its {@code content} when it is an object, else none. */
    private static List<TokenLogprob> logprobs(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return List.of();
        }
        List<TokenLogprob> tokens = new ArrayList<>();
        for (String f = p.nextFieldName(); f != null; f = p.nextFieldName()) {
            p.nextToken();
            if (f.equals("content")) tokens = WireParse.openAiTokens(p);
            else p.skipChildren();
        }
        return tokens;
    }
}
