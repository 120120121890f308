package dev.gamagent.api;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * What a method needs to run: the default backend, the configuration (hyperparameters, prompt
 * overrides, per-agent backends), an executor for concurrent agent calls and a progress listener.
 * A {@link BackendResolver} maps an agent's configured backend name to a backend (a panel may mix models);
 * without one, only the default backend exists and any other name is an error. {@code tags} are values a method
 * hands to the method it wraps, by their type (as OkHttp's request tags), e.g. DREAM's assignment of image scales to
 * the inner method's agents; none by default.
 */
public record RunContext(Backend backend, BackendResolver backends, Config config, ExecutorService executor,
                         ProgressListener progress, Map<Class<?>, Object> tags) {
    /** The name of the run's default backend (the command line's) in agent configurations, traces and tallies. */
    public static final String DEFAULT_BACKEND = BackendResolver.DEFAULT_BACKEND;

    public RunContext {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(executor, "executor");
        if (backends == null) backends = name -> {
            if (DEFAULT_BACKEND.equals(name)) return backend;
            throw new IllegalArgumentException("unknown backend '" + name + "': this run has only the default backend "
                    + "(configure named backends in the 'backends' section of the --config file)");
        };
        if (progress == null) progress = ProgressListener.NONE;
        tags = tags == null ? Map.of() : Map.copyOf(tags);
        for (var e : tags.entrySet()) {
            if (!e.getKey().isInstance(e.getValue())) {
                throw new IllegalArgumentException("tag " + e.getKey().getName() + " holds a " + e.getValue().getClass().getName());
            }
        }
    }

    /** A context without tags. */
    public RunContext(Backend backend, BackendResolver backends, Config config, ExecutorService executor, ProgressListener progress) {
        this(backend, backends, config, executor, progress, Map.of());
    }

    /** The tag of type {@code type}, if a wrapping method set one. */
    public <T> Optional<T> tag(Class<T> type) { return Optional.ofNullable(type.cast(tags.get(type))); }

    /** The same context with {@code value} as its tag of type {@code type} (replacing one of that type). */
    public <T> RunContext withTag(Class<T> type, T value) {
        Map<Class<?>, Object> t = new HashMap<>(tags);
        t.put(type, Objects.requireNonNull(value, "value"));
        return new RunContext(backend, backends, config, executor, progress, t);
    }

    public RunContext withProgress(ProgressListener listener) {
        return new RunContext(backend, backends, config, executor, listener, tags);
    }

    public RunContext withConfig(Config newConfig) {
        return new RunContext(backend, backends, newConfig, executor, progress, tags);
    }

    /**
     * The same context with every backend it resolves counted in {@code meter} under the name it was asked for
     * ({@link #label}), the name the trace records for the agent.
     */
    public RunContext metered(UsageMeter meter) {
        Backend d = meter.wrap(DEFAULT_BACKEND, backend);
        BackendResolver inner = backends;
        return new RunContext(d, name -> DEFAULT_BACKEND.equals(label(name)) ? d : meter.wrap(name, inner.resolve(name)),
                config, executor, progress, tags);
    }

    public Backend backendFor(String name) {
        return name == null || name.isBlank() ? backend : backends.resolve(name);
    }

    /** The name a trace records for an agent configured with {@code name} (null or blank: the default backend). */
    public static String label(String name) {
        return name == null || name.isBlank() ? DEFAULT_BACKEND : name;
    }
}
