package dev.gamagent.backend;

import dev.gamagent.config.Config;

/** Builds a backend (with its resilience, recording and load-balancing wrappers) from a {@link BackendSpec}. */
public final class BackendFactory {
    private BackendFactory() { }

    public static Backend create(BackendSpec spec, Config config) {
        switch (spec.kind()) {
            case "local": return dev.gamagent.local.LocalBackend.create(config);
            default:
                throw new IllegalArgumentException("unknown backend '" + spec.kind()
                        + "'; known: local, openai, ollama, gemini, anthropic, replay");
        }
    }
}
