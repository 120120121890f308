package dev.gamagent.testing;

import java.util.List;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chat-completions bodies on which the three receivers of the wire format ({@code gam serve}, the built-in model's
 * server, the simulator) once disagreed, each with what the one reader ({@code backend.openai.ChatCompletionReader})
 * makes of it: accepted, or refused with a message naming the field. Every receiver's test runs them all, so a receiver
 * that reads the body its own way again fails there.
 */
public final class WireRequestCases {
    /** The case with both {@code max_completion_tokens} (64, first) and {@code max_tokens} (5): the request's limit is 64. */
    public static final String BOTH_MAX_TOKENS = "max_completion_tokens before max_tokens";

    private WireRequestCases() { }

    /**
     * A body and, when it is refused, a piece of the refusal's message (the field it names); null when accepted.
     * Accepted bodies hold a question in a user message and one image, so every receiver can answer them.
     */
    public record Case(String name, String body, String refusal) {
        public boolean accepted() { return refusal == null; }

        @Override public String toString() { return name; }
    }

    /** A receiver's reading of a body. */
    @FunctionalInterface
    public interface Receiver<T> {
        T read(String body) throws Exception;
    }

    /**
     * Runs every case through {@code receiver}: an accepted case must come back (and pass {@code accepted}), a refused one
     * must throw a {@code refusal} whose message names the field.
     */
    public static <T> void check(String image, Receiver<T> receiver, Class<? extends Exception> refusal, BiConsumer<Case, T> accepted)
            throws Exception {
        for (Case c : all(image)) {
            T read;
            try {
                read = receiver.read(c.body());
            } catch (Exception e) {
                if (c.accepted() || !refusal.isInstance(e)) throw new AssertionError(c.name() + ": " + e, e);
                assertThat(e.getMessage()).as(c.name()).contains(c.refusal());
                continue;
            }
            if (!c.accepted()) throw new AssertionError(c.name() + ": accepted, but the reader refuses it naming " + c.refusal());
            accepted.accept(c, read);
        }
    }

    /** The cases, with {@code image} (a small image's data URL) wherever a body needs an image. */
    public static List<Case> all(String image) {
        String text = "{\"type\": \"text\", \"text\": \"What colour is the car?\\nA. red\\nB. blue\"}";
        String part = "{\"type\": \"image_url\", \"image_url\": {\"url\": \"" + image + "\"}}";
        String user = "{\"role\": \"user\", \"content\": [" + text + ", " + part + "]}";
        return List.of(
                new Case("an image_url given as a plain string", body("{\"role\": \"user\", \"content\": [" + text
                        + ", {\"type\": \"image_url\", \"image_url\": \"" + image + "\"}]}"), null),
                new Case("parts typed input_text and input_image", body("{\"role\": \"user\", \"content\": [{\"type\": \"input_text\", "
                        + "\"text\": \"What colour is the car?\"}, {\"type\": \"input_image\", \"image_url\": \"" + image + "\"}]}"), null),
                new Case("a developer message", body("{\"role\": \"developer\", \"content\": \"Answer with a letter.\"}, " + user), null),
                new Case("an assistant turn with null content", body(user + ", {\"role\": \"assistant\", \"content\": null}, " + user), null),
                new Case(BOTH_MAX_TOKENS, "{\"max_completion_tokens\": 64, \"max_tokens\": 5, \"messages\": [" + user + "]}", null),
                new Case("a part without a type", body("{\"role\": \"user\", \"content\": [{\"text\": \"What colour?\"}, " + part + "]}"),
                        "messages[0].content[0].type: missing"),
                new Case("an audio part in a system message", body("{\"role\": \"system\", \"content\": [{\"type\": \"input_audio\", "
                        + "\"input_audio\": {}}]}, " + user), "messages[0].content[0].type: content part type 'input_audio'"),
                new Case("a message without a role", body(user + ", {\"content\": \"And the sky?\"}"), "messages[1].role: missing"),
                new Case("a role no one knows", body("{\"role\": \"robot\", \"content\": \"beep\"}, " + user), "messages[0].role: 'robot'"),
                new Case("content that is a number", body("{\"role\": \"assistant\", \"content\": 7}, " + user), "messages[0].content: must be"),
                new Case("a text part without text", body("{\"role\": \"user\", \"content\": [{\"type\": \"text\"}, " + part + "]}"),
                        "messages[0].content[0].text: missing"),
                new Case("an image part without a url", body("{\"role\": \"user\", \"content\": [" + text
                        + ", {\"type\": \"image_url\", \"image_url\": {\"detail\": \"high\"}}]}"), "messages[0].content[1].image_url.url: missing"),
                new Case("a message that is a string", body("\"hello\", " + user), "messages[0]: must be an object"),
                new Case("n of 0", "{\"n\": 0, \"messages\": [" + user + "]}", "n: must be at least 1, got 0"),
                new Case("max_tokens of 0", "{\"max_tokens\": 0, \"messages\": [" + user + "]}", "max_tokens: must be at least 1, got 0"),
                new Case("max_tokens as a string", "{\"max_tokens\": \"64\", \"messages\": [" + user + "]}", "max_tokens: must be a whole number"),
                new Case("a negative top_logprobs", "{\"top_logprobs\": -1, \"messages\": [" + user + "]}", "top_logprobs: must be at least 0"),
                new Case("a model that is an object", "{\"model\": {\"name\": \"x\"}, \"messages\": [" + user + "]}", "model: must be a string"),
                new Case("empty messages", "{\"messages\": []}", "messages: must be a non-empty array"),
                new Case("messages that are a string", "{\"messages\": \"hi\"}", "messages: must be a non-empty array"),
                new Case("a bad message before broken JSON", "{\"messages\": [7], \"model\": \"single\", ", "not valid JSON"));
    }

    private static String body(String messages) {
        return "{\"model\": \"single\", \"messages\": [" + messages + "]}";
    }
}
