package dev.gamagent.image;

/** An image could not be used; the message names the file (or row) and the reason. */
public class ImageException extends RuntimeException {
    public ImageException(String message) { super(message); }

    public ImageException(String message, Throwable cause) { super(message, cause); }
}
