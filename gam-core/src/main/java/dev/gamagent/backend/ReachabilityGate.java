package dev.gamagent.backend;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a dead endpoint from costing one set of retries per parallel call, without making a live one wait.
 * Every call makes its first try at once (the first round of a fresh process is as concurrent as any other).
 * When a try fails with an endpoint failure (connection refused or dropped, timeout, 5xx, refused credentials)
 * and the endpoint has not answered since it was last given up on, the first such call probes: it goes on with
 * its retries while the other failed calls, and calls that start meanwhile, wait for its verdict. If it gets an
 * answer they all go (a waiting call retries at once); if it gives up they fail at once with its error, so the
 * dead endpoint is named once and costs one call's retries. Once the endpoint has answered, a failed try is a
 * passing fault and each call retries on its own.
 */
final class ReachabilityGate {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition settled = lock.newCondition();
    /** An answer came back since a call last gave up on an endpoint failure. */
    private boolean known;
    private boolean probing;
    private long generation;
    private BackendException verdict;
    /** How many times the endpoint came up (an answer after it was not known to be up). */
    private long ups;

    /** What a call saw when it entered: probes finished, and times the endpoint came up. */
    static final class Ticket {
        private final long cohort;
        private long upsSeen;

        private Ticket(long cohort, long upsSeen) {
            this.cohort = cohort;
            this.upsSeen = upsSeen;
        }
    }

    /** What a call does after a failed try: probe (retry as usual), retry now (the probe got through), or go on alone. */
    enum Role { PROBE, RETRY_NOW, ALONE }

    /**
     * Before a call's first try: waits while another call is finding out whether the endpoint is up, and throws
     * that call's failure; returns what the call saw, for {@link #failed}.
     */
    Ticket enter(String endpoint) {
        lock.lock();
        try {
            if (probing) awaitVerdict(endpoint);
            return new Ticket(generation, ups);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A try of a call that entered with {@code ticket} failed with {@code e}: what the call does next. It may wait for
     * another call's probe and throw its failure; a call already under way when a probe gave up takes that verdict
     * instead of probing again; a call whose try failed while the endpoint came up retries at once.
     */
    Role failed(BackendException e, String endpoint, Ticket ticket) {
        if (!isEndpointDown(e)) return Role.ALONE;
        lock.lock();
        try {
            if (known && ups > ticket.upsSeen) {
                ticket.upsSeen = ups; // once: a second failure is this call's own
                return Role.RETRY_NOW;
            }
            if (known) return Role.ALONE;
            if (!probing && generation > ticket.cohort && verdict != null) throw verdict;
            if (!probing) {
                probing = true;
                return Role.PROBE;
            }
            awaitVerdict(endpoint);
            ticket.upsSeen = ups;
            return Role.RETRY_NOW;
        } finally {
            lock.unlock();
        }
    }

    private void awaitVerdict(String endpoint) {
        long seen = generation;
        while (probing && generation == seen) {
            try {
                settled.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new BackendException.ConnectionFailed("interrupted while waiting to learn whether " + endpoint + " is up", ie);
            }
        }
        if (generation != seen && verdict != null) throw verdict;
    }

    /** A call got an answer (any HTTP answer, even a refusal): the endpoint is up. */
    void answered(boolean probe) {
        lock.lock();
        try {
            if (!known) ups++;
            known = true;
            if (probe) finish(null);
        } finally {
            lock.unlock();
        }
    }

    /** A call gave up; an endpoint failure makes the next failed try probe again. */
    void gaveUp(boolean probe, BackendException e) {
        lock.lock();
        try {
            boolean down = isEndpointDown(e);
            if (down) known = false;
            if (probe) finish(down ? e : null);
        } finally {
            lock.unlock();
        }
    }

    /** The probing call ended without a verdict (an unexpected exception): waiting calls go on and find out themselves. */
    void abandoned(boolean probe) {
        lock.lock();
        try {
            if (probe && probing) finish(null);
        } finally {
            lock.unlock();
        }
    }

    private void finish(BackendException failure) {
        probing = false;
        generation++;
        verdict = failure;
        settled.signalAll();
    }

    /** Failures that say nothing answered (or nothing will, with this key), as opposed to a refusal of this request. */
    static boolean isEndpointDown(BackendException e) {
        return e instanceof BackendException.ConnectionFailed || e instanceof BackendException.Timeout
                || e instanceof BackendException.ServerUnavailable || e instanceof BackendException.Unauthorized;
    }
}
