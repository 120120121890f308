package dev.gamagent.backend;

/**
 * Lets one call find out whether an endpoint is up before the others pile on. While no answer has come
 * back (at start, or since a call gave up on a connection failure, timeout, 5xx or refused credentials),
 * the first call goes alone and the rest wait for it: if it gets any answer they all go; if it gives up,
 * they fail at once with its error instead of each retrying against a dead server. A method with nine
 * parallel calls therefore makes one call's retries against a dead server, not nine.
 */
final class ReachabilityGate {
    private boolean reachable;
    private boolean probing;
    private long generation;
    private BackendException verdict;

    /** Whether the caller is the one finding out ({@code PROBE}) or may go ahead ({@code PASS}). */
    enum Pass { PASS, PROBE }

    /** Waits while another call is finding out; throws that call's failure when it gave up. */
    synchronized Pass enter(String endpoint) {
        while (true) {
            if (reachable) return Pass.PASS;
            if (!probing) {
                probing = true;
                return Pass.PROBE;
            }
            long seen = generation;
            while (probing && generation == seen) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BackendException.ConnectionFailed("interrupted while waiting to learn whether " + endpoint + " is up", e);
                }
            }
            if (generation == seen + 1 && verdict != null) throw verdict;
        }
    }

    /** A call got an answer (any HTTP answer, even a refusal): the endpoint is up. */
    synchronized void answered(Pass pass) {
        reachable = true;
        if (pass == Pass.PROBE) finish(null);
    }

    /** A call gave up; endpoint-level failures close the gate until the next call gets through. */
    synchronized void gaveUp(Pass pass, BackendException e) {
        boolean down = isEndpointDown(e);
        if (down) reachable = false;
        else reachable = true;
        if (pass == Pass.PROBE) finish(down ? e : null);
    }

    /** The probing call ended without a verdict (an unexpected exception): let a waiting call probe instead. */
    synchronized void abandoned(Pass pass) {
        if (pass == Pass.PROBE && probing) finish(null);
    }

    private void finish(BackendException failure) {
        probing = false;
        generation++;
        verdict = failure;
        notifyAll();
    }

    /** Failures that say nothing answered (or nothing will, with this key), as opposed to a refusal of this request. */
    static boolean isEndpointDown(BackendException e) {
        return e instanceof BackendException.ConnectionFailed || e instanceof BackendException.Timeout
                || e instanceof BackendException.ServerUnavailable || e instanceof BackendException.Unauthorized;
    }
}
