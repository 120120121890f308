package dev.gamagent.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.config.internal.ConfigSchema;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import dev.gamagent.backend.BackendSpec;

/**
 * One entry of the {@code backends} config section: a backend by name, with the fields of the backend flags
 * ({@code kind}, {@code base_urls}, {@code model}, {@code api_key_env}, {@code timeout}, {@code retries},
 * {@code max_concurrent}, {@code image_tokens}, {@code record}, {@code replay}) and its log-prob settings
 * ({@code max_top_logprobs}: the server's top-k limit; {@code logprobs}: false = never ask it for log-probs).
 * Keys themselves never appear here: {@code api_key_env} names the environment variable holding one.
 *
 * @param maxTopLogprobs the server's top-k limit, or null for {@code backend.max_top_logprobs}
 */
public record BackendEntry(String name, BackendSpec spec, Integer maxTopLogprobs, boolean logprobs) {
    /** The kinds an entry may have (the values of {@code --backend}). */
    public static final List<String> KINDS = List.of("local", "openai", "ollama", "gemini", "anthropic", "replay");
    /** Names that are not configured but always there: the command line's backend and the built-in model. */
    public static final List<String> RESERVED = List.of("default", "local");

    private static final List<String> FIELDS = List.copyOf(ConfigSchema.BACKEND_FIELDS.keySet());

    /**
     * Every entry of {@code config}'s {@code backends} section, in file order. Fields an entry leaves out take
     * the command line's value for {@code timeout}, {@code retries} and {@code max_concurrent}, else their defaults.
     *
     * @throws Config.ConfigException naming the entry and field for an unknown field, a wrong type or a reserved name
     */
    public static Map<String, BackendEntry> all(Config config, BackendSpec commandLine) {
        JsonNode section = config.node("backends");
        Map<String, BackendEntry> out = new LinkedHashMap<>();
        if (section.isMissingNode() || section.isNull()) return out;
        if (!section.isObject()) {
            throw new Config.ConfigException("config 'backends' must be an object of name → backend, e.g. "
                    + "{\"vllm-a\": {\"kind\": \"openai\", \"base_urls\": [\"http://127.0.0.1:8000/v1\"]}}; got " + section);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            var e = it.next();
            out.put(e.getKey(), parse(e.getKey(), e.getValue(), commandLine));
        }
        return out;
    }

    static BackendEntry parse(String name, JsonNode n, BackendSpec commandLine) {
        String where = "backends." + name;
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
            throw new Config.ConfigException(where + ": a backend name is letters, digits, '-' and '_' (it is typed in agent lists)");
        }
        if (RESERVED.contains(name)) {
            throw new Config.ConfigException(where + ": '" + name + "' is reserved (" + (name.equals("local")
                    ? "the built-in model is always available as 'local'" : "'default' is the backend given on the command line")
                    + "); pick another name");
        }
        if (!n.isObject()) throw new Config.ConfigException(where + " must be an object with at least \"kind\", got " + n);
        for (Iterator<String> f = n.fieldNames(); f.hasNext(); ) {
            String field = f.next();
            if (FIELDS.contains(field)) continue;
            if (field.equals("api_key") || field.equals("key")) {
                throw new Config.ConfigException(where + "." + field + ": API keys are read from environment variables only; "
                        + "put the key in a variable and name it with \"api_key_env\"");
            }
            String near = ConfigSchema.nearestField(field);
            throw new Config.ConfigException(where + ": unknown field '" + field + "'" + (near == null ? "" : "; did you mean '" + near + "'?")
                    + " (fields: " + String.join(", ", FIELDS) + ")");
        }
        String kind = text(n, where, "kind");
        if (kind == null) throw new Config.ConfigException(where + ": \"kind\" is required, one of " + String.join(", ", KINDS));
        kind = kind.strip().toLowerCase(Locale.ROOT);
        if (!KINDS.contains(kind)) throw new Config.ConfigException(where + ".kind: '" + kind + "' is not one of " + String.join(", ", KINDS));
        List<String> urls = new ArrayList<>();
        JsonNode u = n.get("base_urls");
        if (u != null && !u.isNull()) {
            if (u.isTextual()) urls.add(u.asText());
            else if (u.isArray()) {
                for (JsonNode x : u) {
                    if (!x.isTextual()) throw new Config.ConfigException(where + ".base_urls must hold strings (URLs), got " + x);
                    urls.add(x.asText());
                }
            } else throw new Config.ConfigException(where + ".base_urls must be a URL or a list of URLs, got " + u);
        }
        for (String url : urls) {
            if (!url.strip().startsWith("http://") && !url.strip().startsWith("https://")) {
                throw new Config.ConfigException(where + ".base_urls: '" + url + "' must start with http:// or https://");
            }
        }
        double timeout = number(n, where, "timeout", commandLine.timeout().toMillis() / 1000.0);
        if (!(timeout > 0)) throw new Config.ConfigException(where + ".timeout must be > 0 seconds, got " + timeout);
        int retries = whole(n, where, "retries", commandLine.maxRetries(), 0);
        int maxConcurrent = whole(n, where, "max_concurrent", commandLine.maxConcurrent(), 1);
        Integer maxTop = n.has("max_top_logprobs") ? whole(n, where, "max_top_logprobs", 0, 1) : null;
        JsonNode lp = n.get("logprobs");
        if (lp != null && !lp.isBoolean()) throw new Config.ConfigException(where + ".logprobs must be true or false, got " + lp);
        String record = text(n, where, "record"), replay = text(n, where, "replay");
        if (kind.equals("replay") && replay == null) {
            throw new Config.ConfigException(where + ": kind 'replay' needs \"replay\": a file written with --record or \"record\"");
        }
        BackendSpec spec = new BackendSpec(kind, urls, text(n, where, "model"), text(n, where, "api_key_env"),
                Duration.ofMillis(Math.round(timeout * 1000)), retries, maxConcurrent, record == null ? null : Path.of(record),
                replay == null ? null : Path.of(replay), text(n, where, "image_tokens"));
        return new BackendEntry(name, spec, maxTop, lp == null || lp.asBoolean());
    }

    /** A short description for messages: kind, endpoints and model (never a key). */
    public String describe() {
        StringBuilder sb = new StringBuilder(spec.kind());
        if (!spec.baseUrls().isEmpty()) sb.append(" at ").append(String.join(", ", spec.baseUrls()));
        if (spec.model() != null) sb.append(", model ").append(spec.model());
        return sb.toString();
    }

    private static String text(JsonNode n, String where, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual() || v.asText().isBlank()) throw new Config.ConfigException(where + "." + field + " must be a non-empty string, got " + v);
        return v.asText().strip();
    }

    private static double number(JsonNode n, String where, String field, double fallback) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return fallback;
        if (!v.isNumber()) throw new Config.ConfigException(where + "." + field + " must be a number, got " + v);
        return Config.numberAt(where + "." + field, v);
    }

    private static int whole(JsonNode n, String where, String field, int fallback, int min) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return fallback;
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < min) {
            throw new Config.ConfigException(where + "." + field + " must be a whole number >= " + min + ", got " + v);
        }
        return v.asInt();
    }
}
