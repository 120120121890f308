package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.CanonicalRequest;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * Answers from a {@link RecordingBackend} file, keyed by the hash of the canonical request. A request
 * recorded several times is answered with its recordings in order, then the last one again; a request
 * never recorded is an {@link BackendException.InvalidRequest} naming its hash and the file.
 */
final class ReplayBackend implements Backend {
    private final Path file;
    private final Map<String, Deque<ChatResult>> answers = new HashMap<>();
    private final Map<String, ChatResult> last = new HashMap<>();
    private final String name;
    private final boolean logprobs;

    public ReplayBackend(Path file) {
        this.file = file;
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--replay file " + file + " does not exist; record one with --record");
        String firstName = null;
        boolean anyLogprobs = false;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --replay file " + file + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) continue;
            try {
                JsonNode o = Json.MAPPER.readTree(line);
                String key = o.path("key").asText("");
                if (key.isEmpty()) throw new IllegalArgumentException("no \"key\"");
                ChatResult r = CanonicalRequest.readResult(o.path("response"));
                answers.computeIfAbsent(key, k -> new ArrayDeque<>()).add(r);
                anyLogprobs |= r.first().hasLogprobs();
                if (firstName == null) firstName = o.path("backend").asText(null);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--replay file " + file + " line " + (i + 1) + " is not a recording: " + e.getMessage(), e);
            }
        }
        this.name = "replay:" + (firstName == null ? file.getFileName() : firstName);
        this.logprobs = anyLogprobs;
    }

    @Override public String name() { return name; }

    @Override public Capabilities capabilities() {
        return new Capabilities(true, logprobs, logprobs ? EndpointSettings.DEFAULT_MAX_TOP_LOGPROBS : 0, true, true, Capabilities.DEFAULT_MAX_PIXELS);
    }

    @Override public synchronized ChatResult chat(ChatRequest request) {
        String key = CanonicalRequest.hash(request);
        Deque<ChatResult> q = answers.get(key);
        if (q != null && !q.isEmpty()) {
            ChatResult r = q.poll();
            last.put(key, r);
            return r;
        }
        ChatResult again = last.get(key);
        if (again != null) return again;
        throw new BackendException.InvalidRequest("no recorded answer for request " + key + " in " + file
                + "; the request (prompt, images, sampling or log-prob settings) differs from the recording; record it again with --record", 0, "");
    }
}
