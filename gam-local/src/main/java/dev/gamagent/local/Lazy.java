package dev.gamagent.local;

import java.util.function.Supplier;

/** A value computed once, on first use; concurrent first uses wait for one computation. */
final class Lazy<T> {
    private final Supplier<T> compute;
    private volatile T value;

    Lazy(Supplier<T> compute) { this.compute = compute; }

    T get() {
        T v = value;
        if (v != null) return v;
        synchronized (this) {
            if (value == null) value = compute.get();
            return value;
        }
    }

    /** The value if it has been computed, else null (computes nothing). */
    T loaded() { return value; }
}
