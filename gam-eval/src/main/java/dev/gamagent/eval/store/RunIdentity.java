package dev.gamagent.eval.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What makes the records of a run comparable: the data file's content (SHA-256), the backend, the model,
 * the judge and every configuration value that can change an answer or a grade. It is stored with the
 * results; a run resumed into the same directory must have the same identity, so records of two models
 * or two files are never mixed under one summary.
 *
 * @param settings the flattened configuration ({@code gam.theta_term} → {@code 0.15}) without the keys that
 *                 cannot change answers ({@link #IGNORED})
 */
public record RunIdentity(String data, String dataSha256, String backend, String model, String judge,
                          Map<String, String> settings) {
    /** Configuration that changes limits, retries, prices or the server, never an answer or a grade. */
    static final List<String> IGNORED = List.of("server", "eval.prices", "eval.gpu_hour_rate", "image", "runtime", "local.cache_entries", "trace",
            "backend.retry_base_ms", "backend.retry_max_ms", "backend.retry_after_cap_ms", "backend.endpoint_cooldown_ms", "backend.timeout_s", "backend.retries", "backend.max_concurrent");

    public RunIdentity {
        settings = settings == null ? Map.of() : new TreeMap<>(settings);
    }

    /**
     * The identity of evaluating {@code dataFile} with {@code backend} (its kind), {@code model} (null when the
     * server names its own), an optional judge description and {@code config}.
     */
    public static RunIdentity of(Path dataFile, String backend, String model, String judge, Config config) {
        return of(dataFile.getFileName().toString(), sha256(dataFile), backend, model, judge, config);
    }

    /** As {@link #of(Path, String, String, String, Config)} with the data's hash already taken (the loader's one read of the file). */
    public static RunIdentity of(String dataName, String dataSha256, String backend, String model, String judge, Config config) {
        return new RunIdentity(dataName, dataSha256, backend, model == null ? "(the server's own)" : model, judge, settings(config));
    }

    /** Each leaf of the configuration as dotted key → JSON text, minus {@link #IGNORED}. */
    static Map<String, String> settings(Config config) {
        Map<String, String> out = new TreeMap<>();
        flatten("", config.tree(), out);
        out.keySet().removeIf(k -> IGNORED.stream().anyMatch(i -> k.equals(i) || k.startsWith(i + ".")));
        return out;
    }

    private static void flatten(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isObject() && n.size() > 0) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                var e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else if (!prefix.isEmpty()) {
            // "0.1" and 0.1 given by --set must compare equal
            out.put(prefix, n.isTextual() ? n.asText() : n.toString());
        }
    }
public 
    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) md.update(buf, 0, n);
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + file + " to hash it: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no SHA-256", e);
        }
    }

    /**
     * What differs from {@code stored}, one entry per difference, e.g. "model: a → b"; empty when they match. A
     * setting the stored identity lacks is no difference when its value now is today's default (a key added to
     * defaults.json since, e.g. {@code backend.max_reply_mb}); at any other value it is one.
     */
    public List<String> differencesFrom(RunIdentity stored) {
        List<String> out = new ArrayList<>();
        if (!stored.dataSha256().equals(dataSha256)) {
            out.add("data file: " + stored.data() + " (sha256 " + shortHash(stored.dataSha256()) + ") → " + data
                    + " (sha256 " + shortHash(dataSha256) + ")");
        }
        diff(out, "backend", stored.backend(), backend);
        diff(out, "model", stored.model(), model);
        diff(out, "judge", stored.judge(), judge);
        TreeSet<String> keys = new TreeSet<>(stored.settings().keySet());
        keys.addAll(settings.keySet());
        for (String k : keys) {
            // a key added to defaults.json after the run was stored: at today's default it is what that run used
            if (!stored.settings().containsKey(k) && settings.get(k).equals(Defaults.SETTINGS.get(k))) continue;
            diff(out, "setting " + k, stored.settings().get(k), settings.get(k));
        }
        return out;
    }

    /** Today's default settings, read once when a stored identity is first compared. */
    private static final class Defaults {
        static final Map<String, String> SETTINGS = Collections.unmodifiableMap(settings(Config.defaults()));
    }

    private static void diff(List<String> out, String what, String before, String now) {
        if (!java.util.Objects.equals(before, now)) out.add(what + ": " + show(before) + " → " + show(now));
    }

    private static String show(String v) { return v == null ? "(none)" : v; }

    private static String shortHash(String h) { return h.length() > 12 ? h.substring(0, 12) : h; }

    public String toJson() { return Json.write(this); }

    public static RunIdentity fromJson(String json) {
        try {
            return Json.MAPPER.readValue(json, RunIdentity.class);
        } catch (IOException e) {
            throw new IllegalStateException("the stored run identity cannot be read (" + e.getMessage() + ")", e);
        }
    }
}
