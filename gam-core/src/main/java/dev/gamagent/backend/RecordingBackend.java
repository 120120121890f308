package dev.gamagent.backend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.internal.CanonicalRequest;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import dev.gamagent.backend.internal.SecretScrubber;

/**
 * Appends every answered request to a JSONL file: {@code {"key", "backend", "time", "request", "response"}}
 * where the request is {@link CanonicalRequest#json} (images as SHA-256 + size, never pixels). Failed
 * calls are not recorded. {@link ReplayBackend} answers from such a file. Every secret the scrubber knows is
 * removed from the line before it is written (the key stays the hash of the request as asked, so replay finds it).
 */
final class RecordingBackend implements Backend {
    private final Backend inner;
    private final Path file;
    private final Writer out;
    private final SecretScrubber scrubber;

    public RecordingBackend(Backend inner, Path file) { this(inner, file, SecretScrubber.NONE); }

    /** @param scrubber the process's secrets, removed from every recorded line */
    public RecordingBackend(Backend inner, Path file, SecretScrubber scrubber) {
        this.inner = inner;
        this.file = file;
        this.scrubber = scrubber;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open --record file " + file + " for appending: " + e.getMessage(), e);
        }
    }

    @Override public String name() { return inner.name(); }

    @Override public Capabilities capabilities() { return inner.capabilities(); }

    @Override public ChatResult chat(ChatRequest request) {
        ChatResult r = inner.chat(request);
        ObjectNode line = Json.MAPPER.createObjectNode();
        ObjectNode canonical = CanonicalRequest.json(request);
        line.put("key", CanonicalRequest.sha256(Json.write(canonical).getBytes(StandardCharsets.UTF_8)));
        line.put("backend", inner.name());
        line.put("time", Instant.now().toString());
        line.set("request", canonical);
        line.set("response", CanonicalRequest.result(r));
        String text = Json.write(scrubber.scrub(line));
        synchronized (out) {
            try {
                out.write(text);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to --record file " + file + ": " + e.getMessage(), e);
            }
        }
        return r;
    }

    @Override public void close() {
        try {
            synchronized (out) { out.close(); }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close --record file " + file + ": " + e.getMessage(), e);
        } finally {
            inner.close();
        }
    }
}
