package dev.gamagent.backend;

import dev.gamagent.backend.internal.EndpointSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.TreeMap;

/**
 * The contract every OpenAI-compatible server of the project keeps ({@code gam serve}, the built-in model's server, the
 * benchmark simulator; they write with {@code backend.openai.ChatCompletionWriter}): its reply parses with the one reader,
 * {@code OpenAiCompatibleBackend}'s parser, and a streamed reply, its chunks put together as a client puts them, parses to
 * the same answer as the whole one. A server's test compares what it meant to say with what the parser reads.
 */
public final class OpenAiReplyContract {
    private static final OpenAiCompatibleBackend READER = new OpenAiCompatibleBackend(EndpointSettings.of("http://127.0.0.1:9/v1", "m"));

    private OpenAiReplyContract() { }

    /** What the reader read: the choices, the server's token counts (null when absent) and the model's name. */
    public record Read(List<Choice> choices, Long promptTokens, Long completionTokens, String model) { }

    /** A whole {@code chat.completion} body as the project's OpenAI client reads it (a malformed one throws, naming why). */
    public static Read parse(String body) {
        try {
            var a = READER.parse(Json.MAPPER.readTree(body), body);
            return new Read(a.choices(), a.promptTokens(), a.completionTokens(), a.model());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    /** A stream of {@code chat.completion.chunk} events put together and read as {@link #parse} reads a whole reply. */
    public static Read parseStream(String events) { return parse(assembled(events)); }

    /**
     * The whole reply a stream adds up to: per choice index, the deltas' content in order, the log-prob entries of every
     * chunk in order, and the finish reason; the usage of the chunk that carries one. An error event fails.
     */
    public static String assembled(String events) {
        TreeMap<Integer, StringBuilder> content = new TreeMap<>();
        TreeMap<Integer, ArrayNode> logprobs = new TreeMap<>();
        TreeMap<Integer, String> finish = new TreeMap<>();
        ObjectNode whole = Json.MAPPER.createObjectNode();
        boolean done = false;
        for (String line : events.split("\n")) {
            if (!line.startsWith("data: ")) continue;
            String data = line.substring(6);
            if (data.equals("[DONE]")) {
                done = true;
                continue;
            }
            if (done) throw new AssertionError("an event after [DONE]: " + data);
            JsonNode chunk;
            try {
                chunk = Json.MAPPER.readTree(data);
            } catch (IOException e) {
                throw new AssertionError("an event that is not JSON: " + data, e);
            }
            if (chunk.has("error")) throw new AssertionError("the stream ended with an error: " + data);
            if (!"chat.completion.chunk".equals(chunk.path("object").asText())) throw new AssertionError("not a chunk: " + data);
            if (!whole.has("id")) whole.set("id", chunk.path("id"));
            else if (!whole.get("id").equals(chunk.path("id"))) throw new AssertionError("chunks of two replies: " + data);
            whole.set("model", chunk.path("model"));
            for (JsonNode c : chunk.path("choices")) {
                int i = c.path("index").asInt();
                content.computeIfAbsent(i, k -> new StringBuilder());
                if (c.path("delta").path("content").isTextual()) content.get(i).append(c.path("delta").path("content").asText());
                if (c.path("logprobs").isObject()) {
                    logprobs.computeIfAbsent(i, k -> Json.MAPPER.createArrayNode()).addAll((ArrayNode) c.path("logprobs").path("content"));
                }
                if (c.path("finish_reason").isTextual()) finish.put(i, c.path("finish_reason").asText());
            }
            if (chunk.path("usage").isObject()) whole.set("usage", chunk.get("usage"));
        }
        if (!done) throw new AssertionError("the stream did not end with [DONE]");
        whole.put("object", "chat.completion");
        ArrayNode choices = whole.putArray("choices");
        for (var e : content.entrySet()) {
            ObjectNode c = choices.addObject();
            c.put("index", e.getKey());
            c.putObject("message").put("role", "assistant").put("content", e.getValue().toString());
            if (logprobs.containsKey(e.getKey())) c.putObject("logprobs").set("content", logprobs.get(e.getKey()));
            else c.putNull("logprobs");
            c.put("finish_reason", finish.get(e.getKey()));
        }
        return Json.write(whole);
    }
}
