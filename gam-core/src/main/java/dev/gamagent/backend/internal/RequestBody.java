package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON request body whose images are not copied into the JSON text: the tree holds a placeholder for
 * each image ({@link #dataUrl}, {@link #base64}) and the body is sent as the JSON around them plus each
 * picture's base64 bytes, which the picture computed once for every request that carries it. A megabyte
 * image is then neither escaped by the JSON writer nor copied into a string for each agent's request.
 */
public final class RequestBody {
    /** Random per process, so no prompt text can contain a placeholder by accident. */
    private static final String MARK = "gam-image-" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() | 1L << 62) + "-";
    private static final int DIGITS = 6;

    /** {@link #MARK} as the JSON writer writes it, searched for in the body (each body's own copy: arrays are never shared). */
    private final byte[] markBytes = MARK.getBytes(StandardCharsets.US_ASCII);

    private final List<Picture> pictures = new ArrayList<>();
    private final List<Boolean> asDataUrl = new ArrayList<>();

    /** The text to put where the image's data URL goes ({@code data:image/png;base64,...}). */
    public String dataUrl(Picture p) { return add(p, true); }

    /** The text to put where the image's bare base64 goes. */
    public String base64(Picture p) { return add(p, false); }

    private String add(Picture p, boolean url) {
        pictures.add(p);
        asDataUrl.add(url);
        return MARK + String.format("%0" + DIGITS + "d", pictures.size() - 1);
    }

    /** The body as one publisher of known length (so it goes with Content-Length, not chunked). */
    public HttpRequest.BodyPublisher publisher(JsonNode tree) {
        List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
        forEachPart(tree, (bytes, off, len) -> parts.add(HttpRequest.BodyPublishers.ofByteArray(bytes, off, len)));
        return parts.size() == 1 ? parts.get(0) : HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new));
    }

    /** The whole body as bytes (for tests and recordings). */
    public byte[] bytes(JsonNode tree) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        forEachPart(tree, out::write);
        return out.toByteArray();
    }

    @FunctionalInterface
    private interface Part {
        void accept(byte[] bytes, int offset, int length);
    }

    private void forEachPart(JsonNode tree, Part sink) {
        byte[] json;
        try {
            json = Json.MAPPER.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a request body as JSON: " + e.getOriginalMessage(), e);
        }
        if (pictures.isEmpty()) {
            sink.accept(json, 0, json.length);
            return;
        }
        int from = 0;
        for (int at = indexOf(json, 0); at >= 0; at = indexOf(json, from)) {
            int index = Integer.parseInt(new String(json, at + markBytes.length, DIGITS, StandardCharsets.US_ASCII));
            sink.accept(json, from, at - from);
            Picture.Encoding e = pictures.get(index).encoding();
            if (asDataUrl.get(index)) {
                byte[] prefix = e.prefix();
                sink.accept(prefix, 0, prefix.length);
            }
            sink.accept(e.base64(), 0, e.base64().length);
            from = at + markBytes.length + DIGITS;
        }
        sink.accept(json, from, json.length - from);
    }

    private int indexOf(byte[] hay, int from) {
        outer:
        for (int i = from; i <= hay.length - markBytes.length - DIGITS; i++) {
            for (int j = 0; j < markBytes.length; j++) if (hay[i + j] != markBytes[j]) continue outer;
            return i;
        }
        return -1;
    }
}
