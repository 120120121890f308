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
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import dev.gamagent.config.internal.ConfigSchema;

/**
 * The one immutable configuration: defaults (resource {@code /defaults.json}), then a user file (JSON),
 * then command-line overrides ({@code --set gam.lambda=0.3}). Every default value lives in defaults.json: the
 * accessors ({@link #number(String)}, …) take no fallback and fail naming a key that has none; the few keys whose
 * absence means "not set" ({@link ConfigSchema#optional}) are read with the optional accessors. Unknown keys in a
 * file are reported, not ignored silently.
 */
public final class Config {
    private final ObjectNode root;
    private final ConfigSchema schema;
    /** What the user gave on top of the defaults (files, {@code --set}, {@link #with}), for {@link #given}. */
    private final ObjectNode given;
    /** Values computed from this configuration, each once ({@link #derived}); the configuration never changes, so neither do they. */
    private final java.util.Map<String, Object> derived = new java.util.concurrent.ConcurrentHashMap<>();

    private Config(ObjectNode root, ConfigSchema schema, ObjectNode given) {
        this.root = root;
        this.schema = schema;
        this.given = given;
    }

    /** The built-in defaults. */
    public static Config defaults() {
        try (InputStream in = Config.class.getResourceAsStream("/defaults.json")) {
            if (in == null) throw new IllegalStateException("resource /defaults.json is missing from the jar");
            ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(in);
            return new Config(tree, ConfigSchema.of(tree), Json.MAPPER.createObjectNode());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /defaults.json: " + e.getMessage(), e);
        }
    }

    /**
     * The value {@code compute} derives from this configuration for {@code key}, computed the first time it is asked and
     * kept with the configuration (e.g. a prompt template as read from the jar or a {@code prompts.NAME} override:
     * a run's methods make their {@code Prompts} per question, the configuration lives for the run).
     */
    public <T> T derived(String key, Class<T> type, java.util.function.Function<String, ? extends T> compute) {
        return type.cast(derived.computeIfAbsent(key, compute));
    }

    /** Defaults overlaid with a JSON file. */
    public Config withFile(Path file) {
        if (file == null) return this;
        if (!Files.isRegularFile(file)) throw new ConfigException("config file " + file + " does not exist");
        try {
            JsonNode node = Json.MAPPER.readTree(file.toFile());
            if (!(node instanceof ObjectNode obj)) throw new ConfigException("config file " + file + " must hold a JSON object");
            check("", obj, "config file " + file);
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
        ObjectNode user = given.deepCopy();
        merge(user, overlay);
        return new Config(copy, schema, user);
    }

    /**
     * A copy with one dotted path set, e.g. {@code gam.lambda=0.3} or {@code prompts.expert.ocr=...}.
     * The value is parsed as JSON when it parses (numbers, booleans, arrays), else taken as a string.
     */
    public Config with(String dottedPath, String value) {
        JsonNode v = parseValue(value);
        return new Config(set(root.deepCopy(), dottedPath, v), schema, set(given.deepCopy(), dottedPath, v));
    }

    private static ObjectNode set(ObjectNode copy, String dottedPath, JsonNode value) {
        String[] parts = dottedPath.split("\\.");
        ObjectNode node = copy;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode child = node.get(parts[i]);
            if (!(child instanceof ObjectNode)) {
                child = node.putObject(parts[i]);
            }
            node = (ObjectNode) child;
        }
        node.set(parts[parts.length - 1], value.deepCopy());
        return copy;
    }

    /** Applies {@code key=value} overrides in order; an unknown key or a value of the wrong type is an error naming it. */
    public Config withOverrides(Map<String, String> overrides) {
        Config c = this;
        for (var e : overrides.entrySet()) {
            check(e.getKey().strip(), parseValue(e.getValue()), "--set " + e.getKey() + "=" + e.getValue());
            c = c.with(e.getKey().strip(), e.getValue());
        }
        return c;
    }

    private void check(String key, JsonNode value, String where) {
        String problem = schema.problem(key, value, where);
        if (problem != null) throw new ConfigException(problem);
    }

    /** The known keys and their types (not API: {@code ConfigSchema.of(defaults().tree())} outside this package). */
    ConfigSchema schema() { return schema; }

    /** The node at a dotted path, or a missing node. */
    public JsonNode node(String dottedPath) {
        JsonNode n = root;
        for (String p : dottedPath.split("\\.")) n = n.path(p);
        return n;
    }

    /** The text at a key of defaults.json (as overridden); a key without a value is a {@link ConfigException} naming it. */
    public String string(String dottedPath) {
        return present(dottedPath).asText();
    }

