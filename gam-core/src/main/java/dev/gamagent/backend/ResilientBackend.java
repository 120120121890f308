package dev.gamagent.backend;


import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import static java.lang.System.Logger.Level.WARNING;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * Retries and a concurrency limit around a backend. Retries ConnectionFailed, Timeout, 408/409/429,
 * 5xx and MalformedResponse (see {@link RetryPolicy}); each retry is logged at WARN and reported to an
 * optional listener; after the last try the typed error is thrown. The per-request timeout is the
 * inner HTTP backend's ({@link EndpointSettings#timeout()}), so each try gets the full timeout. Every call's
 * first try goes at once; when tries fail before the endpoint has answered, one call retries and the others
 * wait for it ({@link ReachabilityGate}), so a dead server costs one call's retries, not one per parallel agent.
 */
final class ResilientBackend implements Backend {
    private static final System.Logger LOG = System.getLogger(ResilientBackend.class.getName());

    /** One retry about to happen: which try failed, why, and how long we wait. */
    public record RetryEvent(int retry, int maxRetries, BackendException cause, Duration delay, String endpoint) { }

    private final Backend inner;
    private final RetryPolicy policy;
    private final Semaphore permits;
    private final String endpoint;
    private final Consumer<RetryEvent> listener;
    private final int maxConcurrent;
    private final java.util.concurrent.atomic.AtomicBoolean capReported = new java.util.concurrent.atomic.AtomicBoolean();
    private final ReachabilityGate gate = new ReachabilityGate();

    /**
     * @param endpoint      where requests go, for log lines (no key)
     * @param maxConcurrent requests in flight at once through this wrapper
     */
    public ResilientBackend(Backend inner, RetryPolicy policy, int maxConcurrent, String endpoint, Consumer<RetryEvent> listener) {
        this.inner = inner;
        this.policy = policy;
        this.maxConcurrent = Math.max(1, maxConcurrent);
        this.permits = new Semaphore(this.maxConcurrent, true);
        this.endpoint = endpoint == null ? inner.name() : endpoint;
        this.listener = listener == null ? e -> { } : listener;
    }

    public ResilientBackend(Backend inner, RetryPolicy policy, int maxConcurrent, String endpoint) {
        this(inner, policy, maxConcurrent, endpoint, null);
    }

    @Override public String name() { return inner.name(); }

    @Override public Capabilities capabilities() { return inner.capabilities(); }

    public Backend inner() { return inner; }

    @Override public ChatResult chat(ChatRequest request) {
        ReachabilityGate.Ticket ticket = gate.enter(endpoint);
        try {
            if (!permits.tryAcquire()) {
                if (!capReported.getAndSet(true)) {
                    LOG.log(WARNING, "requests to " + endpoint + " wait for a free slot: " + maxConcurrent + " are in flight, the limit "
                            + "--max-concurrent sets; raise it (or leave it out) to send more at once");
                }
                permits.acquire();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException.ConnectionFailed("interrupted while waiting for a free slot to " + endpoint, e);
        }
        boolean probe = false;
        boolean settled = false;
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    ChatResult r = inner.chat(request);
                    gate.answered(probe);
                    settled = true;
                    return r;
                } catch (BackendException e) {
                    if (!probe) {
                        // until the endpoint has answered, one failed call finds out for all; the others wait for it
                        ReachabilityGate.Role role = gate.failed(e, endpoint, ticket);
                        if (role == ReachabilityGate.Role.PROBE) probe = true;
                        else if (role == ReachabilityGate.Role.RETRY_NOW) continue; // the endpoint just answered another call
                    }
                    if (!e.retryable() || attempt >= policy.maxRetries()) {
                        gate.gaveUp(probe, e);
                        settled = true;
                        throw e;
                    }
                    int retry = attempt + 1;
                    Duration wait = policy.delay(retry, retryAfter(e), ThreadLocalRandom.current().nextDouble());
                    LOG.log(WARNING, "retry " + retry + "/" + policy.maxRetries() + " after " + reason(e) + " from " + endpoint + " in " + seconds(wait));
                    listener.accept(new RetryEvent(retry, policy.maxRetries(), e, wait, endpoint));
                    sleep(wait, e);
                }
            }
        } finally {
            if (!settled) gate.abandoned(probe);
            permits.release();
        }
    }

    private static Duration retryAfter(BackendException e) {
        return e instanceof BackendException.RetryLater r ? r.retryAfter() : null;
    }

    static String reason(BackendException e) {
        if (e instanceof BackendException.RetryLater r) return Integer.toString(r.status());
        if (e instanceof BackendException.Timeout) return "timeout";
        if (e instanceof BackendException.ConnectionFailed) return "connection failure";
        if (e instanceof BackendException.MalformedResponse) return "malformed response";
        return e.getClass().getSimpleName();
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    private static void sleep(Duration d, BackendException cause) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw cause;
        }
    }

    @Override public void close() { inner.close(); }
}
