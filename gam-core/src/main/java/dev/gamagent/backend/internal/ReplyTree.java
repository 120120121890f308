package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import java.io.IOException;

/**
 * Reads a reply body into a tree, streaming past the {@code bytes} arrays of its log-prob entries. OpenAI, vLLM,
 * llama.cpp and Ollama send, for every token and every top-k alternative, the token's UTF-8 bytes as an array of
 * numbers ({@code {"token", "logprob", "bytes": [...], "top_logprobs": [...]}}); no reader uses them (the token's
 * text is its {@code token}), yet built into a tree they were most of a reply's nodes and the largest share of the
 * client's CPU per call (docs/performance.md). A {@code bytes} field of an object that is an array's element is
 * skipped by the streaming parser (still checked as JSON, never turned into nodes); everything else is read as
 * {@link ObjectReader#readTree} reads it. The Ollama, Gemini and Anthropic replies are read so; an OpenAI-compatible reply is
 * not built into a tree at all ({@link OpenAiReply}).
 */
final class ReplyTree {
    private static final String BYTES = "bytes";

    private ReplyTree() { }

    /**
     * The reply's tree without its log-prob entries' {@code bytes}, read from {@code parser} (one of {@code reader}'s, at
     * the body's start); null or a missing node for an empty body, as {@code readTree}.
     */
    static JsonNode read(ObjectReader reader, JsonParser parser) throws IOException {
        return reader.readTree(new SkipBytes(parser));
    }

    /** A parser that never returns a {@code bytes} field (or its value) of an object held in an array. */
    private static final class SkipBytes extends JsonParserDelegate {
        SkipBytes(JsonParser p) { super(p); }

        @Override public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            while (t == JsonToken.FIELD_NAME && skipped()) t = delegate.nextToken();
            return t;
        }

        @Override public String nextFieldName() throws IOException {
            String name = delegate.nextFieldName();
            while (name != null && skipped()) name = delegate.nextFieldName();
            return name;
        }

        @Override public JsonToken nextValue() throws IOException {
            JsonToken t = nextToken();
            return t == JsonToken.FIELD_NAME ? nextToken() : t;
        }

        /** At a field name: when it is a log-prob entry's {@code bytes}, its value is skipped and true returned. */
        private boolean skipped() throws IOException {
            if (!BYTES.equals(delegate.currentName()) || !delegate.getParsingContext().getParent().inArray()) return false;
            delegate.nextToken();
            delegate.skipChildren();
            return true;
        }
    }
}
