package dev.gamagent.server;

import dev.gamagent.api.Question;
import dev.gamagent.backend.openai.ChatCompletionReader;
import dev.gamagent.backend.openai.ChatCompletionRequest;
import dev.gamagent.backend.openai.WireFormatException;
import dev.gamagent.engine.QuestionText;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.ImageTooLargeException;
import dev.gamagent.image.Picture;
import dev.gamagent.util.HttpUrl;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An OpenAI chat-completions request turned into a {@link Question}: the user messages' text is read as the harnesses
 * write a question ({@link QuestionText}: labels, hint, options one per line or inline, instruction sentences set apart
 * and not passed on), system and developer messages become the hint (their instructions set apart the same way), and
 * image parts (data URLs, or http(s) URLs from allowed hosts) the images. {@code model} names the method; the other
 * parameters are checked by {@link ReplyParameters}.
 */
public record CompletionRequest(String model, boolean stream, Question question, ReplyParameters reply) {
    /** Fetches a remote image URL; the caller has already checked the host. */
    @FunctionalInterface
    public interface RemoteImages {
        byte[] fetch(URI url);
    }

    public static CompletionRequest parse(byte[] body, ServerSettings settings, RemoteImages remote) {
        return parse(body, settings, remote, new ImageLoader(settings.maxImagePixels(), "server.max_image_megapixels"));
    }

    /**
     * Parses with {@code loader} (per-image limit, decode budget, kept size). Every image is fetched and its
     * header checked first; only when all of them together stay within {@code server.max_request_megapixels}
     * is any decoded.
     */
    public static CompletionRequest parse(byte[] body, ServerSettings settings, RemoteImages remote, ImageLoader loader) {
        return read(body, settings, remote).decode(loader);
    }

    /**
     * A request read and checked, its images fetched (remote ones through {@code remote}) but not yet decoded: the
     * server reads requests before they wait for a slot, and decodes them when one is free.
     */
    public record Read(String model, boolean stream, String question, String hint, Map<String, String> options,
                       List<Encoded> images, ServerSettings settings, ReplyParameters reply) {
        /** Checks every image's header and the request's total, then decodes within the loader's budget. */
        public CompletionRequest decode(ImageLoader loader) {
            return new CompletionRequest(model, stream, new Question("request", CompletionRequest.decode(images, loader, settings), question,
                    hint, options), reply);
        }
    }

    /** Reads the request: everything but decoding its images. */
    public static Read read(byte[] body, ServerSettings settings, RemoteImages remote) {
        ChatCompletionRequest wire;
        try {
            wire = ChatCompletionReader.read(body);
        } catch (WireFormatException e) {
            throw ApiError.badRequest(e.problem().code(), e.getMessage());
        }
        ReplyParameters reply = ReplyParameters.of(wire);
        String model = wire.model() == null || wire.model().isBlank() ? "single" : wire.model();
        List<Encoded> images = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        StringBuilder hint = new StringBuilder();
        for (int i = 0; i < wire.messages().size(); i++) {
            ChatCompletionRequest.Message m = wire.messages().get(i);
            if (m.role().instructs()) {
                for (ChatCompletionRequest.Part part : m.content()) if (part instanceof ChatCompletionRequest.Text t) append(hint, t.text());
                continue;
            }
            if (m.role() != ChatCompletionRequest.Role.USER) continue; // earlier assistant turns carry no new evidence
            for (int j = 0; j < m.content().size(); j++) {
                ChatCompletionRequest.Part part = m.content().get(j);
                if (part instanceof ChatCompletionRequest.Text t) append(text, t.text());
                else if (part instanceof ChatCompletionRequest.ImageUrl u) {
                    images.add(encoded("messages[" + i + "].content[" + j + "]", u.url(), settings, remote));
                }
            }
        }
        if (images.isEmpty()) {
            throw ApiError.badRequest("missing_image", "no image in the request: add a user content part "
                    + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,...\"}}");
        }
        QuestionText.Read asked = QuestionText.read(text.toString());
        String q = asked.question().strip();
        if (q.isEmpty()) throw ApiError.badRequest("missing_question", "no question text in the user messages");
        // a system message is context for the question, less what only tells a model how to reply ("You are a helpful assistant")
        StringBuilder h = new StringBuilder();
        append(h, QuestionText.withoutInstructions(hint.toString()));
        append(h, asked.hint());
        String hintText = h.toString().strip();
        return new Read(model.strip(), wire.stream(), q, hintText.isEmpty() ? null : hintText, asked.options(), List.copyOf(images),
                settings, reply);
    }

    /** An image part's bytes, not yet decoded, and where it was in the request. */
    public record Encoded(String where, byte[] bytes) { }

    /** Checks every header and the request's total before decoding anything; then decodes within the loader's budget. */
    private static List<Picture> decode(List<Encoded> parts, ImageLoader loader, ServerSettings settings) {
        long total = 0;
        try {
            for (Encoded e : parts) {
                total += loader.inspect(e.where(), e.bytes()).pixels();
                if (total > settings.maxRequestPixels()) {
                    throw new ApiError(413, "invalid_request_error", "images_too_large", String.format(Locale.ROOT,
                            "the request's images hold more than %.1f megapixels together (the limit, config "
                                    + "server.max_request_megapixels); send fewer or smaller images", settings.maxRequestPixels() / 1e6));
                }
            }
            List<Picture> out = new ArrayList<>();
            // PNG and JPEG within the kept size stay as their bytes (sent as they are, decoded only if a method needs pixels), as gam eval keeps them
            for (Encoded e : parts) out.add(loader.encoded(e.where(), e.bytes()));
            return out;
        } catch (ImageTooLargeException e) {
            throw new ApiError(413, "invalid_request_error", "image_too_large", e.getMessage());
        } catch (ImageException e) {
            throw ApiError.badRequest("invalid_image", e.getMessage());
        }
    }

    private static Encoded encoded(String where, String url, ServerSettings settings, RemoteImages remote) {
        try {
            if (url.regionMatches(true, 0, "data:", 0, 5)) return new Encoded(where, ImageLoader.dataUrlBytes(where, url));
            HttpUrl u;
            try {
                u = HttpUrl.parse(url);
            } catch (HttpUrl.Invalid e) {
                if (e.problem() == HttpUrl.Problem.SCHEME) {
                    throw ApiError.badRequest("image_url_scheme", where + ": image URLs must be data: URLs or http(s) URLs from "
                            + "allowed hosts; '" + e.scheme() + ":' URLs are refused (the server never reads its own files)");
                }
                throw ApiError.badRequest("invalid_image_url", where + ": " + e.getMessage()
                        + "; image URLs must be data: URLs or http(s) URLs from allowed hosts");
            }
            if (!settings.imageHostAllowed(u.host())) {
                throw new ApiError(403, "invalid_request_error", "image_host_not_allowed", where + ": images from host '" + u.host()
                        + "' are not allowed; send the image as a data URL or add the host to config server.allowed_image_hosts");
            }
            return new Encoded(where + " (" + u.host() + ")", remote.fetch(u.uri()));
        } catch (ImageException e) {
            throw ApiError.badRequest("invalid_image", e.getMessage());
        }
    }

    private static void append(StringBuilder sb, String s) {
        if (s == null || s.isBlank()) return;
        if (sb.length() > 0) sb.append('\n');
        sb.append(s);
    }
}
