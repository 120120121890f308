package dev.gamagent.eval.data;

/** A benchmark file that cannot be found, fetched or trusted; the message names the file, the URL and what to do. */
public final class DataException extends RuntimeException {
    public DataException(String message) { super(message); }

    public DataException(String message, Throwable cause) { super(message, cause); }
}
