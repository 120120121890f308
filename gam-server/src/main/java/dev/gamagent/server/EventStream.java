package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A response of server-sent events, each payload scrubbed of secrets; progress arrives from several agent threads
 * at once, so writes are serialised, and a client that went away ends the writing, not the method.
 */
final class EventStream {
    private final OutputStream out;
    private final SecretScrubber secrets;
    private volatile boolean open = true;

    EventStream(OutputStream out, SecretScrubber secrets) {
        this.out = out;
        this.secrets = secrets;
    }

    synchronized void send(JsonNode payload) { write("data: " + Json.write(secrets.scrub(payload)) + "\n\n"); }

    synchronized void done() { write("data: [DONE]\n\n"); }

    /** Whether a write failed: the client has gone. */
    boolean broken() { return !open; }

    private void write(String s) {
        if (!open) return;
        try {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            open = false; // the client went away; the method still finishes and its trace is kept
        }
    }
}
