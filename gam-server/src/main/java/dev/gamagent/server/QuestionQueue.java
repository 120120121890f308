package dev.gamagent.server;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;

/**
 * The questions {@code gam serve} answers at once ({@code server.max_in_flight}) and the bounded line of those
 * waiting for one of them ({@code server.max_queued}, first come first served, each for at most
 * {@code server.queue_timeout_s}), as vLLM and the OpenAI API queue a burst instead of refusing it. A waiting
 * question whose client has gone away leaves the line. Only a full line or a wait past the timeout is refused (429).
 */
final class QuestionQueue {
    /** How often a waiting question looks whether its client is still there. */
    private static final long LOOK_MILLIS = 200;

    private final int slots;
    private final int maxWaiting;
    private final Duration timeout;
    private final int retryAfterSeconds;
    private final Deque<Waiter> line = new ArrayDeque<>();
    private int free;

    private static final class Waiter {
        boolean granted;
    }

    QuestionQueue(int slots, int maxWaiting, Duration timeout, int retryAfterSeconds) {
        this.slots = slots;
        this.maxWaiting = maxWaiting;
        this.timeout = timeout;
        this.retryAfterSeconds = retryAfterSeconds;
        this.free = slots;
    }

    /** One taken slot; {@link #close()} gives it to the next in line (idempotent). */
    final class Slot implements AutoCloseable {
        private boolean released;

        @Override public void close() {
            synchronized (QuestionQueue.this) {
                if (released) return;
                released = true;
                Waiter next = line.pollFirst();
                if (next != null) next.granted = true;
                else free++;
                QuestionQueue.this.notifyAll();
            }
        }
    }

    /**
     * Takes a slot, at once or after waiting in line. Returns null when the client went away while waiting.
     *
     * @throws ApiError 429 when the line is full or the wait took longer than the timeout
     */
    synchronized Slot take(BooleanSupplier clientGone) {
        if (free > 0 && line.isEmpty()) {
            free--;
            return new Slot();
        }
        if (line.size() >= maxWaiting) {
            throw busy("the server is answering " + questions(slots) + " (server.max_in_flight) and its line of " + questions(maxWaiting)
                    + " waiting is full (server.max_queued)");
        }
        Waiter me = new Waiter();
        line.addLast(me);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!me.granted) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    line.remove(me);
                    throw busy("this question waited in line for " + timeout.toSeconds() + " s (server.queue_timeout_s) and none of the "
                            + questions(slots) + " being answered finished (server.max_in_flight)");
                }
                wait(Math.max(1, Math.min(LOOK_MILLIS, left / 1_000_000)));
                if (!me.granted && clientGone.getAsBoolean()) {
                    line.remove(me);
                    return null;
                }
            }
            return new Slot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (me.granted) return new Slot(); // ours already: the caller closes it
            line.remove(me);
            throw busy("the server is stopping");
        }
    }

    /** Questions waiting now. */
    synchronized int waiting() { return line.size(); }

    private static String questions(int n) { return n + (n == 1 ? " question" : " questions"); }

    private ApiError busy(String why) {
        return new ApiError(429, "rate_limit_error", "too_many_questions_in_flight", why + "; retry in " + retryAfterSeconds + " s",
                retryAfterSeconds);
    }
}
