package dev.gamagent.backend;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts one run's calls and tokens per backend name ({@code default}, {@code local}, a configured name),
 * so a panel that mixes models can be charged per model. It wraps the backends a run resolves (see
 * {@code RunContext.metered}); one meter per run, shared by the run's threads.
 */
public final class UsageMeter {
    /**
     * What one backend was asked in one run; {@code backend} is its {@link Backend#name()}, {@code model} the server's name,
     * {@code cachedPromptTokens} the prompt tokens its server reported read from its cache (null when it reported none:
     * {@link Usage#cachedPromptTokens()}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Tally(String backend, String model, int calls, int failures, long promptTokens, long completionTokens,
                        boolean estimated, Long cachedPromptTokens) {
        /** A tally of a backend whose server reported no cached prompt tokens. */
        public Tally(String backend, String model, int calls, int failures, long promptTokens, long completionTokens, boolean estimated) {
            this(backend, model, calls, failures, promptTokens, completionTokens, estimated, null);
        }

        Tally plus(Backend b, ChatResult r) {
            Usage u = r.usage();
            return new Tally(b.name(), r.model() == null ? model : r.model(), calls + 1, failures,
                    promptTokens + (u == null ? 0 : u.promptTokens()), completionTokens + (u == null ? 0 : u.completionTokens()),
                    estimated || (u != null && u.estimated()), TokenCount.sum(cachedPromptTokens, u == null ? null : u.cachedPromptTokens()));
        }

        Tally failed(Backend b) {
            return new Tally(b.name(), model, calls, failures + 1, promptTokens, completionTokens, estimated, cachedPromptTokens);
        }

        public long totalTokens() { return promptTokens + completionTokens; }
    }

    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();
    private final Map<String, Backend> wrapped = new ConcurrentHashMap<>();

    /** {@code backend} counted under {@code label}; one wrapper per label (a run resolves a name to one backend). */
    public Backend wrap(String label, Backend backend) {
        return wrapped.computeIfAbsent(label, k -> new Metered(label, backend));
    }

    /** The tallies so far, by label, in label order. */
    public Map<String, Tally> tallies() {
        return new TreeMap<>(tallies);
    }

    private final class Metered implements Backend {
        private final String label;
        private final Backend inner;

        Metered(String label, Backend inner) {
            this.label = label;
            this.inner = inner;
        }

        @Override public String name() { return inner.name(); }

        @Override public Capabilities capabilities() { return inner.capabilities(); }

        @Override public ChatResult chat(ChatRequest request) {
            ChatResult r;
            try {
                r = inner.chat(request);
            } catch (RuntimeException e) {
                tallies.compute(label, (k, t) -> (t == null ? new Tally(inner.name(), null, 0, 0, 0, 0, false) : t).failed(inner));
                throw e;
            }
            tallies.compute(label, (k, t) -> (t == null ? new Tally(inner.name(), null, 0, 0, 0, 0, false) : t).plus(inner, r));
            return r;
        }

        // the meter does not own the backend: closing a run must not close the shared backend
        @Override public void close() { }
    }
}
