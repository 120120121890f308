package dev.gamagent.local;

import dev.gamagent.config.Config;

/**
 * The real engines of {@link LocalBackend#create} (PP-OCRv4, PP-OCRv3 loaded on first use, the classical analyser and
 * the core segmenter) loaded once per test JVM, instead of once per test class: loading the OCR networks costs about
 * half a second of CPU each time. Never closed (the JVM's exit releases them).
 */
final class RealEngines {
    private static final Lazy<LocalBackend> ENGINES = new Lazy<>(() -> LocalBackend.create(Config.defaults()));

    private RealEngines() { }

    /**
     * A backend as {@code LocalBackend.create(Config.defaults())} makes it, over the JVM's engines, with a perception
     * cache of its own (empty: nothing perceived by another class is reused). Closing it leaves the engines open.
     */
    static LocalBackend backend() { return (LocalBackend) ENGINES.get().withOwnCaches(); }
}
