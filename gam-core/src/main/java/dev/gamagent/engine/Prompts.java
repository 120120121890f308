package dev.gamagent.engine;

import dev.gamagent.config.Config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prompt templates: resource {@code /prompts/NAME.txt}, overridable from config ({@code prompts.NAME}
 * holds either the template text or {@code @/path/to/file}). Placeholders are {@code {{key}}}; an unknown
 * placeholder is an error naming the template, so a typo in a user's override is caught at once.
 */
public final class Prompts {
    private static final Pattern VAR = Pattern.compile("\\{\\{\\s*([a-zA-Z0-9_.]+)\\s*}}");
    private final Config config;

    public Prompts(Config config) { this.config = config; }

    /**
     * The raw template text, read once per configuration ({@link Config#derived}): a method makes its Prompts per
     * question, and reading the jar's template again each time cost 7–10 % of a call's client CPU (docs/performance.md).
     */
    public String template(String name) {
        return config.derived("prompts/" + name, String.class, k -> load(name));
    }

    /** Renders a template with the given values. */
    public String render(String name, Map<String, ?> values) {
        String t = template(name);
        Matcher m = VAR.matcher(t);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String key = m.group(1);
            if (!values.containsKey(key)) {
                throw new IllegalArgumentException("prompt template '" + name + "' uses {{" + key + "}} but only "
                        + values.keySet() + " are given");
            }
            Object v = values.get(key);
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? "" : v.toString()));
        }
        m.appendTail(sb);
        return sb.toString().strip();
    }

    public boolean exists(String name) {
        if (!config.node("prompts." + name).isMissingNode()) return true;
        return Prompts.class.getResource("/prompts/" + name + ".txt") != null;
    }

    private String load(String name) {
        String override = config.optionalString("prompts." + name).orElse(null);
        if (override != null) {
            if (override.startsWith("@")) {
                try {
                    return java.nio.file.Files.readString(java.nio.file.Path.of(override.substring(1)));
                } catch (IOException e) {
                    throw new Config.ConfigException("prompt override prompts." + name + " names file "
                            + override.substring(1) + " which cannot be read: " + e.getMessage());
                }
            }
            return override;
        }
        return resource(name);
    }

    private static String resource(String name) {
        try (InputStream in = Prompts.class.getResourceAsStream("/prompts/" + name + ".txt")) {
            if (in == null) throw new IllegalArgumentException("no prompt template named '" + name + "'");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read prompt template " + name, e);
        }
    }
}
