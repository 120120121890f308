package dev.gamagent.api;

import dev.gamagent.backend.Backend;
import dev.gamagent.config.Config;

import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * What a method needs to run: the default backend, the configuration (hyperparameters, prompt
 * overrides, per-agent backends), an executor for concurrent agent calls and a progress listener.
 * A {@link BackendResolver} maps an agent's configured backend name to a backend (a panel may mix models).
 */
public record RunContext(Backend backend, BackendResolver backends, Config config, ExecutorService executor,
                         ProgressListener progress) {
    public RunContext {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(executor, "executor");
        if (backends == null) backends = name -> backend;
        if (progress == null) progress = ProgressListener.NONE;
    }

    public RunContext withProgress(ProgressListener listener) {
        return new RunContext(backend, backends, config, executor, listener);
    }

    public RunContext withConfig(Config newConfig) {
        return new RunContext(backend, backends, newConfig, executor, progress);
    }

    /** Resolves a backend by the name an agent's config gives; null or blank gives the default backend. */
    @FunctionalInterface
    public interface BackendResolver {
        Backend resolve(String name);
    }

    public Backend backendFor(String name) {
        return name == null || name.isBlank() ? backend : backends.resolve(name);
    }
}
