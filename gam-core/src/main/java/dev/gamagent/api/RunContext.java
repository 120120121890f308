package dev.gamagent.api;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * What a method needs to run: the default backend, the configuration (hyperparameters, prompt
 * overrides, per-agent backends), an executor for concurrent agent calls and a progress listener.
 * A {@link BackendResolver} maps an agent's configured backend name to a backend (a panel may mix models);
 * without one, only the default backend exists and any other name is an error. {@code scales} is DREAM's
 * assignment of image scales to the inner method's agents ({@link AgentScales#NONE} outside DREAM).
 */
public record RunContext(Backend backend, BackendResolver backends, Config config, ExecutorService executor,
                         ProgressListener progress, AgentScales scales) {
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
        if (scales == null) scales = AgentScales.NONE;
    }

    /** A context without DREAM's assignment: every agent sees the images at its own scale. */
    public RunContext(Backend backend, BackendResolver backends, Config config, ExecutorService executor, ProgressListener progress) {
        this(backend, backends, config, executor, progress, AgentScales.NONE);
    }

    /**
     * DREAM's assignment for the method it wraps: {@code perAgent} holds the scales of each agent index (several scales:
     * the agent receives each image at each scale, MixRes; an index past the list takes the last entry) and {@code note}
     * the sentence every debate prompt appends ("" for none). {@link #NONE}: no assignment.
     */
    public record AgentScales(List<List<Double>> perAgent, String note) {
        public static final AgentScales NONE = new AgentScales(List.of(), "");

        public AgentScales {
            perAgent = perAgent.stream().map(List::copyOf).toList();
            note = note == null ? "" : note;
        }

        /** The scales agent {@code index} sees: its entry of the assignment, else {@code own} alone. */
        public List<Double> of(int index, double own) {
            if (perAgent.isEmpty()) return List.of(own);
            List<Double> mine = perAgent.get(Math.min(index, perAgent.size() - 1));
            return mine.isEmpty() ? List.of(own) : mine;
        }

        public boolean assigned() { return !perAgent.isEmpty(); }
    }

    public RunContext withProgress(ProgressListener listener) {
        return new RunContext(backend, backends, config, executor, listener, scales);
    }

    public RunContext withConfig(Config newConfig) {
        return new RunContext(backend, backends, newConfig, executor, progress, scales);
    }

    /** The same context with DREAM's assignment of image scales to the agents. */
    public RunContext withScales(AgentScales assignment) {
        return new RunContext(backend, backends, config, executor, progress, assignment);
    }

    /**
     * The same context with every backend it resolves counted in {@code meter} under the name it was asked for
     * ({@link #label}), the name the trace records for the agent.
     */
    public RunContext metered(UsageMeter meter) {
        Backend d = meter.wrap(DEFAULT_BACKEND, backend);
        BackendResolver inner = backends;
        return new RunContext(d, name -> DEFAULT_BACKEND.equals(label(name)) ? d : meter.wrap(name, inner.resolve(name)),
                config, executor, progress, scales);
    }

    public Backend backendFor(String name) {
        return name == null || name.isBlank() ? backend : backends.resolve(name);
    }

    /** The name a trace records for an agent configured with {@code name} (null or blank: the default backend). */
    public static String label(String name) {
        return name == null || name.isBlank() ? DEFAULT_BACKEND : name;
    }
}
