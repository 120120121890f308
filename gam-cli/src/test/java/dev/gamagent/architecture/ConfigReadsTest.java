package dev.gamagent.architecture;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.config.internal.ConfigSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29, "one home per setting": every default value is in defaults.json. No main source file reads a setting
 * with a fallback of its own, and every setting the code names is a key of defaults.json or an optional one
 * ({@code ConfigSchema.OPTIONAL}), so a typo cannot silently read "not set".
 */
class ConfigReadsTest {
    private static final Path ROOT = PackageCyclesTest.ROOT;
    private static final Pattern COMMENT = Pattern.compile("//[^\\n]*|/\\*(?s:.*?)\\*/");
    /** A config accessor ({@code config.number(}, {@code p.integer(}, …) and where its arguments start. */
    private static final Pattern ACCESSOR = Pattern.compile("\\.(number|integer|string|bool)\\(");
    /** An optional setting read with a default of the code's own: {@code optionalInteger("k").orElse(3)}. */
    private static final Pattern OR_ELSE = Pattern.compile("\\.optional\\w+\\(\"[^\"]+\"\\)\\s*\\.orElse(Get)?\\((?!null\\))");
    /** A config node read with a default of the code's own: {@code config.node("gam.theta_term").asDouble(0.15)}. */
    private static final Pattern NODE_DEFAULT = Pattern.compile("\\.node\\(\"[^\"]+\"\\)\\s*\\.as(Int|Long|Double|Boolean|Text)\\(\\s*[^)\\s]");
    /** A setting named by a string: the first argument of an accessor, an optional accessor, node() or given(). */
    private static final Pattern KEY = Pattern.compile("\\.(number|integer|string|bool|optionalString|optionalInteger|node|given)\\(\\s*\"([^\"]*)\"\\s*[,)]");
    /** A setting named by a constant ({@code CONFIG_KEY = "eval.grading"}). */
    private static final Pattern KEY_CONSTANT = Pattern.compile("static final String \\w*(KEY|SETTING)\\w* = \"([^\"]+)\"");

    @Test void noMainSourceReadsASettingWithAFallbackOfItsOwn() {
        assertThat(fallbacks(mainSources())).as("settings read with a default outside defaults.json (give the key its value there)").isEmpty();
    }

    @Test void everySettingTheCodeNamesIsAKnownKey() {
        assertThat(unknownKeys(mainSources(), ConfigSchema.of(Config.defaults().tree())))
                .as("settings named in code that are neither in defaults.json nor optional (ConfigSchema.OPTIONAL)").isEmpty();
    }

