package dev.gamagent.backend;

import dev.gamagent.backend.internal.RequestBody;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A test tool: the {@code messages} array an OpenAI-compatible backend sends for a request, as the bytes on the wire
 * (images as their data URLs), so a test can compare what a prefix cache compares.
 */
public final class WireMessages {
    private WireMessages() { }

    /** The request's {@code messages} array as sent. */
    public static String of(ChatRequest r) {
        RequestBody images = new RequestBody();
        var body = OpenAiCompatibleBackend.body(r, "m", false, false, images);
        return new String(images.bytes(body.get("messages")), StandardCharsets.UTF_8);
    }

    /** These messages as sent (the same request's other fields do not change them). */
    public static String of(List<ChatMessage> messages) {
        return of(ChatRequest.of(messages));
    }

    /** The array without its closing bracket: what a longer conversation's array starts with. */
    public static String open(String array) {
        if (!array.endsWith("]")) throw new IllegalArgumentException("not a JSON array: " + array);
        return array.substring(0, array.length() - 1);
    }
}
