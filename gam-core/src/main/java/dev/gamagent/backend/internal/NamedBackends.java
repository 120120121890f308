package dev.gamagent.backend.internal;

import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;

/**
 * The backends a run can use, by name: {@code default} (the command line's backend), {@code local} (the
 * built-in model, always there), every entry of the {@code backends} config section ({@link BackendEntry}) and the
 * backends a program registers by name ({@link #with}, {@code Gam.Builder.backend(name, backend)}: e.g. a LangChain4j
 * model through gam-langchain4j, which no config entry can describe).
 * Named backends are built on first use, so an entry the run never uses needs no key and no server. A name
 * that is not configured is an error listing the configured ones. Closing closes what this object built.
 */
public final class NamedBackends implements BackendResolver, AutoCloseable {
    private final Backend defaultBackend;
    private final BackendSpec defaultSpec;
    private final boolean defaultIsLocal;
    private final boolean ownsDefault;
    private final Map<String, BackendEntry> entries;
    private final Config config;
    private final BiFunction<BackendSpec, Config, Backend> factory;
    private final Map<String, Backend> given;
    private final Map<String, Backend> built = new HashMap<>();

    private NamedBackends(Backend defaultBackend, BackendSpec defaultSpec, boolean ownsDefault, Map<String, BackendEntry> entries,
                          Config config, BiFunction<BackendSpec, Config, Backend> factory, Map<String, Backend> given) {
        this.given = given;
        this.defaultBackend = defaultBackend;
        this.defaultSpec = defaultSpec;
        this.defaultIsLocal = defaultSpec != null && defaultSpec.kind().equals("local");
        this.ownsDefault = ownsDefault;
        this.entries = entries;
        this.config = config;
        this.factory = factory;
    }

    /**
     * The command line's backend ({@code commandLine}) as {@code default}, plus the built-in model and the
     * configured entries, all built with {@code factory}. The entries are checked here (fields, types, names).
     */
    public static NamedBackends open(BackendSpec commandLine, Config config, BiFunction<BackendSpec, Config, Backend> factory) {
        Map<String, BackendEntry> entries = BackendEntry.all(config, commandLine);
        Backend d = factory.apply(commandLine, config);
        return new NamedBackends(d, commandLine, true, entries, config, factory, Map.of());
    }

    /**
     * {@code backend} as {@code default} (closed by {@link #close()}), plus the built-in model and the configured
     * entries, built with {@code factory}; {@code settings} gives the entries' timeout, retries and requests in flight
     * where they leave them out (the library's own backend, {@code Gam.Builder.backend}).
     */
    public static NamedBackends around(Backend backend, BackendSpec settings, Config config, BiFunction<BackendSpec, Config, Backend> factory) {
        Map<String, BackendEntry> entries = BackendEntry.all(config, settings);
        return new NamedBackends(backend, null, true, entries, config, factory, Map.of());
    }

    /** Only {@code backend}, as {@code default} (not closed by {@link #close()}); e.g. for tests and the library. */
    public static NamedBackends of(Backend backend) {
        return new NamedBackends(backend, null, false, Map.of(), null, null, Map.of());
    }

