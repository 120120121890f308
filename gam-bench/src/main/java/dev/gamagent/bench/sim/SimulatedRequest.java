package dev.gamagent.bench.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.ImageTokens;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What the simulator needs from an OpenAI chat-completions body, read in one streaming pass so a
 * megabyte of base64 image is scanned once and never turned into a tree: sampling fields, the text of
 * every message, and each image's size (from its PNG or JPEG header) for a Qwen2.5-VL-style token count.
 */
record SimulatedRequest(String model, int maxTokens, int n, boolean logprobs, int topLogprobs, Long seed, boolean stream,
                        JsonNode schema, String text, List<int[]> imageSizes) {
    private static final JsonFactory FACTORY = Json.MAPPER.getFactory();
    /** Image tokens assumed when a header cannot be read (an http URL, an unknown format). */
    static final long UNKNOWN_IMAGE_TOKENS = 1024;

    /** A body the simulator refuses, with the message a real server would give. */
    static final class Invalid extends Exception {
        Invalid(String message) { super(message); }
    }

    static SimulatedRequest parse(InputStream body) throws IOException, Invalid {
        String model = null;
        int maxTokens = 16, n = 1, top = 0;
        boolean logprobs = false, stream = false, sawMessages = false;
        Long seed = null;
        JsonNode schema = null;
        StringBuilder text = new StringBuilder();
        List<int[]> images = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new Invalid("the body is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "model" -> model = v == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                    case "max_tokens", "max_completion_tokens" -> maxTokens = p.getValueAsInt(maxTokens);
                    case "n" -> n = p.getValueAsInt(1);
                    case "logprobs" -> logprobs = p.getValueAsBoolean();
                    case "top_logprobs" -> top = p.getValueAsInt(0);
                    case "seed" -> seed = v == JsonToken.VALUE_NULL ? null : p.getValueAsLong();
                    case "stream" -> stream = p.getValueAsBoolean();
                    case "response_format" -> {
                        JsonNode rf = p.readValueAsTree();
                        JsonNode s = rf == null ? null : rf.path("json_schema").path("schema");
                        schema = s == null || s.isMissingNode() ? null : s;
                    }
                    case "messages" -> {
                        if (v != JsonToken.START_ARRAY) throw new Invalid("'messages' must be an array");
                        sawMessages = true;
                        readMessages(p, text, images);
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Invalid("the body is not valid JSON: " + e.getOriginalMessage());
        }
        if (!sawMessages) throw new Invalid("'messages' is missing");
        if (n < 1) throw new Invalid("'n' must be at least 1");
        if (maxTokens < 1) throw new Invalid("'max_tokens' must be at least 1");
        return new SimulatedRequest(model, maxTokens, n, logprobs, top, seed, stream, schema, text.toString(), images);
    }

    private static void readMessages(JsonParser p, StringBuilder text, List<int[]> images) throws IOException, Invalid {
        while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (!field.equals("content")) {
                    p.skipChildren();
                    continue;
                }
                if (v == JsonToken.VALUE_STRING) {
                    text.append(p.getText()).append('\n');
                } else if (v == JsonToken.START_ARRAY) {
                    readParts(p, text, images);
                } else if (v != JsonToken.VALUE_NULL) {
                    throw new Invalid("a message's 'content' must be a string or an array of parts");
                }
            }
        }
    }

    private static void readParts(JsonParser p, StringBuilder text, List<int[]> images) throws IOException, Invalid {
        while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("text") && v == JsonToken.VALUE_STRING) {
                    text.append(p.getText()).append('\n');
                } else if (field.equals("image_url") && v == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.currentName();
                        JsonToken iv = p.nextToken();
                        if (f.equals("url") && iv == JsonToken.VALUE_STRING) images.add(imageSize(p.getText()));
                        else p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
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

    /** Prompt tokens as a Qwen2.5-VL server would count them, text at about four characters a token. */
    long promptTokens() {
        long t = 3 + (text.length() + 3) / 4;
        for (int[] s : imageSizes) t += s == null ? UNKNOWN_IMAGE_TOKENS : ImageTokens.qwen(s[0], s[1], 3136, 12_845_056);
        return t;
    }
}
