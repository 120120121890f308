package dev.gamagent.config.internal;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The configuration keys the code reads, with their types: every key of {@code defaults.json} (its type from
 * the default value) plus the {@link #OPTIONAL} keys, whose absence means "not set". A user file or {@code --set}
 * naming any other key is an error that suggests the nearest known key. To add a key, give it its default in
 * {@code defaults.json} (the one home of every default value), or, when no value means something, add it to
 * {@link #OPTIONAL}; a section whose keys are free (user-chosen names) goes in {@link #FREE_SECTIONS}.
 */
public final class ConfigSchema {
    /** What a key holds; {@code check} returns null when the value fits, else what was expected. */
    public enum Type {
        NUMBER("a number"), INTEGER("a whole number"), BOOLEAN("true or false"), STRING("a string"),
        LIST("a list, e.g. [\"a\",\"b\"]"), NUMBER_LIST("a list of numbers, e.g. [0.5,1,2]"), OBJECT("a JSON object"),
        ANY("any value");

        private final String expected;

        Type(String expected) { this.expected = expected; }

        public String expected() { return expected; }

        /** Whether the key holds numbers, to which {@link #nonFinite} applies. */
        public boolean numeric() { return this == NUMBER || this == INTEGER || this == NUMBER_LIST; }

        boolean fits(JsonNode v) {
            return switch (this) {
                case NUMBER -> v.isNumber() || (v.isTextual() && parses(v.asText(), false));
                case INTEGER -> v.isIntegralNumber() || (v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))
                        || (v.isTextual() && parses(v.asText(), true));
                case BOOLEAN -> v.isBoolean() || (v.isTextual() && List.of("true", "false").contains(v.asText().toLowerCase(Locale.ROOT)));
                case STRING -> v.isTextual() || v.isNumber() || v.isBoolean();
                case LIST -> v.isArray();
                case NUMBER_LIST -> {
                    if (!v.isArray()) yield false;
                    for (JsonNode x : v) if (!x.isNumber()) yield false;
                    yield true;
                }
                case OBJECT -> v.isObject();
                case ANY -> true;
            };
        }

        private static boolean parses(String s, boolean integer) {
            try {
                if (integer) Long.parseLong(s.strip()); else Double.parseDouble(s.strip());
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    /**
     * Keys whose absence means something ("not set": a judge backend that is not named, agents given by experts and
     * critics, no prices, the trace database in the user's state directory, every agent on the default backend), so
     * they have no value in defaults.json. Code reads them only with {@code Config}'s optional accessors, which refuse
     * any other key; every other key has its default in defaults.json (docs/configuration.md).
     */
    static final Map<String, Type> OPTIONAL = Map.ofEntries(
            Map.entry("gam.agents", Type.LIST), Map.entry("gam.judge_backend", Type.STRING),
            Map.entry("dream.agents", Type.INTEGER), Map.entry("dream.probe_temperature", Type.NUMBER),
            Map.entry("eval.prices", Type.OBJECT), Map.entry("server.trace_db", Type.STRING),
            // a persona for the direct-answer baseline (docs/local-model.md, "Roles"); absent: none
            Map.entry("single.role", Type.STRING),
            // one backend name per agent of each method (docs/methods.md)
            Map.entry("single.backends", Type.LIST), Map.entry("cot.backends", Type.LIST), Map.entry("sc.backends", Type.LIST),
            Map.entry("vote.backends", Type.LIST), Map.entry("debate.backends", Type.LIST),
            Map.entry("self_debate.backends", Type.LIST), Map.entry("mad.backends", Type.LIST),
            Map.entry("dmad.backends", Type.LIST), Map.entry("chateval.backends", Type.LIST),
            Map.entry("debunc.backends", Type.LIST), Map.entry("dwi.backends", Type.LIST));

    /**
     * Keys that accept more than their default's type: host and origin lists may also be given as "a,b" with
     * {@code --set} (issue 13).
     */
    static final Map<String, Type> WIDER_TYPES = Map.of("server.allowed_hosts", Type.ANY, "server.cors_origins", Type.ANY);

    /**
     * The fields of one entry of the {@code backends} section, whose entry names the user chooses
     * ({@code backends.vlm-large.kind}); read by {@code backend.BackendEntry}.
     */
    public static final Map<String, Type> BACKEND_FIELDS = backendFields();

    private static Map<String, Type> backendFields() {
        Map<String, Type> f = new LinkedHashMap<>();
        f.put("kind", Type.STRING);
        f.put("base_urls", Type.ANY); // one URL or a list
        f.put("model", Type.STRING);
        f.put("api_key_env", Type.STRING);
        f.put("timeout", Type.NUMBER);
        f.put("retries", Type.INTEGER);
        f.put("max_concurrent", Type.INTEGER);
        f.put("image_tokens", Type.STRING);
        f.put("record", Type.STRING);
        f.put("replay", Type.STRING);
        f.put("max_top_logprobs", Type.INTEGER);
        f.put("logprobs", Type.BOOLEAN);
        return java.util.Collections.unmodifiableMap(f);
    }

    /** Sections whose keys the user names: prompt templates by name; {@code runtime} is set by DREAM, not by users. */
    public static final List<String> FREE_SECTIONS = List.of("prompts", "runtime");

    private final Map<String, Type> keys;

    private ConfigSchema(Map<String, Type> keys) { this.keys = keys; }

    /** The schema of the given defaults plus {@link #OPTIONAL}. */
    public static ConfigSchema of(JsonNode defaults) {
        Map<String, Type> k = new LinkedHashMap<>();
        collect("", defaults, k);
        k.putAll(WIDER_TYPES);
        OPTIONAL.forEach(k::putIfAbsent);
        return new ConfigSchema(k);
    }

    /**
     * Whether {@code key} may be absent: one of {@link #OPTIONAL}, or a key under a free section (a prompt template
     * the user did not override).
     */
    public boolean optional(String key) {
        if (OPTIONAL.containsKey(key)) return true;
        for (String f : FREE_SECTIONS) if (key.startsWith(f + ".")) return true;
        return false;
    }

    /** The keys that have no value in defaults.json, sorted. */
    public static List<String> optionalKeys() { return List.copyOf(new TreeSet<>(OPTIONAL.keySet())); }

    private static void collect(String prefix, JsonNode n, Map<String, Type> out) {
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            var e = it.next();
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            JsonNode v = e.getValue();
            if (FREE_SECTIONS.contains(key)) continue;
            if (v.isObject()) collect(key, v, out);
            else out.put(key, typeOf(v));
        }
    }

    private static Type typeOf(JsonNode v) {
        if (v.isBoolean()) return Type.BOOLEAN;
        if (v.isIntegralNumber()) return Type.INTEGER;
        if (v.isNumber()) return Type.NUMBER;
        if (v.isArray()) return !v.isEmpty() && v.get(0).isNumber() ? Type.NUMBER_LIST : Type.LIST;
        return Type.STRING;
    }

    /** The type of a known key, or null. Keys under a free section are {@link Type#ANY}. */
    public Type typeOf(String key) {
        for (String f : FREE_SECTIONS) if (key.equals(f) || key.startsWith(f + ".")) return Type.ANY;
        return keys.get(key);
    }

    /** Every known key, sorted. */
    public List<String> keys() { return List.copyOf(new TreeSet<>(keys.keySet())); }

    /**
     * What is wrong with one value given by the user at {@code key} ({@code where}: "--set", or the file), in one line
     * naming it, or null when it is fine; an object at a section is checked key by key. (The caller throws: the schema
     * names no type of the configuration it describes.)
     */
    public String problem(String key, JsonNode value, String where) {
        if (key.equals("backends") || key.startsWith("backends.")) return backendProblem(key, value, where);
        Type t = typeOf(key);
        if (t == null && value.isObject() && isSection(key)) {
            Iterator<Map.Entry<String, JsonNode>> it = value.fields();
            while (it.hasNext()) {
                var e = it.next();
                String p = problem(key.isEmpty() ? e.getKey() : key + "." + e.getKey(), e.getValue(), where);
                if (p != null) return p;
            }
            return null;
        }
        if (t == null) return unknown(key, where);
        return valueProblem(key, t, value, where);
    }

    /** A value of a known type: a non-finite number first ({@link #nonFinite}), then the type. */
    private static String valueProblem(String key, Type t, JsonNode value, String where) {
        String notFinite = t.numeric() ? nonFinite(key, value) : null;
        if (notFinite != null) return where + ": " + notFinite;
        if (t == Type.OBJECT && !value.isObject() || !t.fits(value)) {
            return where + ": " + key + " must be " + t.expected() + ", got " + show(value);
        }
        return null;
    }

    /**
     * The one rule for numbers in settings, whatever gave them (a file, {@code --set}, a recipe, the code): NaN and
     * ±Infinity, as numbers or as their text ({@code NaN}, {@code Infinity}, {@code -Infinity}, {@code 1e999}), are no
     * setting — every formula that reads one would turn NaN silently. Returns what is wrong, naming the key ("gam.lambda
     * must be a finite number, got 'NaN'"), or null when {@code v} holds no such number (a list: none of its elements).
     */
    public static String nonFinite(String key, JsonNode v) {
        if (v == null) return null;
        if (v.isArray()) {
            for (JsonNode x : v) if (nonFinite(key, x) != null) return key + " must hold finite numbers only, got " + show(v);
            return null;
        }
        double d;
        if (v.isNumber()) {
            d = v.asDouble();
        } else if (v.isTextual()) {
            try {
                d = Double.parseDouble(v.asText().strip());
            } catch (NumberFormatException notANumber) {
                return null; // not a number at all: the type's check says so
            }
        } else {
            return null;
        }
        return Double.isFinite(d) ? null : key + " must be a finite number, got " + (v.isNumber() ? Double.toString(d) : show(v));
    }

    /** The {@code backends} section: entry names are free, each entry's fields are {@link #BACKEND_FIELDS}. */
    private static String backendProblem(String key, JsonNode value, String where) {
        String[] parts = key.split("\\.", 3);
        if (parts.length < 3) {
            String what = parts.length == 1 ? "backends" : key;
            if (!value.isObject()) {
                return where + ": " + what + " must be " + (parts.length == 1
                        ? "an object of name → backend, e.g. {\"vlm-large\": {\"kind\": \"openai\"}}" : "an object with \"kind\"") + ", got " + show(value);
            }
            Iterator<Map.Entry<String, JsonNode>> it = value.fields();
            while (it.hasNext()) {
                var e = it.next();
                String p = backendProblem(what + "." + e.getKey(), e.getValue(), where);
                if (p != null) return p;
            }
            return null;
        }
        String field = parts[2];
        Type t = BACKEND_FIELDS.get(field);
        if (field.equals("api_key") || field.equals("key")) {
            // the message leaves out where it came from: a --set names the value, and the value is a key
            return "config " + key + ": API keys are read from environment variables only; "
                    + "put the key in a variable and name it with 'api_key_env'";
        }
        if (t == null) {
            String hint = nearestField(field) == null ? "fields: " + String.join(", ", BACKEND_FIELDS.keySet())
                    : "did you mean '" + nearestField(field) + "'?";
            return where + ": unknown backend field '" + key + "'; " + hint;
        }
        return valueProblem(key, t, value, where);
    }

    /** The backend field a typo most likely meant, or null. */
    public static String nearestField(String field) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String f : BACKEND_FIELDS.keySet()) {
            int d = distance(field, f);
            if (d < bestD) { bestD = d; best = f; }
        }
        return bestD <= Math.max(2, field.length() / 3) ? best : null;
    }

    private boolean isSection(String key) {
        if (key.isEmpty()) return true;
        for (String k : keys.keySet()) if (k.startsWith(key + ".")) return true;
        return false;
    }

    private String unknown(String key, String where) {
        String near = nearest(key);
        StringBuilder sb = new StringBuilder(where).append(": unknown configuration key '").append(key).append("'");
        if (near != null) sb.append("; did you mean '").append(near).append("'?");
        else sb.append("; sections: ").append(String.join(", ", sections()));
        return sb.append(" (`gam config show` lists every key)").toString();
    }

    private List<String> sections() {
        TreeSet<String> s = new TreeSet<>(FREE_SECTIONS);
        s.add("backends");
        for (String k : keys.keySet()) s.add(k.contains(".") ? k.substring(0, k.indexOf('.')) : k);
        return new ArrayList<>(s);
    }

    /** The known key closest in edit distance, when close enough to be a plausible typo. */
    String nearest(String key) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String k : keys.keySet()) {
            int d = distance(key, k);
            if (d < bestD) { bestD = d; best = k; }
        }
        return best != null && bestD <= Math.max(2, key.length() / 3) ? best : null;
    }

    /** Edit distance where an adjacent transposition ('trem' for 'term') counts as one edit (optimal string alignment). */
    static int distance(String a, String b) {
        return dev.gamagent.util.EditDistance.withTranspositions(a, b);
    }

    private static String show(JsonNode v) {
        String s = v.isTextual() ? "'" + v.asText() + "'" : v.toString();
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
