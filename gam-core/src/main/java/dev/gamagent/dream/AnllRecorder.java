package dev.gamagent.dream;

import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.uncertainty.Anll;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Passes every request through to the real backend and remembers the ANLL uncertainty of each reply by the
 * agent and round its request names ({@link ChatRequest#caller}), so rollback can use DREAM's own signal
 * (DREAM §3.2 tracks ANLL over rounds) for any inner method, matched to the trace's turns by id and k.
 * Keyed by reply text instead, identical replies of different agents or rounds would overwrite each other.
 */
final class AnllRecorder implements Backend {
    private final Backend delegate;
    private final Map<ChatRequest.Caller, Double> byTurn;

    AnllRecorder(Backend delegate) { this(delegate, new ConcurrentHashMap<>()); }

    private AnllRecorder(Backend delegate, Map<ChatRequest.Caller, Double> shared) {
        this.delegate = delegate;
        this.byTurn = shared;
    }

    /** Another backend (an agent's own, in a mixed panel) recorded into the same memory. */
    AnllRecorder alongside(Backend other) { return new AnllRecorder(other, byTurn); }

    @Override public String name() { return delegate.name(); }

    @Override public Capabilities capabilities() { return delegate.capabilities(); }

    @Override public ChatResult chat(ChatRequest request) {
        ChatResult r = delegate.chat(request);
        ChatRequest.Caller caller = request.caller();
        if (caller == null) return r;
        List<Choice> choices = r.choices();
        for (int i = 0; i < choices.size(); i++) {
            Choice c = choices.get(i);
            if (!c.hasLogprobs()) continue;
            // one request with several choices answers for id-1, id-2, ... (baseline.Panel#sample names them so)
            String id = choices.size() == 1 ? caller.agent() : caller.agent() + "-" + (i + 1);
            byTurn.put(new ChatRequest.Caller(id, caller.round()), Anll.uncertainty(c.logprobs()));
        }
        return r;
    }

    /** The ANLL uncertainty of the reply behind turn {@code t} of round {@code k}, or null when none was seen with log-probs. */
    Double uncertainty(int k, Trace.AgentTurn t) { return t == null ? null : byTurn.get(new ChatRequest.Caller(t.id(), k)); }

    /** The wrapped backend is the caller's; closing DREAM's view of it must not close it. */
    @Override public void close() { }
}
