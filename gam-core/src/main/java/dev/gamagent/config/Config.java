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
    private final ConfigSchema schema;

    private Config(ObjectNode root, ConfigSchema schema) {
        this.root = root;
        this.schema = schema;
    }

    /** The built-in defaults. */
    public static Config defaults() {
        try (InputStream in = Config.class.getResourceAsStream("/defaults.json")) {
            if (in == null) throw new IllegalStateException("resource /defaults.json is missing from the jar");
            ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(in);
            return new Config(tree, ConfigSchema.of(tree));
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
            schema.check("", obj, "config file " + file);
            return withTree(obj);
        } catch (JsonProcessingException e) {
            throw new ConfigException("config file " + file + " is not valid JSON: " + Json.problem(e));
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
    }

    /** A copy with {@code overlay} merged in (objects merge recursively; other values replace). */
    public Config withTree(ObjectNode overlay) {
        ObjectNode copy = root.deepCopy();
        merge(copy, overlay);
        return new Config(copy, schema);
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
        return new Config(copy, schema);
    }

    /** Applies {@code key=value} overrides in order; an unknown key or a value of the wrong type is an error naming it. */
    public Config withOverrides(Map<String, String> overrides) {
        Config c = this;
        for (var e : overrides.entrySet()) {
            schema.check(e.getKey().strip(), parseValue(e.getValue()), "--set " + e.getKey() + "=" + e.getValue());
            c = c.with(e.getKey().strip(), e.getValue());
        }
        return c;
    }

    /** The known keys and their types. */
    public ConfigSchema schema() { return schema; }

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
        if (n.isNumber()) return n.asDouble();
        if (!n.isTextual()) return fallback;
        try {
            return Double.parseDouble(n.asText().strip());
        } catch (NumberFormatException e) {
            throw new ConfigException("config " + dottedPath + " must be a number, got '" + n.asText() + "'");
        }
    }

    public int integer(String dottedPath, int fallback) {
        JsonNode n = node(dottedPath);
        if (n.isNumber()) return n.asInt();
        if (!n.isTextual()) return fallback;
        try {
            return Integer.parseInt(n.asText().strip());
        } catch (NumberFormatException e) {
            throw new ConfigException("config " + dottedPath + " must be a whole number, got '" + n.asText() + "'");
        }
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
