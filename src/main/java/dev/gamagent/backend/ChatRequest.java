package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * A chat request.
 *
 * @param topLogprobs alternatives per token asked for (0 = only the chosen token's log-prob); ignored
 *                    when {@code logprobs} is false; backends cap it at the server's limit
 * @param responseSchema a JSON schema for structured output, or null for free text
 * @param schemaName     a name for the schema (OpenAI requires one)
 */
public record ChatRequest(List<ChatMessage> messages, double temperature, int maxTokens, int n, Long seed,
                          boolean logprobs, int topLogprobs, JsonNode responseSchema, String schemaName) {
    public ChatRequest {
        messages = List.copyOf(messages);
        if (messages.isEmpty()) throw new IllegalArgumentException("a chat request needs at least one message");
        if (n < 1) n = 1;
        if (maxTokens <= 0) maxTokens = 512;
        if (topLogprobs < 0) topLogprobs = 0;
    }

    /** A greedy one-message request asking for top-5 log-probs. */
    public static ChatRequest of(List<ChatMessage> messages) {
        return new ChatRequest(messages, 0.0, 512, 1, null, true, 5, null, null);
    }

    public ChatRequest withSampling(double temp, int maxTok, int count, Long seedValue) {
        return new ChatRequest(messages, temp, maxTok, count, seedValue, logprobs, topLogprobs, responseSchema, schemaName);
    }

    public ChatRequest withLogprobs(boolean on, int top) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, on, top, responseSchema, schemaName);
    }

    public ChatRequest withSchema(String name, JsonNode schema) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, logprobs, topLogprobs, schema, name);
    }

    public ChatRequest withMessages(List<ChatMessage> newMessages) {
        return new ChatRequest(newMessages, temperature, maxTokens, n, seed, logprobs, topLogprobs, responseSchema, schemaName);
    }
}
