package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.config.Config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The secrets a {@code gam} command line can reach, for the one {@link SecretScrubber} of the process: keys in the
 * variables the backends read by default and in every {@code *_API_KEY} variable, in the variables named by
 * {@code --api-key-env}, {@code --server-key-env} and the config's {@code backends.*.api_key_env}, and keys written
 * into base URLs ({@code --base-url}, {@code backends.*.base_urls}).
 */
final class ProcessSecrets {
    private ProcessSecrets() { }

    /** From a command line before it is parsed (a file or override that does not parse is left to the command to report). */
    static SecretScrubber of(List<String> args, Map<String, String> env) {
        List<String> vars = new ArrayList<>(), urls = new ArrayList<>();
        Path config = null;
        Map<String, String> sets = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), name = a, value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else {
                value = i + 1 < args.size() ? args.get(i + 1) : null;
            }
            if (value == null) continue;
            switch (name) {
                case "--api-key-env", "--server-key-env" -> vars.add(value);
                case "--base-url" -> urls.add(value);
                case "--config" -> config = Path.of(value);
                case "--set" -> {
                    int e = value.indexOf('=');
                    if (e > 0) sets.put(value.substring(0, e), value.substring(e + 1));
                }
                default -> { }
            }
        }
        Config c;
        try {
            c = Config.defaults().withFile(config).withOverrides(sets);
        } catch (RuntimeException e) {
            c = null;
        }
        if (c != null) fromBackends(c, vars, urls);
        return SecretScrubber.of(env, vars, urls);
    }

    /** For a command that has parsed its options: its backend's and the configured backends' keys, and {@code more} variables. */
    static SecretScrubber of(BackendSpec commandLine, Config config, NamedBackends backends, List<String> moreVars) {
        List<String> vars = new ArrayList<>(moreVars), urls = new ArrayList<>(commandLine.baseUrls());
        if (commandLine.apiKeyEnv() != null) vars.add(commandLine.apiKeyEnv());
        if (backends != null) vars.addAll(backends.keyVariables());
        fromBackends(config, vars, urls);
        return SecretScrubber.of(System.getenv(), vars, urls);
    }

    private static void fromBackends(Config c, List<String> vars, List<String> urls) {
        JsonNode backends = c.node("backends");
        if (!backends.isObject()) return;
        for (JsonNode b : backends) {
            if (b.path("api_key_env").isTextual()) vars.add(b.get("api_key_env").asText());
            JsonNode u = b.path("base_urls");
            if (u.isTextual()) urls.add(u.asText());
            else if (u.isArray()) u.forEach(x -> urls.add(x.asText()));
        }
    }
}
