package dev.gamagent.image;

import java.util.Locale;
import java.util.concurrent.Semaphore;

/**
 * How many pixels may be decoded at the same time across threads (one run of {@code gam eval}, one
 * server). A decode takes its pixels from the budget before allocating them and gives them back once
 * the image has been downscaled to what is kept, so four questions decoding 100-megapixel images at
 * once wait for each other instead of exhausting the heap.
 */
public final class DecodeBudget {
    /** Bytes of heap a decoded pixel may need while decoding: the decoder's raster plus our RGB copy. */
    static final long BYTES_PER_PIXEL = 16;
    private static final int UNIT = 1024; // permits are kilopixels, so a budget of gigapixels fits an int

    private final long pixels;
    private final int units;
    private final Semaphore permits;

    public DecodeBudget(long pixels) {
        if (pixels <= 0) throw new IllegalArgumentException("a decode budget needs a positive number of pixels, got " + pixels);
        this.units = (int) Math.min(Integer.MAX_VALUE, Math.max(1, pixels / UNIT));
        this.pixels = (long) units * UNIT;
        this.permits = new Semaphore(units, true);
    }

    /** A budget of {@code megapixels} million pixels, or one sized to this JVM's heap when {@code megapixels} ≤ 0. */
    public static DecodeBudget megapixels(double megapixels) {
        if (megapixels > 0) return new DecodeBudget(Math.round(megapixels * 1_000_000));
        // a quarter of the heap for images being decoded; the rest is for the kept, downscaled copies and the methods
        return new DecodeBudget(Math.max(16_000_000L, Runtime.getRuntime().maxMemory() / 4 / BYTES_PER_PIXEL));
    }

    /** The pixels that {@code bytes} of heap can decode at once (a decoded pixel needs {@value #BYTES_PER_PIXEL} bytes while decoding). */
    public static long pixelsFor(long bytes) { return Math.max(1, bytes / BYTES_PER_PIXEL); }

    public long pixels() { return pixels; }

    /** Pixels not currently taken. */
    public long available() { return (long) permits.availablePermits() * UNIT; }

    /** Returned pixels go back to the budget. */
    public interface Lease extends AutoCloseable {
        @Override void close();
    }

    /**
     * Takes {@code n} pixels, waiting while others hold them. An image larger than the whole budget
     * waits until it can have all of it, so it decodes alone.
     */
    public Lease acquire(long n, String source) {
        int want = (int) Math.min(units, Math.max(1, (n + UNIT - 1) / UNIT));
        try {
            permits.acquire(want);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // not an ImageException: nothing is wrong with the image
            throw new IllegalStateException(String.format(Locale.ROOT, "%s: interrupted while waiting to decode %.1f megapixels", source, n / 1e6), e);
        }
        boolean[] open = {true};
        return () -> {
            synchronized (open) {
                if (open[0]) {
                    open[0] = false;
                    permits.release(want);
                }
            }
        };
    }

    @Override public String toString() {
        return String.format(Locale.ROOT, "DecodeBudget[%.1f MP, %.1f MP free]", pixels / 1e6, available() / 1e6);
    }
}
