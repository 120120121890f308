package dev.gamagent.backend.internal;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;

/** Sampling and log-prob settings of a request, without its messages (what a method configures per agent). */
public record Sampling(double temperature, int maxTokens, int n, Long seed, boolean logprobs, int topLogprobs) {
    public static Sampling greedy(int maxTokens, int topLogprobs) {
        return new Sampling(0.0, maxTokens, 1, null, true, topLogprobs);
    }

    public Sampling withN(int count, double temp) { return new Sampling(temp, maxTokens, count, seed, logprobs, topLogprobs); }

    public ChatRequest request(java.util.List<ChatMessage> messages) {
        return new ChatRequest(messages, temperature, maxTokens, n, seed, logprobs, topLogprobs, null, null);
    }
}
