package dev.gamagent.eval.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;

import java.util.Map;

/**
 * The tests' one way to build a {@link ResultRecord}: {@code Records.record("q1", "gam").outcome("correct")...build()},
 * every field not set left null, 0 or false. Shared with gam-cli's and gam-server's tests through gam-eval's test-jar.
 */
public final class Records {
    private Records() { }

    /** A record of question {@code id} answered by {@code method}. */
    public static Builder record(String id, String method) { return new Builder(id, method); }

    /** A builder holding every field of {@code r}, to change a few. */
    public static Builder from(ResultRecord r) {
        ResultRecord.QuestionRef q = r.question();
        ResultRecord.Graded g = r.grade();
        ResultRecord.Cost c = r.cost();
        ResultRecord.TraceRef t = r.trace();
        return record(q.id(), r.method()).group(q.group()).rotation(q.rotation()).category(q.category())
                .l2Category(q.l2Category()).groundTruth(q.groundTruth()).outcome(g.outcome()).predicted(g.predicted())
                .answer(g.answer()).option(g.option()).confidence(g.confidence()).uncertainty(g.uncertainty())
                .rule(g.rule()).error(g.error()).promptTokens(c.promptTokens()).completionTokens(c.completionTokens())
                .tokensEstimated(c.tokensEstimated()).calls(c.calls()).millis(c.millis()).backend(c.backend())
                .backends(c.backends()).cachedPromptTokens(c.cachedPromptTokens()).rounds(t.rounds()).termination(t.termination()).trace(t.json());
    }

    /** The fields of a record, set one by one. */
    public static final class Builder {
        private String id;
        private String group;
        private int rotation;
        private String method;
        private String category;
        private String l2Category;
        private String outcome;
        private String predicted;
        private String groundTruth;
        private String answer;
        private String option;
        private double confidence;
        private double uncertainty;
        private int rounds;
        private String termination;
        private long promptTokens;
        private long completionTokens;
        private boolean tokensEstimated;
        private int calls;
        private long millis;
        private String rule;
        private String error;
        private String backend;
        private Map<String, UsageMeter.Tally> backends;
        private Long cachedPromptTokens;
        private JsonNode trace;

        private Builder(String id, String method) {
            this.id = id;
            this.method = method;
        }

        public Builder id(String v) { id = v; return this; }
        public Builder method(String v) { method = v; return this; }
        public Builder group(String v) { group = v; return this; }
        public Builder rotation(int v) { rotation = v; return this; }
        public Builder category(String v) { category = v; return this; }
        public Builder l2Category(String v) { l2Category = v; return this; }
        public Builder outcome(String v) { outcome = v; return this; }
        public Builder predicted(String v) { predicted = v; return this; }
        public Builder groundTruth(String v) { groundTruth = v; return this; }
        public Builder answer(String v) { answer = v; return this; }
        public Builder option(String v) { option = v; return this; }
        public Builder confidence(double v) { confidence = v; return this; }
        public Builder uncertainty(double v) { uncertainty = v; return this; }
        public Builder rounds(int v) { rounds = v; return this; }
        public Builder termination(String v) { termination = v; return this; }
        public Builder promptTokens(long v) { promptTokens = v; return this; }
        public Builder completionTokens(long v) { completionTokens = v; return this; }
        public Builder tokensEstimated(boolean v) { tokensEstimated = v; return this; }
        public Builder calls(int v) { calls = v; return this; }
        public Builder millis(long v) { millis = v; return this; }
        public Builder rule(String v) { rule = v; return this; }
        public Builder error(String v) { error = v; return this; }
        public Builder backend(String v) { backend = v; return this; }
        public Builder backends(Map<String, UsageMeter.Tally> v) { backends = v; return this; }
        public Builder cachedPromptTokens(Long v) { cachedPromptTokens = v; return this; }
        public Builder trace(JsonNode v) { trace = v; return this; }

        public ResultRecord build() {
            return ResultRecord.of(new ResultRecord.QuestionRef(id, group, rotation, category, l2Category, groundTruth), method,
                    new ResultRecord.Graded(outcome, predicted, answer, option, confidence, uncertainty, rule, error),
                    new ResultRecord.Cost(promptTokens, completionTokens, tokensEstimated, calls, millis, backend, backends, cachedPromptTokens),
                    new ResultRecord.TraceRef(rounds, termination, trace));
        }
    }
}
