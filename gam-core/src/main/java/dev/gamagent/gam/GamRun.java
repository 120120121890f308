package dev.gamagent.gam;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.engine.AnswerSampler;
import dev.gamagent.engine.ParallelCalls;
import dev.gamagent.engine.PromptText;
import dev.gamagent.engine.Prompts;
import dev.gamagent.influence.Similarity;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.UncertaintyEstimator;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One question's gam run as its parts share it: the question, the run context, the settings and prompts, and what the
 * run has spent so far (calls, prompt and completion tokens). One instance per run (it holds the run's counters).
 */
final class GamRun {
    final Question q;
    final RunContext ctx;
    final GamSettings s;
    final Similarity similarity;
    final UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
    final AnswerSampler sampler;
    final GamPrompts prompts;
    final List<String> letters;
    /** {@code trace.prompts}: each round's extra holds what every expert and critic was asked, as text. */
    final boolean recordPrompts;
    private final AtomicLong promptTokens = new AtomicLong(), completionTokens = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean tokensEstimated;
    /** Prompt tokens the servers reported cached; stays null until a server reports a count. */
    private final AtomicReference<Long> cachedTokens = new AtomicReference<>();
    private final long t0 = System.nanoTime();

    GamRun(Question q, RunContext ctx, GamSettings settings, Similarity similarity) {
        this.q = q;
        this.ctx = ctx;
        this.s = settings;
        this.similarity = similarity;
        this.prompts = new GamPrompts(new Prompts(ctx.config()), q, AgentImages.note(ctx), dev.gamagent.engine.RequestLayout.of(ctx.config()));
        this.letters = List.copyOf(q.options().keySet());
        this.sampler = new AnswerSampler(settings.fallback(), estimator.semantic());
        this.recordPrompts = PromptText.enabled(ctx.config());
    }

    /** Counts one call and its tokens; returns the tokens. */
    TokenCount count(ChatResult r) {
        calls.incrementAndGet();
        TokenCount t = r.usage() == null ? TokenCount.ZERO : r.usage().toTokenCount();
        promptTokens.addAndGet(t.prompt());
        completionTokens.addAndGet(t.completion());
        if (t.estimated()) tokensEstimated = true;
        if (t.cached() != null) cachedTokens.accumulateAndGet(t.cached(), TokenCount::sum);
        return t;
    }

    long tokens() { return promptTokens.get() + completionTokens.get(); }

    int calls() { return calls.get(); }

    /** The tokens spent so far, estimated when any call's were. */
    TokenCount tokenCount() { return new TokenCount(promptTokens.get(), completionTokens.get(), tokensEstimated, cachedTokens.get()); }

    /** Milliseconds since the run started. */
    long millis() { return (System.nanoTime() - t0) / 1_000_000; }

    /** A greedy request of one user message with these images, with a JSON schema when {@code schema} is given. */
    ChatRequest request(String prompt, List<Picture> images, String schemaName, JsonNode schema) {
        return request(s, prompt, images, schemaName, schema);
    }

    static ChatRequest request(GamSettings s, String prompt, List<Picture> images, String schemaName, JsonNode schema) {
        Sampling sampling = Sampling.greedy(s.maxTokens(), s.topLogprobs());
        ChatRequest r = sampling.request(List.of(ChatMessage.user(prompt, images)));
        return schema == null ? r : r.withSchema(schemaName, schema);
    }

    /** Runs the jobs in parallel on the run's executor ({@link ParallelCalls}), results in the jobs' order. */
    <T> List<T> all(List<Callable<T>> jobs) {
        return ParallelCalls.all(ctx.executor(), jobs, "gam run on question " + q.id() + " was interrupted",
                c -> new IllegalStateException("gam agent task failed on question " + q.id() + ": " + c, c));
    }
}
