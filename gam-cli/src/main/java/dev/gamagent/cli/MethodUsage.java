package dev.gamagent.cli;

import dev.gamagent.eval.store.ResultRecord;

import java.util.List;

/**
 * What one method's answered questions of a run took: calls, prompt and completion tokens, time, answers (errors left
 * out); {@code cachedPromptTokens} of the prompt tokens the servers reported read from their cache (null: none reported).
 */
record MethodUsage(long calls, long promptTokens, long completionTokens, long millis, int answers, Long cachedPromptTokens) {
    static MethodUsage of(String method, List<ResultRecord> records) {
        long calls = 0, prompt = 0, completion = 0, millis = 0;
        Long cached = null;
        int answers = 0;
        for (ResultRecord x : records) {
            if (!x.method().equals(method) || x.isError()) continue;
            calls += x.cost().calls();
            prompt += x.cost().promptTokens();
            completion += x.cost().completionTokens();
            millis += x.cost().millis();
            cached = dev.gamagent.backend.TokenCount.sum(cached, x.cost().cachedPromptTokens());
            answers++;
        }
        return new MethodUsage(calls, prompt, completion, millis, answers, cached);
    }
}
