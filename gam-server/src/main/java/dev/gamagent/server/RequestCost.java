package dev.gamagent.server;

import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;

import java.util.List;

/**
 * What one request costs the heap, by stage, as {@link MemoryBudget} reserves it. The factors were measured, not
 * guessed ({@code RequestMemoryCostTest} measures them again on every build and fails if one is set below what it
 * measures; docs/SERVER.md gives the figures).
 */
final class RequestCost {
    private RequestCost() { }

    /**
     * Reading and parsing a body, per body byte: everything the read and the parse allocate (the body itself, the JSON
     * parser's text buffers, the data URL's text and the copies made to decode its base64, the image bytes), as if none
     * of it were garbage before the parse ends (most of it is live at once: each copy is made from the one before):
     * measured 9.7 for a body that is one data URL, the worst case (text costs less). Held only while the body is read
     * and parsed.
     */
    static final int PARSE_BYTES_PER_BODY_BYTE = 10;

    /** A remote image while it arrives, per byte: the growing buffer (up to twice the bytes) and the copy taken of it. */
    static final int FETCH_BYTES_PER_BYTE = 3;

    /**
     * Pixels a method may decode, per pixel kept: 4 bytes of RGB, and as many again for what methods derive from them
     * (crops, scaled copies and their encodings).
     */
    static final int BYTES_PER_KEPT_PIXEL = 8;

    /** The question's text, options and trace: a fixed allowance per request, small beside any image. */
    static final long QUESTION_BYTES = 256 * 1024;

    /** A body of {@code bytes} while it is read and parsed. */
    static long body(long bytes) { return Math.max(QUESTION_BYTES, bytes * PARSE_BYTES_PER_BODY_BYTE); }

    /**
     * A request whose body has been parsed, from then to its answer: each image's bytes (held until it is decoded), their
     * base64 (what the model is sent, kept by the picture and shared by every call), and the pixels kept of it (at most
     * {@code loader}'s keep size) at {@link #BYTES_PER_KEPT_PIXEL}. An image whose header cannot be read counts by its
     * bytes only: decoding refuses it anyway.
     */
    static long images(List<CompletionRequest.Encoded> parts, ImageLoader loader) {
        long total = QUESTION_BYTES;
        for (CompletionRequest.Encoded e : parts) {
            long bytes = e.bytes().length;
            total += bytes + (bytes + 2) / 3 * 4;
            try {
                long pixels = loader.inspect(e.where(), e.bytes()).pixels();
                long kept = loader.keepPixels() > 0 ? Math.min(pixels, loader.keepPixels()) : pixels;
                total += kept * BYTES_PER_KEPT_PIXEL;
            } catch (ImageException | IllegalStateException bad) {
                // not an image we can read: decoding says why; it costs no pixels
            }
        }
        return total;
    }
}