    /** The number at a key of defaults.json (as overridden; "0.3" given as text parses). */
    public double number(String dottedPath) {
        return toNumber(dottedPath, present(dottedPath));
    }

    /** The whole number at a key of defaults.json (as overridden). */
    public int integer(String dottedPath) {
        return toInteger(dottedPath, present(dottedPath));
    }

    /** The boolean at a key of defaults.json (as overridden; "true" given as text counts). */
    public boolean bool(String dottedPath) {
        JsonNode n = present(dottedPath);
        if (n.isBoolean()) return n.asBoolean();
        if (n.isTextual()) return Boolean.parseBoolean(n.asText());
        throw new ConfigException("config " + dottedPath + " must be true or false, got " + n);
    }

    /** The text at an optional key ({@link ConfigSchema#optional}), or empty when it is not set. */
    public Optional<String> optionalString(String dottedPath) {
        JsonNode n = optionalNode(dottedPath);
        return n == null ? Optional.empty() : Optional.of(n.asText());
    }

    /** The whole number at an optional key, or empty when it is not set. */
    public OptionalInt optionalInteger(String dottedPath) {
        JsonNode n = optionalNode(dottedPath);
        return n == null ? OptionalInt.empty() : OptionalInt.of(toInteger(dottedPath, n));
    }

    /**
     * Whether the user gave {@code dottedPath} (in a file, with {@code --set} or {@link #with}), even when the value
     * equals the default; e.g. a GPU-hour rate the user names prices the built-in model, the default does not.
     */
    public boolean given(String dottedPath) {
        JsonNode n = given;
        for (String p : dottedPath.split("\\.")) n = n.path(p);
        return !n.isMissingNode() && !n.isNull();
    }

    /** The node at a key that must have a value: every key of defaults.json has one. */
    private JsonNode present(String dottedPath) {
        JsonNode n = node(dottedPath);
        if (n.isMissingNode() || n.isNull()) {
            throw new ConfigException("config " + dottedPath + " has no value: "
                    + (schema.typeOf(dottedPath) == null ? "no such key (`gam config show` lists every key)"
                    : schema.optional(dottedPath) ? "it is optional; read it with an optional accessor"
                    : "defaults.json gives it none"));
        }
        return n;
    }

    /** The node at an optional key, or null when it is not set; a key that is not optional is refused, so a typo cannot read "not set". */
    private JsonNode optionalNode(String dottedPath) {
        if (!schema.optional(dottedPath)) {
            throw new ConfigException("config " + dottedPath + " is not an optional key (" + String.join(", ", ConfigSchema.optionalKeys())
                    + ", or a key under " + String.join(", ", ConfigSchema.FREE_SECTIONS) + ")");
        }
        JsonNode n = node(dottedPath);
        return n.isMissingNode() || n.isNull() ? null : n;
    }

    /**
     * A number the code reads from a section it takes as a tree (a price of {@code eval.prices}, an agent's scale), named
     * {@code dottedPath} in messages, under the same rules as {@link #number}: a JSON number or its text, finite.
     */
    public static double numberAt(String dottedPath, JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) throw new ConfigException("config " + dottedPath + " has no value: give a number");
        return toNumber(dottedPath, n);
    }

    private static double toNumber(String dottedPath, JsonNode n) {
        return numeric(dottedPath, n, JsonNode::asDouble, Double::parseDouble, "a number");
    }

    private static int toInteger(String dottedPath, JsonNode n) {
        return numeric(dottedPath, n, JsonNode::asInt, Integer::parseInt, "a whole number");
    }

    /**
     * A JSON number, or a string that parses as one; else an error naming the key and what was expected. NaN and
     * ±Infinity are refused here too ({@link ConfigSchema#nonFinite}), whatever put them in the configuration.
     */
    private static <N> N numeric(String dottedPath, JsonNode n, Function<JsonNode, N> fromNumber, Function<String, N> parse, String expected) {
        String notFinite = ConfigSchema.nonFinite(dottedPath, n);
        if (notFinite != null) throw new ConfigException("config " + notFinite);
        if (n.isNumber()) return fromNumber.apply(n);
        try {
            if (n.isTextual()) return parse.apply(n.asText().strip());
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("config " + dottedPath + " must be " + expected + ", got '" + n.asText() + "'");
    }

    /** The whole tree (a copy), e.g. to record in a trace. */
    public ObjectNode tree() { return root.deepCopy(); }

    /** A {@code --set} value as the configuration reads it: JSON when it parses (numbers, booleans, lists), else the text. */
    public static JsonNode parseValue(String v) {
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
