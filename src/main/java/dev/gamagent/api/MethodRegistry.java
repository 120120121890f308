package dev.gamagent.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every method by the name users type. {@code dream+<method>} wraps any debate method. Unknown names
 * get an error listing the known ones.
 */
public final class MethodRegistry {
    private static final Map<String, Supplier<Method>> METHODS = new LinkedHashMap<>();

    static {
        METHODS.put("single", dev.gamagent.baseline.SingleMethod::new);
        METHODS.put("gam", dev.gamagent.gam.GamMethod::new);
    }

    private MethodRegistry() { }

    public static Method create(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("no method named; known: " + names());
        String n = name.strip().toLowerCase(java.util.Locale.ROOT);
        Supplier<Method> s = METHODS.get(n);
        if (s != null) return s.get();
        throw new IllegalArgumentException("unknown method '" + name + "'; known: " + String.join(", ", names()));
    }

    public static List<String> names() { return List.copyOf(METHODS.keySet()); }
}
