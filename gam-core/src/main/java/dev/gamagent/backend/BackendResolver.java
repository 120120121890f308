package dev.gamagent.backend;

/**
 * Resolves a backend by the name an agent's config gives (a panel may mix models); unknown names throw, naming
 * the known ones. It lives with the backends so that they need nothing from the method API above them.
 */
@FunctionalInterface
public interface BackendResolver {
    /** The name of the run's default backend (the command line's) in agent configurations, traces and tallies. */
    String DEFAULT_BACKEND = "default";

    Backend resolve(String name);
}
