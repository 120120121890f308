package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: no process-global mutable state in main code. A static field is either final and holds a value nobody can
 * change, or it is state shared by every run in the process (one run's settings leaking into the next, tests that pass
 * alone and fail together). Refused: a non-final static field; a static final array; a collection or map that is not
 * unmodifiable; atomics, locks, concurrent maps, executors and other {@code java.util.concurrent} objects; string
 * builders, {@code Random}, {@code ThreadLocal}, {@code BitSet}, images and buffers; an object of ours with a field that
 * can change (non-final, or one of those types), directly or through an object of ours it holds (an array an object keeps
 * to itself is its business: only the static array itself is refused). Classes are read without running their initialisers,
 * except to look at the value a collection-typed field holds.
 */
class StaticStateTest {
    static final Path ROOT = PackageCyclesTest.ROOT;

    /** Shared on purpose, each with its reason. */
    static final Map<String, String> ALLOWED = Map.of(
            "dev.gamagent.util.Json.MAPPER", "one ObjectMapper configured in its initialiser and never reconfigured (Jackson: thread-safe once configured)");

    private static final Set<String> MUTABLE_JDK = Set.of("java.lang.StringBuilder", "java.lang.StringBuffer", "java.util.Random",
            "java.lang.ThreadLocal", "java.lang.InheritableThreadLocal", "java.util.BitSet", "java.util.Date",
            "java.awt.image.BufferedImage", "java.util.Calendar", "java.util.Properties");

    @Test void noStaticFieldInMainCodeHoldsMutableState() {
        List<String> problems = new ArrayList<>();
        int fields = 0;
        for (var e : ClassFiles.modules(ROOT).entrySet()) {
            for (String name : ClassFiles.classNames(e.getValue())) {
                Class<?> c = load(name);
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
                    fields++;
                    String id = name + "." + f.getName();
                    String why = mutable(f);
                    if (why != null && !ALLOWED.containsKey(id)) problems.add(e.getKey() + ": " + id + " — " + why);
                }
            }
        }
        assertThat(fields).as("static fields read").isGreaterThan(200);
        assertThat(problems).as("static fields holding mutable state in main code").isEmpty();
    }

    @Test void theRuleSeesEachKindOfMutableStaticAndPassesConstants() throws Exception {
        assertThat(mutable(Examples.class.getDeclaredField("counter"))).contains("non-final");
        assertThat(mutable(Examples.class.getDeclaredField("TABLE"))).contains("array");
        assertThat(mutable(Examples.class.getDeclaredField("CACHE"))).contains("modifiable");
        assertThat(mutable(Examples.class.getDeclaredField("COUNT"))).contains("java.util.concurrent");
        assertThat(mutable(Examples.class.getDeclaredField("HOLDER"))).contains("Holder.inner").contains("Inner.value");
        assertThat(mutable(Examples.class.getDeclaredField("NAMES"))).isNull();
        assertThat(mutable(Examples.class.getDeclaredField("LIMIT"))).isNull();
        assertThat(mutable(Examples.class.getDeclaredField("POINT"))).isNull();
    }

    @SuppressWarnings("unused")
    static final class Examples {
        static int counter;
        static final int[] TABLE = {1, 2};
        static final Map<String, String> CACHE = new java.util.HashMap<>();
        static final java.util.concurrent.atomic.AtomicLong COUNT = new java.util.concurrent.atomic.AtomicLong();
        static final Holder HOLDER = new Holder();
        static final List<String> NAMES = List.of("a");
        static final int LIMIT = 3;
        static final Point POINT = new Point(1, 2);
    }

    static final class Holder { final Inner inner = new Inner(); }
    static final class Inner { int value; }
    record Point(int x, int y) { }

    /** Why a static field holds mutable state, or null when it does not. */
    static String mutable(Field f) {
        if (!Modifier.isFinal(f.getModifiers())) return "a non-final static field";
        if (f.isEnumConstant()) return mutableFields(f.getType(), new java.util.HashSet<>());
        Class<?> t = f.getType();
        if (t.isArray()) return "an array (its elements can be written)";
        String jdk = mutableJdkType(t);
        if (jdk != null) return jdk;
        if (Collection.class.isAssignableFrom(t) || Map.class.isAssignableFrom(t)) {
            Object value = value(f);
            return value == null || unmodifiable(value.getClass()) ? null : "a modifiable " + value.getClass().getName();
        }
        if (t.getName().startsWith("dev.gamagent.")) {
            Class<?> actual = t;
            if (t.isInterface() || Modifier.isAbstract(t.getModifiers())) {
                Object value = value(f);
                if (value == null) return null;
                actual = value.getClass();
            }
            return mutableFields(actual, new java.util.HashSet<>());
        }
        return null;
    }

    private static String mutableJdkType(Class<?> t) {
        if (t.getName().startsWith("java.util.concurrent.")) return "a " + t.getName() + " (java.util.concurrent)";
        for (Class<?> c = t; c != null; c = c.getSuperclass()) if (MUTABLE_JDK.contains(c.getName())) return "a " + c.getName();
        if (java.nio.Buffer.class.isAssignableFrom(t)) return "a buffer";
        if (!t.isInterface() && (Collection.class.isAssignableFrom(t) || Map.class.isAssignableFrom(t)) && !unmodifiable(t)) {
            return "a " + t.getName();
        }
        return null;
    }

    /** An object of ours can change if one of its (inherited) instance fields can, or an object of ours it holds can. */
    private static String mutableFields(Class<?> type, Set<Class<?>> seen) {
        if (!seen.add(type)) return null;
        for (Class<?> c = type; c != null && c.getName().startsWith("dev.gamagent."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
                String field = c.getSimpleName() + "." + f.getName();
                if (!Modifier.isFinal(f.getModifiers())) return "an object whose field " + field + " is not final";
                String jdk = mutableJdkType(f.getType());
                if (jdk != null) return "an object whose field " + field + " is " + jdk;
                if (f.getType().getName().startsWith("dev.gamagent.") && !f.getType().isInterface()) {
                    String inner = mutableFields(f.getType(), seen);
                    if (inner != null) return "an object whose field " + field + " holds " + inner;
                }
            }
        }
        return null;
    }

    private static boolean unmodifiable(Class<?> c) {
        String n = c.getName();
        return n.startsWith("java.util.ImmutableCollections$") || n.startsWith("java.util.Collections$Unmodifiable")
                || n.startsWith("java.util.Collections$Empty") || n.startsWith("java.util.Collections$Singleton")
                || n.startsWith("java.util.KeyValueHolder");
    }

    private static Object value(Field f) {
        try {
            f.setAccessible(true);
            return f.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new AssertionError("cannot read " + f.getDeclaringClass().getName() + "." + f.getName() + ": " + e, e);
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, StaticStateTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new AssertionError("cannot load " + name + ": " + e, e);
        }
    }
}
