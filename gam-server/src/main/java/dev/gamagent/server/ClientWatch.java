package dev.gamagent.server;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Whether the client of a running question is still there, and the backends its method runs on: every backend call
 * asks first, so once the client has left (its connection closed, or a streamed event could not be written) the
 * debate's remaining calls are not made — each fails at once with {@link ClientLeft}, as an unreachable backend's
 * would, and the method ends without spending them. The server then logs the question as 499 (nginx's "client closed
 * request"), with how many calls were made and how many were not.
 */
final class ClientWatch {
    /** How often the connection is looked at, at most: a round's agents ask together. */
    private static final long POLL_NANOS = 50_000_000L;

    private final BooleanSupplier connectionClosed;
    private final BooleanSupplier streamBroken;
    private final AtomicInteger made = new AtomicInteger();
    private final AtomicInteger notMade = new AtomicInteger();
    private volatile boolean left;
    private long polled = System.nanoTime() - POLL_NANOS;

    /**
     * @param connectionClosed whether the client's connection is closed (a look at the socket)
     * @param streamBroken     whether writing a streamed event failed
     */
    ClientWatch(BooleanSupplier connectionClosed, BooleanSupplier streamBroken) {
        this.connectionClosed = connectionClosed;
        this.streamBroken = streamBroken;
    }

    /** Whether the client has left; looks at the connection at most every 50 ms, unless {@code now}. */
    boolean left(boolean now) {
        if (left) return true;
        synchronized (this) {
            if (left) return true;
            long t = System.nanoTime();
            if (streamBroken.getAsBoolean() || (now || t - polled >= POLL_NANOS) && closed(t)) left = true;
            return left;
        }
    }

    private boolean closed(long t) {
        polled = t;
        return connectionClosed.getAsBoolean();
    }

    /** Backend calls made for this question. */
    int made() { return made.get(); }

    /** Backend calls not made because the client had left. */
    int notMade() { return notMade.get(); }

    /** {@code backend}, each call made only while the client is there. */
    Backend guard(Backend backend) { return new Guarded(backend); }

    /** {@code resolver}'s backends, guarded. */
    BackendResolver guard(BackendResolver resolver) { return name -> guard(resolver.resolve(name)); }

    /** A backend call refused because the question's client has left. */
    static final class ClientLeft extends RuntimeException {
        ClientLeft() { super("the client closed the connection; the call was not made", null, false, false); }
    }

    private final class Guarded implements Backend {
        private final Backend inner;

        Guarded(Backend inner) { this.inner = inner; }

        @Override public String name() { return inner.name(); }

        @Override public Capabilities capabilities() { return inner.capabilities(); }

        @Override public ChatResult chat(ChatRequest request) {
            if (left(false)) {
                notMade.incrementAndGet();
                throw new ClientLeft();
            }
            made.incrementAndGet();
            return inner.chat(request);
        }

        @Override public Backend withOwnCaches() { return guard(inner.withOwnCaches()); }

        @Override public void close() { } // the server's backends outlive the question
    }
}
