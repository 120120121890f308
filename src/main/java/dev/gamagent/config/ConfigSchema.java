package dev.gamagent.config;

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
 * the default value) plus the keys below that have no default. A user file or {@code --set} naming any
 * other key is an error that suggests the nearest known key. To add a section (e.g. {@code backends}),
 * give it defaults in {@code defaults.json}, or add its keys to {@link #WITHOUT_DEFAULTS}; a section whose
 * keys are free (user-chosen names) goes in {@link #FREE_SECTIONS}.
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

    /** Keys the code reads that have no value in defaults.json. */
    static final Map<String, Type> WITHOUT_DEFAULTS = Map.ofEntries(
            Map.entry("gam.agents", Type.LIST), Map.entry("gam.judge_backend", Type.STRING),
            Map.entry("dream.agents", Type.INTEGER), Map.entry("dream.probe_temperature", Type.NUMBER),
            Map.entry("eval.prices", Type.OBJECT), Map.entry("eval.numeric_tolerance", Type.NUMBER),
            Map.entry("eval.gpu_hour_rate", Type.NUMBER),
            Map.entry("server.allowed_image_hosts", Type.LIST), Map.entry("server.trace_db", Type.STRING),
            Map.entry("server.max_body_mb", Type.NUMBER), Map.entry("server.max_image_megapixels", Type.NUMBER),
            Map.entry("server.max_in_flight", Type.INTEGER), Map.entry("server.trace_retention", Type.INTEGER),
            Map.entry("local.cache_entries", Type.INTEGER), Map.entry("image.max_megapixels", Type.NUMBER),
            Map.entry("backend.endpoint_cooldown_ms", Type.INTEGER), Map.entry("backend.max_top_logprobs", Type.INTEGER),
            Map.entry("backend.retry_after_cap_ms", Type.INTEGER), Map.entry("backend.retry_base_ms", Type.INTEGER),
            Map.entry("backend.retry_max_ms", Type.INTEGER));

    /** Sections whose keys the user names: prompt templates by name; {@code runtime} is set by DREAM, not by users. */
    static final List<String> FREE_SECTIONS = List.of("prompts", "runtime");

    private final Map<String, Type> keys;

    private ConfigSchema(Map<String, Type> keys) { this.keys = keys; }

    /** The schema of the given defaults plus {@link #WITHOUT_DEFAULTS}. */
    public static ConfigSchema of(JsonNode defaults) {
        Map<String, Type> k = new LinkedHashMap<>();
        collect("", defaults, k);
        WITHOUT_DEFAULTS.forEach(k::putIfAbsent);
        return new ConfigSchema(k);
    }

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
     * Checks one value given by the user at {@code key} ({@code where}: "--set", or the file); an object at a
     * section is checked key by key.
     */
    public void check(String key, JsonNode value, String where) {
        Type t = typeOf(key);
        if (t == null && value.isObject() && isSection(key)) {
            Iterator<Map.Entry<String, JsonNode>> it = value.fields();
            while (it.hasNext()) {
                var e = it.next();
                check(key.isEmpty() ? e.getKey() : key + "." + e.getKey(), e.getValue(), where);
            }
            return;
        }
        if (t == null) throw new Config.ConfigException(unknown(key, where));
        if (t == Type.OBJECT && !value.isObject() || !t.fits(value)) {
            throw new Config.ConfigException(where + ": " + key + " must be " + t.expected() + ", got " + show(value));
        }
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
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    private static String show(JsonNode v) {
        String s = v.isTextual() ? "'" + v.asText() + "'" : v.toString();
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
