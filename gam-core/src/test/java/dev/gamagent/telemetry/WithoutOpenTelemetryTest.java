package dev.gamagent.telemetry;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43: opentelemetry-api is an optional dependency of gam-core. With it hidden from the class loader, a GAM question
 * runs as before: the presence check is the only lookup of an OpenTelemetry class, and no class of ours that names one
 * is loaded.
 */
class WithoutOpenTelemetryTest {
    /** Loads our classes itself (so they see only what it lets through) and refuses every OpenTelemetry class. */
    static final class Hiding extends ClassLoader {
        final List<String> refused = Collections.synchronizedList(new ArrayList<>());

        Hiding(ClassLoader parent) { super(parent); }

        boolean findLoadedClassForTest(String name) { return findLoadedClass(name) != null; }

        @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.opentelemetry.")) {
                refused.add(name);
                throw new ClassNotFoundException(name + " (hidden by the test)");
            }
            if (!name.startsWith("dev.gamagent.")) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) throw new ClassNotFoundException(name);
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }

    @Test void aGamQuestionRunsWithoutOpenTelemetryOnTheClassPath() throws Exception {
        Hiding loader = new Hiding(getClass().getClassLoader());
        Object result = Class.forName("dev.gamagent.telemetry.AskWithoutTracing", true, loader).getMethod("ask").invoke(null);
        assertThat(result).asString().startsWith("tracing=false answer=").contains(" rounds=");
        assertThat(loader.refused).as("OpenTelemetry classes looked up").containsExactly("io.opentelemetry.api.GlobalOpenTelemetry");
        assertThat(loader.findLoadedClassForTest("dev.gamagent.telemetry.OtelQuestionSpan")).isFalse();

        // the same run with OpenTelemetry on the class path does load it
        assertThat(AskWithoutTracing.ask()).startsWith("tracing=true ");
    }
}
