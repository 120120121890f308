package dev.gamagent.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * The one immutable configuration: defaults (resource {@code /defaults.json}), then a user file (JSON),
 * then command-line overrides ({@code --set gam.lambda=0.3}). Sections are read as typed records with
 * {@link #section(String, Class)}; unknown keys in a file are reported, not ignored silently.
 */
public final class Config {
    private final ObjectNode root;

    private Config(ObjectNode root) { this.root = root; }

    /** The built-in defaults. */
    public static Config defaults() {
        try (InputStream in = Config.class.getResourceAsStream("/defaults.json")) {
            if (in == null) throw new IllegalStateException("resource /defaults.json is missing from the jar");
            return new Config((ObjectNode) Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /defaults.json: " + e.getMessage(), e);
        }
    }

    /** Defaults overlaid with a JSON file. */
    public Config withFile(Path file) {
        if (file == null) return this;
        if (!Files.isRegularFile(file)) throw new ConfigException("config file " + file + " does not exist");
        try {
            JsonNode node = Json.MAPPER.readTree(file.toFile());
            if (!(node instanceof ObjectNode obj)) throw new ConfigException("config file " + file + " must hold a JSON object");
            return withTree(obj);
        } catch (JsonProcessingException e) {
            throw new ConfigException("config file " + file + " is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
    }

    /** A copy with {@code overlay} merged in (objects merge recursively; other values replace). */
    public Config withTree(ObjectNode overlay) {
        ObjectNode copy = root.deepCopy();
        merge(copy, overlay);
        return new Config(copy);
    }

    /**
     * A copy with one dotted path set, e.g. {@code gam.lambda=0.3} or {@code prompts.expert.ocr=...}.
     * The value is parsed as JSON when it parses (numbers, booleans, arrays), else taken as a string.
     */
    public Config with(String dottedPath, String value) {
        ObjectNode copy = root.deepCopy();
        String[] parts = dottedPath.split("\\.");
        ObjectNode node = copy;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode child = node.get(parts[i]);
            if (!(child instanceof ObjectNode)) {
                child = node.putObject(parts[i]);
            }
            node = (ObjectNode) child;
        }
        node.set(parts[parts.length - 1], parseValue(value));
        return new Config(copy);
    }

    /** Applies {@code key=value} overrides in order. */
    public Config withOverrides(Map<String, String> overrides) {
        Config c = this;
        for (var e : overrides.entrySet()) c = c.with(e.getKey(), e.getValue());
        return c;
    }

    /** The node at a dotted path, or a missing node. */
    public JsonNode node(String dottedPath) {
        JsonNode n = root;
        for (String p : dottedPath.split("\\.")) n = n.path(p);
        return n;
    }

    public String string(String dottedPath, String fallback) {
        JsonNode n = node(dottedPath);
        return n.isMissingNode() || n.isNull() ? fallback : n.asText();
    }

    public double number(String dottedPath, double fallback) {
        JsonNode n = node(dottedPath);
        return n.isNumber() ? n.asDouble() : n.isTextual() ? Double.parseDouble(n.asText()) : fallback;
    }

    public int integer(String dottedPath, int fallback) {
        JsonNode n = node(dottedPath);
        return n.isNumber() ? n.asInt() : n.isTextual() ? Integer.parseInt(n.asText()) : fallback;
    }

    public boolean bool(String dottedPath, boolean fallback) {
        JsonNode n = node(dottedPath);
        return n.isBoolean() ? n.asBoolean() : n.isTextual() ? Boolean.parseBoolean(n.asText()) : fallback;
    }

    /** Reads a section as a typed object (records work); a bad value names the section and field. */
    public <T> T section(String dottedPath, Class<T> type) {
        JsonNode n = node(dottedPath);
        try {
            return Json.MAPPER.treeToValue(n.isMissingNode() ? Json.MAPPER.createObjectNode() : n, type);
        } catch (JsonProcessingException e) {
            throw new ConfigException("config section '" + dottedPath + "' is invalid: " + e.getOriginalMessage());
        }
    }

    /** The whole tree (a copy), e.g. to record in a trace. */
    public ObjectNode tree() { return root.deepCopy(); }

    private static JsonNode parseValue(String v) {
        try {
            JsonNode n = Json.MAPPER.readTree(v);
            if (n != null && !n.isMissingNode()) return n;
        } catch (JsonProcessingException ignored) {
            // a plain string
        }
        return Json.MAPPER.getNodeFactory().textNode(v);
    }

    private static void merge(ObjectNode target, ObjectNode overlay) {
        Iterator<Map.Entry<String, JsonNode>> it = overlay.fields();
        while (it.hasNext()) {
            var e = it.next();
            JsonNode existing = target.get(e.getKey());
            if (existing instanceof ObjectNode eo && e.getValue() instanceof ObjectNode vo) merge(eo, vo);
            else target.set(e.getKey(), e.getValue().deepCopy());
        }
    }

    /** A configuration problem, with the file, section or key that caused it. */
    public static final class ConfigException extends RuntimeException {
        public ConfigException(String message) { super(message); }
    }
}
