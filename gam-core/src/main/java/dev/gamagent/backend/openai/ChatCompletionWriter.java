package dev.gamagent.backend.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.nio.charset.StandardCharsets;

/**
 * The one writer of the OpenAI reply shapes ({@link ChatCompletionReply}): as bytes, as a JSON tree (for a server that
 * scrubs secrets from what it sends) and as a server-sent event of a stream.
 */
public final class ChatCompletionWriter {
    /** The event that ends a stream. */
    public static final String DONE = "data: [DONE]\n\n";

    private ChatCompletionWriter() { }

    /** A reply as UTF-8 JSON. */
    public static byte[] bytes(Object reply) {
        try {
            return Json.MAPPER.writeValueAsBytes(reply);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + reply.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /** A reply as a JSON tree, written as {@link #bytes} writes it. */
    public static JsonNode tree(Object reply) { return Json.MAPPER.valueToTree(reply); }

    /** One event of a stream: {@code data: <json>} and a blank line. */
    public static byte[] event(Object chunk) {
        return ("data: " + new String(bytes(chunk), StandardCharsets.UTF_8) + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
