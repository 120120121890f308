package dev.gamagent.cli;

import dev.gamagent.eval.store.ResultRecord;

import java.util.List;

/** What one method's answered questions of a run took: calls, prompt and completion tokens, time, answers (errors left out). */
record MethodUsage(long calls, long promptTokens, long completionTokens, long millis, int answers) {
    static MethodUsage of(String method, List<ResultRecord> records) {
        long calls = 0, prompt = 0, completion = 0, millis = 0;
        int answers = 0;
        for (ResultRecord x : records) {
            if (!x.method().equals(method) || x.isError()) continue;
            calls += x.cost().calls();
            prompt += x.cost().promptTokens();
            completion += x.cost().completionTokens();
            millis += x.cost().millis();
            answers++;
        }
        return new MethodUsage(calls, prompt, completion, millis, answers);
    }
}