    /**
     * These backends plus {@code backends}, by name, which agents may name as they name a config entry; closing this object
     * closes them. A name must be one an entry could have, and neither reserved nor configured already.
     *
     * @throws Config.ConfigException naming the name that cannot be used, and why
     */
    public NamedBackends with(Map<String, Backend> backends) {
        Map<String, Backend> all = new java.util.LinkedHashMap<>(given);
        for (var e : backends.entrySet()) {
            String name = e.getKey();
            String where = "backend '" + name + "' (registered by the program)";
            if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
                throw new Config.ConfigException(where + ": a backend name is letters, digits, '-' and '_' (it is typed in agent lists)");
            }
            if (BackendEntry.RESERVED.contains(name)) throw new Config.ConfigException(where + ": '" + name + "' is reserved; pick another name");
            if (entries.containsKey(name) || all.containsKey(name)) {
                throw new Config.ConfigException(where + ": the name is taken (" + (entries.containsKey(name) ? "config backends." + name : "registered twice")
                        + "); pick another name");
            }
            all.put(name, java.util.Objects.requireNonNull(e.getValue(), "backend " + name));
        }
        return new NamedBackends(defaultBackend, defaultSpec, ownsDefault, entries, config, factory, java.util.Collections.unmodifiableMap(all));
    }

    public Backend defaultBackend() { return defaultBackend; }

    /** The configured entries, by name, in file order. */
    public Map<String, BackendEntry> entries() { return entries; }

    /** Every name an agent may use: {@code default}, {@code local} (when available), then the entries. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        out.add(DEFAULT_BACKEND);
        if (factory != null || defaultIsLocal) out.add("local");
        out.addAll(entries.keySet());
        out.addAll(given.keySet());
        return out;
    }

    public boolean knows(String name) {
        return name == null || name.isBlank() || names().contains(name);
    }

    /** The backend named {@code name}, built on first use. */
    @Override public synchronized Backend resolve(String name) {
        if (name == null || name.isBlank() || name.equals(DEFAULT_BACKEND)) return defaultBackend;
        if (!knows(name)) throw new IllegalArgumentException(unknown(name));
        if (name.equals("local") && defaultIsLocal) return defaultBackend;
        Backend g = given.get(name);
        if (g != null) return g;
        Backend b = built.get(name);
        if (b != null) return b;
        if (name.equals("local")) {
            b = factory.apply(BackendSpec.local(), config);
        } else {
            BackendEntry e = entries.get(name);
            if (e.spec().kind().equals("local") && e.spec().record() == null) return resolve("local");
            Config c = e.maxTopLogprobs() == null ? config : config.with("backend.max_top_logprobs", Integer.toString(e.maxTopLogprobs()));
            try {
                b = factory.apply(e.spec(), c);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("backend '" + name + "' (config backends." + name + "): " + ex.getMessage(), ex);
            }
            if (!e.logprobs()) b = new WithoutLogprobs(b);
        }
        built.put(name, b);
        return b;
    }

    /**
     * How the backend named {@code name} is built (kind, endpoints, model), e.g. for a run's identity; null for a
     * backend given as an object rather than a spec ({@link #of}, {@link #around}, {@link #with}).
     *
     * @throws IllegalArgumentException for a name that is not configured, listing the known ones
     */
    public BackendSpec spec(String name) {
        if (name == null || name.isBlank() || name.equals(DEFAULT_BACKEND)) return defaultSpec;
        if (!knows(name)) throw new IllegalArgumentException(unknown(name));
        if (name.equals("local")) return defaultIsLocal ? defaultSpec : BackendSpec.local();
        BackendEntry e = entries.get(name);
        return e == null ? null : e.spec();
    }

    /** What {@code name} is, for messages: its kind, endpoints and model (never a key). */
    public String describe(String name) {
        if (name == null || name.isBlank() || name.equals(DEFAULT_BACKEND)) return "the command line's backend, " + defaultBackend.name();
        if (name.equals("local")) return "the built-in model";
        if (given.containsKey(name)) return "registered by the program, " + given.get(name).name();
        BackendEntry e = entries.get(name);
        return e == null ? "not configured" : e.describe();
    }

    /**
     * Fails when a configuration key names a backend that is not configured.
     *
     * @param refs config key → backend name, e.g. {@code gam.experts[0].backend → vllm-a}
     * @throws Config.ConfigException listing each bad reference and the known names
     */
    public void requireKnown(Map<String, String> refs) {
        List<String> bad = new ArrayList<>();
        for (var r : refs.entrySet()) {
            if (!knows(r.getValue())) bad.add(r.getKey() + " = '" + r.getValue() + "'");
        }
        if (bad.isEmpty()) return;
        throw new Config.ConfigException("unknown backend name" + (bad.size() > 1 ? "s" : "") + ": " + String.join(", ", bad)
                + "; known backends: " + String.join(", ", names())
                + " (define more under \"backends\" in the --config file, or with --set backends.NAME.kind=...)");
    }

    /** The environment variables holding the configured entries' API keys (their values must be kept out of every output). */
    public List<String> keyVariables() {
        List<String> out = new ArrayList<>();
        for (BackendEntry e : entries.values()) {
            String v = e.spec().apiKeyEnv() != null ? e.spec().apiKeyEnv() : switch (e.spec().kind()) {
                case "openai" -> "OPENAI_API_KEY";
                case "ollama" -> "OLLAMA_API_KEY";
                case "gemini" -> "GEMINI_API_KEY";
                case "anthropic" -> "ANTHROPIC_API_KEY";
                default -> null;
            };
            if (v != null && !out.contains(v)) out.add(v);
        }
        return out;
    }

    private String unknown(String name) {
        return "unknown backend '" + name + "'; known backends: " + String.join(", ", names())
                + " (define more under \"backends\" in the --config file)";
    }

    @Override public synchronized void close() {
        List<Backend> all = new ArrayList<>(built.values());
        built.clear();
        for (Backend b : all) b.close();
        for (Backend b : given.values()) b.close();
        if (ownsDefault) defaultBackend.close();
    }

    /** A backend never asked for log-probs (an entry with {@code "logprobs": false}): uncertainty comes from the text. */
    private static final class WithoutLogprobs implements Backend {
        private final Backend inner;

        WithoutLogprobs(Backend inner) { this.inner = inner; }

        @Override public String name() { return inner.name(); }

        @Override public Capabilities capabilities() { return inner.capabilities().withLogprobs(false, 0); }

        @Override public ChatResult chat(ChatRequest request) { return inner.chat(request.withLogprobs(false, 0)); }

        @Override public Backend withOwnCaches() {
            Backend v = inner.withOwnCaches();
            return v == inner ? this : new WithoutLogprobs(v);
        }

        @Override public void close() { inner.close(); }
    }
}
