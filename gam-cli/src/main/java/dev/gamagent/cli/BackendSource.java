package dev.gamagent.cli;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;

/** Builds backends from specs; the CLI uses {@link BackendFactory}, tests may supply their own. */
@FunctionalInterface
public interface BackendSource {
    BackendSource FACTORY = BackendFactory::create;

    Backend create(BackendSpec spec, Config config);
}
