package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** One request a {@link WireServer} received: method, path (with query), lower-cased headers, body and its JSON (null if not JSON). */
public record Received(String method, String path, Map<String, String> headers, String body, JsonNode json) {
    public String header(String name) { return headers.get(name.toLowerCase(java.util.Locale.ROOT)); }
}
