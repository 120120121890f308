package dev.gamagent.backend;


import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.System.Logger.Level.WARNING;

/**
 * Several endpoints serving one model: each request goes to the endpoint with the fewest requests in
 * flight, skipping endpoints that failed to connect within the last {@code cooldown} (when all have,
 * the one that failed longest ago). Wrap it in {@link ResilientBackend} so a retry lands elsewhere.
 */
final class LoadBalancedBackend implements Backend {
    private static final System.Logger LOG = System.getLogger(LoadBalancedBackend.class.getName());

    private record Slot(Backend backend, String endpoint, AtomicInteger inFlight, AtomicLong failedAtNanos, AtomicLong served,
                        java.util.concurrent.Semaphore permits) { }

    private final List<Slot> slots = new ArrayList<>();
    private final long cooldownNanos;
    private int next; // rotates the start of the scan so ties are broken round-robin

    /**
     * @param endpoints      the backends' URLs (for logs), in the same order
     * @param maxConcurrent  requests in flight per endpoint
     */
    public LoadBalancedBackend(List<Backend> backends, List<String> endpoints, Duration cooldown, int maxConcurrent) {
        if (backends.isEmpty()) throw new IllegalArgumentException("load balancing needs at least one endpoint");
        for (int i = 0; i < backends.size(); i++) {
            slots.add(new Slot(backends.get(i), i < endpoints.size() ? endpoints.get(i) : backends.get(i).name(),
                    new AtomicInteger(), new AtomicLong(Long.MIN_VALUE), new AtomicLong(),
                    new java.util.concurrent.Semaphore(Math.max(1, maxConcurrent), true)));
        }
        this.cooldownNanos = cooldown.toNanos();
    }

    @Override public String name() { return slots.get(0).backend().name(); }

    /** Log-probs only when every endpoint gives them; top-k is the smallest limit. */
    @Override public Capabilities capabilities() {
        Capabilities c = slots.get(0).backend().capabilities();
        for (Slot s : slots) {
            Capabilities o = s.backend().capabilities();
            boolean lp = c.logprobs() && o.logprobs();
            c = c.withLogprobs(lp, Math.min(c.maxTopLogprobs(), o.maxTopLogprobs()));
        }
        return c;
    }

    /** Requests answered per endpoint, in the order given. */
    public List<Long> servedCounts() { return slots.stream().map(s -> s.served().get()).toList(); }

    @Override public ChatResult chat(ChatRequest request) {
        Slot s = pick();
        s.inFlight().incrementAndGet();
        try {
            s.permits().acquire();
        } catch (InterruptedException e) {
            s.inFlight().decrementAndGet();
            Thread.currentThread().interrupt();
            throw new BackendException.ConnectionFailed("interrupted while waiting for a free slot to " + s.endpoint(), e);
        }
        try {
            ChatResult r = s.backend().chat(request);
            s.served().incrementAndGet();
            return r;
        } catch (BackendException.ConnectionFailed e) {
            s.failedAtNanos().set(System.nanoTime());
            LOG.log(WARNING, s.endpoint() + " failed to connect; sending requests to the other endpoints for " + cooldownNanos / 1_000_000 + " ms");
            throw e;
        } finally {
            s.permits().release();
            s.inFlight().decrementAndGet();
        }
    }

    private synchronized Slot pick() {
        long now = System.nanoTime();
        Slot best = null, oldestFailure = null;
        int start = next;
        next = (next + 1) % slots.size();
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get((start + i) % slots.size());
            long failed = s.failedAtNanos().get();
            boolean cooling = failed != Long.MIN_VALUE && now - failed < cooldownNanos;
            if (cooling) {
                if (oldestFailure == null || failed < oldestFailure.failedAtNanos().get()) oldestFailure = s;
                continue;
            }
            if (best == null || s.inFlight().get() < best.inFlight().get()) best = s;
        }
        return best != null ? best : oldestFailure;
    }

    @Override public void close() { for (Slot s : slots) s.backend().close(); }
}