    @Test void docsConfigurationListsEveryKeyWithItsDefault() throws IOException {
        Map<String, String> documented = new TreeMap<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z_.]+)` \\| `([^`]*)` \\|").matcher(Files.readString(ROOT.resolve("docs/configuration.md")));
        while (m.find()) documented.put(m.group(1), m.group(2));
        Map<String, String> defaults = new TreeMap<>();
        leaves("", Config.defaults().tree(), defaults);
        assertThat(documented).as("docs/configuration.md's table against defaults.json").isEqualTo(defaults);
    }

    private static void leaves(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isObject() && !n.isEmpty()) {
            n.fields().forEachRemaining(e -> leaves(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out));
        } else if (!prefix.equals("prompts")) {
            out.put(prefix, n.isArray() ? n.toString().replace(",", ", ") : n.toString());
        }
    }

    @TempDir Path dir;

    @Test void theScanFindsEachKindOfFallbackAndUnknownKey() throws IOException {
        {
            Path f = dir.resolve("Reads.java");
            Files.writeString(f, """
                    class Reads {
                        double a(Config c) { return c.number("gam.theta_term", 0.15); }
                        int b(Panel p) { return p.integer("rounds", 2); }
                        String c(Config c, String key) { return c.string(key, "semantic"); }
                        int d(Config c) { return c.optionalInteger("dream.agents").orElse(3); }
                        double e(Config c) { return c.node("gam.theta_u").asDouble(0.5); }
                        double f(Config c) { return c.number("gam.theta_trem"); }
                        String g(Config c) { return c.optionalString("gam.judge_backend").orElse(null) + c.number("gam.theta_term"); }
                    }
                    """);
            assertThat(fallbacks(List.of(f))).hasSize(5);
            assertThat(unknownKeys(List.of(f), ConfigSchema.of(Config.defaults().tree()))).singleElement().asString().contains("gam.theta_trem");
        }
    }

    static List<String> fallbacks(List<Path> files) {
        List<String> out = new ArrayList<>();
        for (Path f : files) {
            String code = code(f);
            Matcher m = ACCESSOR.matcher(code);
            while (m.find()) {
                if (hasSecondArgument(code, m.end())) out.add(where(f, code, m.start()));
            }
            for (Pattern p : List.of(OR_ELSE, NODE_DEFAULT)) {
                Matcher o = p.matcher(code);
                while (o.find()) out.add(where(f, code, o.start()));
            }
        }
        return out;
    }

    static List<String> unknownKeys(List<Path> files, ConfigSchema schema) {
        List<String> out = new ArrayList<>();
        for (Path f : files) {
            String code = code(f);
            for (Pattern p : List.of(KEY, KEY_CONSTANT)) {
                Matcher m = p.matcher(code);
                while (m.find()) {
                    String key = m.group(2);
                    if (!known(key, p == KEY && m.group(1).equals("node"), schema)) out.add(where(f, code, m.start()) + " names '" + key + "'");
                }
            }
        }
        return out;
    }

    /**
     * A dotted key of the schema (or under a free section); a key without a dot is one relative to a method's own
     * section ({@code Panel}: {@code p.integer("rounds")}), known when some section has it; {@code node()} may also
     * name a whole section.
     */
    private static boolean known(String key, boolean node, ConfigSchema schema) {
        if (schema.typeOf(key) != null) return true;
        if (key.equals("backends") || key.equals("prompts") || key.equals("runtime")) return true;
        List<String> keys = schema.keys();
        if (!key.contains(".")) {
            if (keys.stream().anyMatch(k -> k.endsWith("." + key))) return true;
        }
        return node && keys.stream().anyMatch(k -> k.startsWith(key + "."));
    }

    /** Whether the call whose arguments start at {@code from} has a second argument (a comma at its own depth). */
    private static boolean hasSecondArgument(String code, int from) {
        int depth = 0;
        boolean quoted = false;
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (quoted) {
                if (c == '\\') i++;
                else if (c == '"') quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) return false;
                depth--;
            } else if (c == ',' && depth == 0) {
                return true;
            }
        }
        return false;
    }

    private static String where(Path f, String code, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) if (code.charAt(i) == '\n') line++;
        int end = code.indexOf('\n', at);
        return (f.startsWith(ROOT) ? ROOT.relativize(f) : f.getFileName()) + ":" + line + ": "
                + code.substring(at, end < 0 ? code.length() : end).strip();
    }

    /** The file without comments (a comment may quote an old call), line breaks kept so line numbers hold. */
    private static String code(Path f) {
        String text;
        try {
            text = Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher m = COMMENT.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(m.group().replaceAll("[^\\n]", " ")));
        m.appendTail(sb);
        return sb.toString();
    }

    private static List<Path> mainSources() {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path m : modules.filter(p -> Files.isRegularFile(p.resolve("pom.xml")) && p.getFileName().toString().startsWith("gam-")).toList()) {
                Path base = m.resolve("src/main/java");
                if (!Files.isDirectory(base)) continue;
                try (Stream<Path> s = Files.walk(base)) {
                    s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(out::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out).as("main sources under " + ROOT.toAbsolutePath()).isNotEmpty();
        return out;
    }
}
