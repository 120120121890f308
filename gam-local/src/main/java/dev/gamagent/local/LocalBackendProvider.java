package dev.gamagent.local;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.BackendProvider;
import dev.gamagent.config.Config;

/** Registers the built-in model as {@code --backend local} with the core's backend factory. */
public final class LocalBackendProvider implements BackendProvider {
    @Override public String kind() { return "local"; }

    @Override public Backend create(Config config) { return LocalBackend.create(config); }
}
