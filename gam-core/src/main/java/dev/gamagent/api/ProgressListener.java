package dev.gamagent.api;

/**
 * Receives a method's {@link ProgressEvent}s while it runs (round started, agent answered, weights, ...), on the threads
 * that run the agents: an implementation must be thread-safe.
 */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = event -> { };

    /** One event; {@code event.type()} and {@code event.data()} give it as {@code gam serve} streams it. */
    void event(ProgressEvent event);
}
