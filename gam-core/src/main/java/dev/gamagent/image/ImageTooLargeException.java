package dev.gamagent.image;

/** The image header claims more pixels than the configured limit; nothing was decoded. */
public final class ImageTooLargeException extends ImageException {
    private final int width;
    private final int height;
    private final long limit;

    public ImageTooLargeException(String message, int width, int height, long limit) {
        super(message);
        this.width = width;
        this.height = height;
        this.limit = limit;
    }

    public int width() { return width; }

    public int height() { return height; }

    /** The limit in pixels (width×height). */
    public long limit() { return limit; }
}
