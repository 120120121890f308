package dev.gamagent.backend.openai;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the project's OpenAI-compatible servers answer ({@code gam serve}, the built-in model's server, the benchmark
 * simulator), as records in the order OpenAI writes the fields: a whole {@code chat.completion}, the
 * {@code chat.completion.chunk}s of a stream, the error body {@code {"error": {...}}} and the {@code /v1/models} list.
 * {@link ChatCompletionWriter} writes them; {@code OpenAiCompatibleBackend} is the one reader. A field OpenAI always
 * sends is written even when null ({@code logprobs}, {@code finish_reason} of a chunk, {@code refusal}, an error's
 * {@code code}); the others are left out when null ({@code system_fingerprint}, and the {@code gam} extensions of
 * {@code gam serve}: docs/SERVER.md).
 */
public final class ChatCompletionReply {
    private ChatCompletionReply() { }

    /** A whole reply. {@code gam} is {@code gam serve}'s answer object; null elsewhere. */
    @JsonPropertyOrder({"id", "object", "created", "model", "system_fingerprint", "choices", "usage", "gam"})
    public record Completion(String id, long created, String model,
                             @JsonProperty("system_fingerprint") @JsonInclude(JsonInclude.Include.NON_NULL) String systemFingerprint,
                             List<CompletionChoice> choices, TokenUsage usage, @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode gam) {
        @JsonProperty("object") public String object() { return "chat.completion"; }
    }

    /** One choice of a whole reply; {@code logprobs} null when none were asked for (or the server gives none). */
    @JsonPropertyOrder({"index", "message", "logprobs", "finish_reason"})
    public record CompletionChoice(int index, Message message, Logprobs logprobs, @JsonProperty("finish_reason") String finishReason) {
        /** Choice {@code index} from a backend's choice, with its log-probs when {@code logprobs} (all of its alternatives). */
        public static CompletionChoice of(int index, Choice c, boolean logprobs) {
            return new CompletionChoice(index, new Message(c.text()), logprobs ? Logprobs.of(c.logprobs(), Integer.MAX_VALUE) : null,
                    c.finishReason());
        }
    }

    /** The assistant's message. */
    @JsonPropertyOrder({"role", "content"})
    public record Message(String content) {
        @JsonProperty("role") public String role() { return "assistant"; }
    }

    /** {@code choices[].logprobs}: one entry per token, and OpenAI's {@code refusal} (always null here). */
    @JsonPropertyOrder({"content", "refusal"})
    public record Logprobs(List<TokenEntry> content) {
        @JsonProperty("refusal") @JsonInclude(JsonInclude.Include.ALWAYS) public String refusal() { return null; }

        /** The tokens with at most {@code top} of each one's alternatives, their log-probs as given. */
        public static Logprobs of(List<TokenLogprob> tokens, int top) {
            List<TokenEntry> out = new ArrayList<>(tokens.size());
            for (TokenLogprob t : tokens) {
                List<TopEntry> alts = new ArrayList<>(Math.min(top, t.top().size()));
                for (int k = 0; k < Math.min(top, t.top().size()); k++) alts.add(new TopEntry(t.top().get(k).token(), t.top().get(k).logprob()));
                out.add(new TokenEntry(t.token(), t.logprob(), alts));
            }
            return new Logprobs(out);
        }
    }

    /** A token, its log-prob, its UTF-8 bytes and its alternatives. */
    @JsonPropertyOrder({"token", "logprob", "bytes", "top_logprobs"})
    public record TokenEntry(String token, double logprob, @JsonProperty("top_logprobs") List<TopEntry> topLogprobs) {
        @JsonProperty("bytes") public int[] bytes() { return utf8(token); }
    }

    /** One alternative of a token: the token, its log-prob and its UTF-8 bytes. */
    @JsonPropertyOrder({"token", "logprob", "bytes"})
    public record TopEntry(String token, double logprob) {
        @JsonProperty("bytes") public int[] bytes() { return utf8(token); }
    }

