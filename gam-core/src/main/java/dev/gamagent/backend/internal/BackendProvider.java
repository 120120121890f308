package dev.gamagent.backend.internal;

import dev.gamagent.config.Config;
import dev.gamagent.backend.Backend;

/**
 * A kind of backend that lives in another module and is found with {@link java.util.ServiceLoader}: the
 * built-in model ({@code local}, in gam-local) registers one in {@code META-INF/services}. The core names
 * no such module, so its dependencies stay one-way.
 */
public interface BackendProvider {
    /** The name users give to {@code --backend}, e.g. {@code local}. */
    String kind();

    /** A backend of this kind, configured from {@code config}. */
    Backend create(Config config);
}
