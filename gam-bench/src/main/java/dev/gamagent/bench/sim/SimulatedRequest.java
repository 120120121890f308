package dev.gamagent.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.openai.ChatCompletionReader;
import dev.gamagent.backend.openai.ChatCompletionRequest;
import dev.gamagent.image.internal.ImageTokens;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What the simulator needs from an OpenAI chat-completions body ({@link ChatCompletionReader} reads it in one streaming
 * pass): sampling fields with the simulator's defaults, the text of every message, and each image's size (from its PNG
 * or JPEG header) for the served family's image-token count ({@code --image-tokens}), and every content part in order, from
 * which {@link #tokens} lays out the prompt as a token sequence for the prefix cache.
 */
record SimulatedRequest(String model, int maxTokens, int n, boolean logprobs, int topLogprobs, Long seed, boolean stream,
                        JsonNode schema, String text, List<int[]> imageSizes, List<ChatCompletionRequest.Part> parts) {
    /** Image tokens assumed when a header cannot be read (an http URL, an unknown format). */
    static final long UNKNOWN_IMAGE_TOKENS = 1024;
    /** {@code max_tokens} when the client sends none (the default of OpenAI's legacy completions endpoint). */
    static final int DEFAULT_MAX_TOKENS = 16;

    /** Reads a body; a {@link dev.gamagent.backend.openai.WireFormatException} names what is wrong with it. */
    static SimulatedRequest parse(InputStream body) throws IOException {
        ChatCompletionRequest w = ChatCompletionReader.read(body);
        StringBuilder text = new StringBuilder();
        List<int[]> images = new ArrayList<>();
        List<ChatCompletionRequest.Part> parts = new ArrayList<>();
        for (ChatCompletionRequest.Message m : w.messages()) {
            for (ChatCompletionRequest.Part part : m.content()) {
                parts.add(part);
                if (part instanceof ChatCompletionRequest.Text t) text.append(t.text()).append('\n');
                else if (part instanceof ChatCompletionRequest.ImageUrl u) images.add(imageSize(u.url()));
            }
        }
        JsonNode schema = w.response() != null && w.response().jsonSchema() ? w.response().schema() : null;
        return new SimulatedRequest(w.model(), w.maxTokens() == null ? DEFAULT_MAX_TOKENS : w.maxTokens(), w.n(), w.logprobs(),
                w.topLogprobs(), w.seed(), w.stream(), schema, text.toString(), images, parts);
    }

    /** Width and height from a base64 data URL's PNG or JPEG header, or null when they cannot be read. */
    static int[] imageSize(String url) {
        int comma = url.indexOf(',');
        if (!url.startsWith("data:") || comma < 0) return null;
        // a JPEG's frame header is usually in its first few kilobytes; decode no more than 64 KB of it
        int end = Math.min(url.length(), comma + 1 + 87_380);
        end -= (end - comma - 1) % 4;
        byte[] b;
        try {
            b = Base64.getDecoder().decode(url.substring(comma + 1, end));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (b.length >= 24 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') {
            return new int[]{readInt(b, 16), readInt(b, 20)};
        }
        if (b.length >= 4 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xD8) {
            int i = 2;
            while (i + 9 < b.length) {
                if ((b[i] & 0xff) != 0xFF) { i++; continue; }
                int marker = b[i + 1] & 0xff;
                if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0xFF) { i++; continue; }
                int len = ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
                boolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
                if (sof) {
                    int h = ((b[i + 5] & 0xff) << 8) | (b[i + 6] & 0xff), w = ((b[i + 7] & 0xff) << 8) | (b[i + 8] & 0xff);
                    return new int[]{w, h};
                }
                i += 2 + len;
            }
        }
        return null;
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    /** The chat template's own tokens at the start of a prompt (the 3 of {@link #promptTokens}), ids −2, −3, −4. */
    private static final int TEMPLATE_TOKENS = 3;
    /** The id of an image's placeholder tokens; the image's content hash tells images apart (vLLM's extra keys). */
    static final long IMAGE_PLACEHOLDER = -1;

    /** A prompt as a token sequence: the token ids and where each image's placeholder run lies, with its content hash. */
    record Tokens(long[] ids, List<PrefixCache.ImageSpan> images) { }

    /**
     * The prompt as the token sequence whose length is {@link #promptTokens}: the template's 3 tokens, then the content
     * parts in order, the text of all parts (each followed by a newline) as one stream cut every 4 characters (a token's id
     * is its 4 UTF-16 units packed into a long), an image as its placeholder tokens at the point where it comes (a text
     * token that straddles it is emitted after it). An image's content hash is SHA-256 of its URL (a data URL holds the
     * encoded bytes), so the same image sent the same way hashes the same.
     */
    Tokens tokens(ImageTokens.Rule rule) {
        long total = promptTokens(rule);
        long[] ids = new long[Math.toIntExact(total)];
        int n = 0;
        for (; n < TEMPLATE_TOKENS; n++) ids[n] = -2 - n;
        List<PrefixCache.ImageSpan> images = new ArrayList<>();
        long pending = 0;
        int pendingChars = 0, image = 0;
        for (ChatCompletionRequest.Part part : parts) {
            if (part instanceof ChatCompletionRequest.Text t) {
                String s = t.text() + '\n';
                for (int i = 0; i < s.length(); i++) {
                    pending = (pending << 16) | s.charAt(i);
                    if (++pendingChars == 4) {
                        ids[n++] = pending;
                        pending = 0;
                        pendingChars = 0;
                    }
                }
            } else if (part instanceof ChatCompletionRequest.ImageUrl u) {
                int[] size = imageSizes.get(image++);
                long count = size == null ? UNKNOWN_IMAGE_TOKENS : rule.tokens(size[0], size[1]);
                images.add(new PrefixCache.ImageSpan(n, count, contentHash(u.url())));
                for (long i = 0; i < count; i++) ids[n++] = IMAGE_PLACEHOLDER;
            }
        }
        if (pendingChars > 0) ids[n++] = pending | ((long) pendingChars << 62); // the length tells "a" from "\0a"
        if (n != ids.length) throw new IllegalStateException("token layout of " + n + " tokens, " + ids.length + " counted");
        return new Tokens(ids, images);
    }

    private static long contentHash(String url) {
        return ByteBuffer.wrap(PrefixCache.sha256().digest(url.getBytes(StandardCharsets.UTF_8))).getLong();
    }

    /** Prompt tokens as a server of the family {@code images} would count them, text at about four characters a token. */
    long promptTokens(ImageTokens.Rule images) {
        long t = 3 + (text.length() + 3) / 4;
        for (int[] s : imageSizes) t += s == null ? UNKNOWN_IMAGE_TOKENS : images.tokens(s[0], s[1]);
        return t;
    }
}
