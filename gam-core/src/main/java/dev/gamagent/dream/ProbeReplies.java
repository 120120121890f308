package dev.gamagent.dream;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.TokenCount;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Probe replies the inner method takes as its round-0 answers (docs/design.md §7): a probe whose request is exactly an
 * agent's round-0 request — the same agent, prompt, pictures (the same scaled copies) and sampling — is that agent's
 * round-0 answer, not a second identical call (StaticAll at the base scale, PerAgent at the agent's own scale). The
 * inner method's backends are wrapped: a round-0 request equal to a kept probe's gets the probe's reply, once; anything
 * else goes to the backend. Requests compare as records: text by value, pictures by identity (each scaled size of a
 * picture is one shared object), so no image is hashed.
 */
final class ProbeReplies {
    private record Held(String probe, ChatResult result) { }

    private final Map<ChatRequest, Held> held = new ConcurrentHashMap<>();
    private final Map<String, TokenCount> reused = new ConcurrentHashMap<>();

    /** Keeps probe {@code probe}'s reply to {@code request} (a request naming its agent and round 0) for the inner method. */
    void keep(String probe, ChatRequest request, ChatResult result) {
        if (request.caller() != null && request.caller().round() == 0) held.putIfAbsent(request, new Held(probe, result));
    }

    /** Whether the inner method took probe {@code probe}'s reply as a round-0 answer. */
    boolean reused(String probe) { return reused.containsKey(probe); }

    /** The tokens of the probe replies the inner method took (counted in its round 0, not in the probe round). */
    TokenCount reusedTokens() { return reused.values().stream().reduce(TokenCount.ZERO, TokenCount::plus); }

    int reusedCalls() { return reused.size(); }

    Set<String> reusedProbes() { return Set.copyOf(reused.keySet()); }

    /** {@code backend} as the inner method sees it: kept probe replies first, for round-0 requests. */
    Backend over(Backend backend) {
        return new Backend() {
            @Override public String name() { return backend.name(); }

            @Override public Capabilities capabilities() { return backend.capabilities(); }

            @Override public ChatResult chat(ChatRequest request) {
                if (request.caller() != null && request.caller().round() == 0 && !held.isEmpty()) {
                    Held h = held.remove(request);
                    if (h != null) {
                        reused.put(h.probe(), h.result().usage() == null ? TokenCount.ZERO : h.result().usage().toTokenCount());
                        return h.result();
                    }
                }
                return backend.chat(request);
            }

            /** The wrapped backend is the caller's; closing DREAM's view of it must not close it. */
            @Override public void close() { }
        };
    }
}
