package dev.gamagent.dream;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.uncertainty.Anll;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Passes every request through to the real backend and remembers the ANLL uncertainty of each reply by
 * its text, so rollback can use DREAM's own signal (DREAM §3.2 tracks ANLL over rounds) for any inner
 * method, matched to the trace's {@code raw} replies, without knowing the method's classes.
 */
final class AnllRecorder implements Backend {
    private final Backend delegate;
    private final Map<String, Double> byText;

    AnllRecorder(Backend delegate) { this(delegate, new ConcurrentHashMap<>()); }

    private AnllRecorder(Backend delegate, Map<String, Double> shared) {
        this.delegate = delegate;
        this.byText = shared;
    }

    /** Another backend (an agent's own, in a mixed panel) recorded into the same memory. */
    AnllRecorder alongside(Backend other) { return new AnllRecorder(other, byText); }

    @Override public String name() { return delegate.name(); }

    @Override public Capabilities capabilities() { return delegate.capabilities(); }

    @Override public ChatResult chat(ChatRequest request) {
        ChatResult r = delegate.chat(request);
        for (Choice c : r.choices()) {
            if (c.hasLogprobs()) byText.put(c.text(), Anll.uncertainty(c.logprobs()));
        }
        return r;
    }

    /** The ANLL uncertainty of a reply with exactly this text, or null when none was seen (or it had no log-probs). */
    Double uncertainty(String replyText) { return replyText == null ? null : byText.get(replyText); }

    /** The wrapped backend is the caller's; closing DREAM's view of it must not close it. */
    @Override public void close() { }
}
