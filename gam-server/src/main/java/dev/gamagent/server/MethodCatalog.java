package dev.gamagent.server;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Method;

import java.util.List;

/** The methods the server offers as "models". The default asks {@link MethodRegistry} at every request. */
public interface MethodCatalog {
    List<String> names();

    /** @throws IllegalArgumentException for an unknown name, listing the known ones */
    Method create(String name);

    MethodCatalog REGISTRY = new MethodCatalog() {
        @Override public List<String> names() { return MethodRegistry.listed(); }

        @Override public Method create(String name) { return MethodRegistry.create(name); }
    };
}