    /**
     * {@code usage}: the prompt's and the reply's tokens, their sum as the server counts it and, from a server with a prefix
     * cache that reports it ({@code gam bench serve-sim --prefix-cache-tokens}), {@code prompt_tokens_details.cached_tokens}:
     * the prompt tokens it did not compute again (left out when null).
     */
    @JsonPropertyOrder({"prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details"})
    public record TokenUsage(@JsonProperty("prompt_tokens") long promptTokens, @JsonProperty("completion_tokens") long completionTokens,
                             @JsonProperty("total_tokens") long totalTokens,
                             @JsonProperty("prompt_tokens_details") @JsonInclude(JsonInclude.Include.NON_NULL) PromptTokensDetails promptTokensDetails) {
        public TokenUsage(long promptTokens, long completionTokens, long totalTokens) { this(promptTokens, completionTokens, totalTokens, null); }

        public static TokenUsage of(long prompt, long completion) { return new TokenUsage(prompt, completion, prompt + completion); }

        /** This usage reporting {@code cached} of its prompt tokens as served from the server's prefix cache. */
        public TokenUsage withCachedTokens(long cached) {
            return new TokenUsage(promptTokens, completionTokens, totalTokens, new PromptTokensDetails(cached));
        }
    }

    /** {@code usage.prompt_tokens_details} in OpenAI's shape, as vLLM writes it: the prompt tokens served from cache. */
    public record PromptTokensDetails(@JsonProperty("cached_tokens") long cachedTokens) { }

    /**
     * One event of a streamed reply. {@code usage} and {@code gam} ride on {@code gam serve}'s last chunk, {@code gam_event}
     * on its progress chunks; all three are left out when null.
     */
    @JsonPropertyOrder({"id", "object", "created", "model", "choices", "usage", "gam", "gam_event"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Chunk(String id, long created, String model, List<ChunkChoice> choices, TokenUsage usage, JsonNode gam,
                        @JsonProperty("gam_event") JsonNode gamEvent) {
        @JsonProperty("object") public String object() { return "chat.completion.chunk"; }

        /** A chunk of one choice, without usage or extensions. */
        public static Chunk of(String id, long created, String model, ChunkChoice choice) {
            return new Chunk(id, created, model, List.of(choice), null, null, null);
        }

        public Chunk withUsage(TokenUsage u, JsonNode gamAnswer) { return new Chunk(id, created, model, choices, u, gamAnswer, gamEvent); }

        public Chunk withEvent(JsonNode event) { return new Chunk(id, created, model, choices, usage, gam, event); }
    }

    /** A chunk's choice: a piece of the message, its log-probs (or null) and, on the last one, why it ended. */
    @JsonPropertyOrder({"index", "delta", "logprobs", "finish_reason"})
    public record ChunkChoice(int index, Delta delta, @JsonInclude(JsonInclude.Include.ALWAYS) Logprobs logprobs,
                              @JsonProperty("finish_reason") @JsonInclude(JsonInclude.Include.ALWAYS) String finishReason) { }

    /** A piece of the assistant's message; the role only on the first piece, nothing on the last. */
    @JsonPropertyOrder({"role", "content"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Delta(String role, String content) {
        /** The first piece: the role and {@code content}. */
        public static Delta first(String content) { return new Delta("assistant", content); }

        public static Delta text(String content) { return new Delta(null, content); }

        /** The last piece's empty delta. */
        public static Delta none() { return new Delta(null, null); }
    }

    /** OpenAI's error body, {@code {"error": {...}}}. */
    public record ErrorReply(ErrorDetail error) {
        public static ErrorReply of(String message, String type, String code) { return new ErrorReply(new ErrorDetail(message, type, code, null)); }
    }

    /** What went wrong: {@code code} is written even when null, {@code param} (the request field at fault) only when known. */
    @JsonPropertyOrder({"message", "type", "code", "param"})
    public record ErrorDetail(String message, String type, @JsonInclude(JsonInclude.Include.ALWAYS) String code,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String param) { }

    /** {@code GET /v1/models}. */
    @JsonPropertyOrder({"object", "data"})
    public record ModelList(List<Model> data) {
        @JsonProperty("object") public String object() { return "list"; }

        /** The models {@code ids}, in order, all owned by {@code ownedBy}, created at time 0. */
        public static ModelList of(List<String> ids, String ownedBy) {
            return new ModelList(ids.stream().map(id -> new Model(id, 0, ownedBy)).toList());
        }
    }

    /** One model of the list. */
    @JsonPropertyOrder({"id", "object", "created", "owned_by"})
    public record Model(String id, long created, @JsonProperty("owned_by") String ownedBy) {
        @JsonProperty("object") public String object() { return "model"; }
    }

    private static int[] utf8(String token) {
        byte[] b = token.getBytes(StandardCharsets.UTF_8);
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) out[i] = b[i] & 0xff;
        return out;
    }
}
