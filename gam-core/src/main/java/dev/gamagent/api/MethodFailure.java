package dev.gamagent.api;

/** A method could not produce an answer at all (for example: no expert answered). The partial trace is kept. */
public class MethodFailure extends RuntimeException {
    private final transient Trace partialTrace;

    public MethodFailure(String message, Throwable cause, Trace partialTrace) {
        super(message, cause);
        this.partialTrace = partialTrace;
    }

    public Trace partialTrace() { return partialTrace; }
}
