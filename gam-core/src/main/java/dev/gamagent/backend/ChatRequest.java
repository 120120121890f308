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
 * @param caller         which agent asks in which round, or null; never sent to a server (a wrapper such as
 *                       DREAM's rollback matches replies to trace turns with it)
 */
public record ChatRequest(List<ChatMessage> messages, double temperature, int maxTokens, int n, Long seed,
                          boolean logprobs, int topLogprobs, JsonNode responseSchema, String schemaName, Caller caller) {
    public ChatRequest {
        messages = List.copyOf(messages);
        if (messages.isEmpty()) throw new IllegalArgumentException("a chat request needs at least one message");
        if (n < 1) n = 1;
        if (maxTokens <= 0) maxTokens = 512;
        if (topLogprobs < 0) topLogprobs = 0;
    }

    public ChatRequest(List<ChatMessage> messages, double temperature, int maxTokens, int n, Long seed,
                       boolean logprobs, int topLogprobs, JsonNode responseSchema, String schemaName) {
        this(messages, temperature, maxTokens, n, seed, logprobs, topLogprobs, responseSchema, schemaName, null);
    }

    /**
     * The text of the system messages, each after a newline but the first ("" when there is none), for the APIs that
     * take the system prompt in a field of its own rather than as a message.
     */
    String systemText() {
        StringBuilder system = new StringBuilder();
        for (ChatMessage m : messages) {
            if (m.role() != ChatMessage.Role.SYSTEM) continue;
            if (system.length() > 0) system.append('\n');
            system.append(m.text());
        }
        return system.toString();
    }

    /** The agent (its trace id) and round (the trace's k) a request belongs to. */
    public record Caller(String agent, int round) { }

    /** A greedy one-message request asking for top-5 log-probs. */
    public static ChatRequest of(List<ChatMessage> messages) {
        return new ChatRequest(messages, 0.0, 512, 1, null, true, 5, null, null);
    }

    public ChatRequest withSampling(double temp, int maxTok, int count, Long seedValue) {
        return new ChatRequest(messages, temp, maxTok, count, seedValue, logprobs, topLogprobs, responseSchema, schemaName, caller);
    }

    public ChatRequest withLogprobs(boolean on, int top) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, on, top, responseSchema, schemaName, caller);
    }

    public ChatRequest withSchema(String name, JsonNode schema) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, logprobs, topLogprobs, schema, name, caller);
    }

    public ChatRequest withMessages(List<ChatMessage> newMessages) {
        return new ChatRequest(newMessages, temperature, maxTokens, n, seed, logprobs, topLogprobs, responseSchema, schemaName, caller);
    }

    /** This request, marked as agent {@code agent}'s call in round {@code round}. */
    public ChatRequest from(String agent, int round) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, logprobs, topLogprobs, responseSchema, schemaName,
                new Caller(agent, round));
    }
}
