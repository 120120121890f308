package dev.gamagent.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Locale;

/**
 * An OpenAI chat-completions request body as it arrived, typed ({@link ChatCompletionReader} reads it): what the
 * receivers of the wire format ({@code gam serve}, the built-in model's server, the simulator) take from it. A field the
 * client left out (or sent as null) is null here, so each receiver applies its own default; the wire format's own
 * defaults ({@code n} 1, {@code stream} and {@code logprobs} false, {@code top_logprobs} 0) are applied already.
 *
 * @param model     {@code model}, or null
 * @param messages  {@code messages}, in order (never empty)
 * @param maxTokens {@code max_completion_tokens}, else {@code max_tokens} (OpenAI's older name for it), or null;
 *                  at least 1
 * @param response  {@code response_format}, or null
 * @param stop      {@code stop} (one string or an array of them) as a list, or null
 * @param toolChoice {@code tool_choice}: its string ("none", "auto", "required"), the {@code type} of an object, or null
 * @param others    the other top-level fields the body set to something other than null, by name, in order: what the
 *                  reader does not type ({@code tools}, {@code logit_bias}, {@code top_p}, ...), so that a receiver can
 *                  refuse or accept each by name instead of never seeing it
 */
public record ChatCompletionRequest(String model, List<Message> messages, Integer maxTokens, Double temperature, int n,
                                    Long seed, boolean logprobs, int topLogprobs, boolean stream, ResponseFormat response,
                                    List<String> stop, String toolChoice, List<String> others) {
    public ChatCompletionRequest {
        messages = List.copyOf(messages);
        stop = stop == null ? null : List.copyOf(stop);
        others = others == null ? List.of() : List.copyOf(others);
    }

    /** Who speaks a message; {@code developer} is OpenAI's newer name for {@code system}. */
    public enum Role {
        SYSTEM, DEVELOPER, USER, ASSISTANT, TOOL, FUNCTION;

        /** The role as the wire spells it. */
        public String wire() { return name().toLowerCase(Locale.ROOT); }

        /** System or developer: instructions rather than a turn of the conversation. */
        public boolean instructs() { return this == SYSTEM || this == DEVELOPER; }
    }

    /** One message; {@code content} sent as a string is one {@link Text} part, null or left out is no part. */
    public record Message(Role role, List<Part> content) {
        public Message {
            content = List.copyOf(content);
        }
    }

    /** A content part: {@code text} (or {@code input_text}) or {@code image_url} (or {@code input_image}). */
    public sealed interface Part permits Text, ImageUrl { }

    /** A text part. */
    public record Text(String text) implements Part { }

    /**
     * An image part: its URL (a {@code data:} URL or a remote one; receivers decide which they take) and OpenAI's
     * {@code detail} hint (null when not sent). The URL is never blank.
     */
    public record ImageUrl(String url, String detail) implements Part { }

    /**
     * {@code response_format}: its {@code type} and, for {@code json_schema}, the schema's name and schema (each null
     * when not sent).
     */
    public record ResponseFormat(String type, String name, JsonNode schema) {
        /** Whether the client asked for output following a JSON schema. */
        public boolean jsonSchema() { return "json_schema".equals(type); }
    }
}
