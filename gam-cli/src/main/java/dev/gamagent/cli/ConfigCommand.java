package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gam config show}: the effective configuration, one key per line, with where each value came from. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Show the effective configuration.",
        subcommands = ConfigCommand.Show.class)
public final class ConfigCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: use `gam config show`");
    }

    /** Prints {@code key = value   (source)} for every key of the effective configuration. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print every configuration key with its effective value and where it came from (default, --config FILE, --set).")
    static final class Show implements Callable<Integer> {
        @Mixin
        BackendOptions backendOptions;

        @Override public Integer call() throws IOException {
            Config effective = backendOptions.config(); // validates the file and the --set values first
            Map<String, String> source = new LinkedHashMap<>();
            leaves("", Config.defaults().tree(), "default", source);
            if (backendOptions.config != null) {
                leaves("", Json.MAPPER.readTree(backendOptions.config.toFile()), backendOptions.config.toString(), source);
            }
            for (var e : backendOptions.overrides.entrySet()) {
                String key = e.getKey().strip();
                source.keySet().removeIf(k -> k.startsWith(key + "."));
                leaves(key, effective.node(key), "--set", source);
            }
            Map<String, String> values = new LinkedHashMap<>();
            leavesValues("", effective.tree(), values);
            int w = values.keySet().stream().mapToInt(String::length).max().orElse(10);
            int vw = Math.min(48, values.values().stream().mapToInt(String::length).max().orElse(10));
            StringBuilder sb = new StringBuilder();
            for (var e : values.entrySet()) {
                sb.append(String.format(java.util.Locale.ROOT, "%-" + w + "s = %-" + vw + "s  (%s)%n", e.getKey(), e.getValue(),
                        source.getOrDefault(e.getKey(), "default")));
            }
            System.out.print(sb);
            return 0;
        }

        /** Marks every leaf under {@code n} as coming from {@code from}; an empty object is a leaf too. */
        private static void leaves(String prefix, JsonNode n, String from, Map<String, String> out) {
            if (n.isObject() && !n.isEmpty()) {
                Iterator<Map.Entry<String, JsonNode>> it = n.fields();
                while (it.hasNext()) {
                    var e = it.next();
                    leaves(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), from, out);
                }
            } else {
                out.put(prefix, from);
            }
        }

        private static void leavesValues(String prefix, JsonNode n, Map<String, String> out) {
            if (n.isObject() && !n.isEmpty()) {
                Iterator<Map.Entry<String, JsonNode>> it = n.fields();
                while (it.hasNext()) {
                    var e = it.next();
                    leavesValues(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
                }
            } else {
                out.put(prefix, n.isTextual() ? n.asText() : n.toString());
            }
        }
    }
}
