package dev.gamagent.server;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The bytes of heap that {@code gam serve}'s requests may hold together ({@code server.request_memory_fraction} of the
 * heap): their bodies while they are read and parsed, then their images, the copies sent to the model and the pixels
 * the methods decode ({@link RequestCost} estimates each from what is known at that point). A request reserves
 * before it holds: its body's cost before the body is read, its images' cost before it waits for a slot. A
 * reservation that does not fit waits, first come first served, until others give bytes back or the wait passes
 * {@code server.queue_timeout_s} (at most {@code server.max_queued} new bodies wait; more are refused at once); then it is refused with 503 {@code server_out_of_memory} and Retry-After, so a burst of
 * large images queues or is refused in words instead of exhausting the heap. A request that needs more than the whole
 * budget waits until it can have the server to itself.
 */
final class MemoryBudget {
    private final long budget;
    private final long heap;
    private final java.time.Duration patience;
    private final int maxWaiting;
    private final int retryAfterSeconds;
    /** Requests whose images were read and who wait to reserve their cost: served before new bodies, see {@link Reservation#settle}. */
    private final Deque<Object> settling = new ArrayDeque<>();
    private final Deque<Object> arriving = new ArrayDeque<>();
    private long reserved;
    private long refused;

    /**
     * @param budget the bytes requests may hold together
     * @param heap     the heap's size, for messages
     * @param patience how long a request waits for bytes ({@code server.queue_timeout_s}), for messages
     * @param maxWaiting new bodies that may wait for bytes at once ({@code server.max_queued}): each holds a thread
     */
    MemoryBudget(long budget, long heap, java.time.Duration patience, int maxWaiting, int retryAfterSeconds) {
        if (budget <= 0) throw new IllegalArgumentException("a memory budget needs a positive number of bytes, got " + budget);
        this.budget = budget;
        this.heap = heap;
        this.patience = patience;
        this.maxWaiting = maxWaiting;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    long budget() { return budget; }

    /** Bytes reserved by all requests now. */
    synchronized long reserved() { return reserved; }

    /** Requests waiting for bytes now. */
    synchronized int waiting() { return settling.size() + arriving.size(); }

    /** Requests refused so far because their bytes did not fit in time. */
    synchronized long refused() { return refused; }

    /** A new request's reservation, holding nothing yet. */
    Reservation reservation() { return new Reservation(); }

    /** The bytes one request holds; closing gives them back (idempotent). */
    final class Reservation implements AutoCloseable {
        private long held;

        long held() {
            synchronized (MemoryBudget.this) {
                return held;
            }
        }

        /**
         * Reserves {@code bytes} for a request that holds nothing yet (its body, before it is read), waiting behind
         * earlier requests until they fit or {@code deadlineNanos} ({@link System#nanoTime}) passes.
         *
         * @throws ApiError 503 {@code server_out_of_memory} when the wait ends first
         */
        void admit(long bytes, String what, long deadlineNanos) {
            synchronized (MemoryBudget.this) {
                if (arriving.isEmpty() && settling.isEmpty() && fits(bytes)) {
                    reserved += bytes;
                    held += bytes;
                    return;
                }
                if (arriving.size() >= maxWaiting) {
                    refused++;
                    throw full(what, bytes, maxWaiting + " requests already wait for memory (server.max_queued)");
                }
            }
            waitFor(arriving, bytes, what, deadlineNanos);
        }

        /**
         * Sets this request's reservation to {@code bytes} (its images, the copies sent and the pixels decoded), for the
         * rest of its life. Less than it holds gives the difference back at once. More is waited for ahead of new bodies;
         * meanwhile what it holds is given back, so requests waiting here never hold bytes that another waits for (no two
         * can block each other), and new bodies are not read while they wait (what they hold stays within what they
         * reserved before).
         */
        void settle(long bytes, String what, long deadlineNanos) {
            synchronized (MemoryBudget.this) {
                if (bytes <= held) {
                    give(held - bytes);
                    return;
                }
                // given back and queued in one step: no new body can take what this request gives back meanwhile
                give(held);
                waitFor(settling, bytes, what, deadlineNanos);
            }
        }

        /**
         * Adds {@code bytes} now (a remote image arriving) or refuses at once: a transfer under way is not held open
         * to wait.
         *
         * @throws ApiError 503 {@code server_out_of_memory} when they do not fit
         */
        void grow(long bytes, String what) {
            synchronized (MemoryBudget.this) {
                if (reserved + bytes > budget && !(reserved == held && settling.isEmpty() && arriving.isEmpty())) {
                    refused++;
                    throw full(what, bytes, "none was free");
                }
                reserved += bytes;
                held += bytes;
            }
        }

        @Override public void close() {
            synchronized (MemoryBudget.this) {
                give(held);
            }
        }

        private void give(long bytes) {
            held -= bytes;
            reserved -= bytes;
            if (bytes > 0) MemoryBudget.this.notifyAll();
        }

        private void waitFor(Deque<Object> line, long bytes, String what, long deadlineNanos) {
            Object me = new Object();
            synchronized (MemoryBudget.this) {
                line.addLast(me);
                try {
                    while (!(first(me) && fits(bytes))) {
                        long left = deadlineNanos - System.nanoTime();
                        if (left <= 0) {
                            refused++;
                            throw full(what, bytes, "none was given back within " + patience.toSeconds() + " s (server.queue_timeout_s)");
                        }
                        MemoryBudget.this.wait(Math.max(1, Math.min(200, left / 1_000_000)));
                    }
                    reserved += bytes;
                    held += bytes;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ApiError(503, "server_error", "server_out_of_memory", what + ": the server is stopping", retryAfterSeconds);
                } finally {
                    line.remove(me);
                    MemoryBudget.this.notifyAll(); // the next in line may fit now
                }
            }
        }
    }

    /** Whether {@code me} is next: the first of the requests settling, else (none settling) the first new body. */
    private boolean first(Object me) {
        Object head = settling.isEmpty() ? arriving.peekFirst() : settling.peekFirst();
        return head == me;
    }

    /** Whether {@code bytes} more fit, or the server holds nothing else (a request larger than the budget runs alone). */
    private boolean fits(long bytes) { return reserved + bytes <= budget || reserved == 0; }

    private ApiError full(String what, long bytes, String why) {
        return new ApiError(503, "server_error", "server_out_of_memory", String.format(Locale.ROOT,
                "not enough memory for %s now: it needs about %s and requests already hold %s of the %s this server gives them "
                        + "(%s of a %s heap, config server.request_memory_fraction); %s. Retry in %d s, send smaller images, or give "
                        + "the server a larger heap (GAM_JAVA_OPTS=-Xmx...)", what, mb(bytes), mb(reserved), mb(budget),
                fraction(), mb(heap), why, retryAfterSeconds), retryAfterSeconds);
    }

    private String fraction() { return String.format(Locale.ROOT, "%.2f", budget / (double) heap); }

    static String mb(long bytes) { return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024)); }
}
