package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issues 29 and 40: the packages of gam-core a library user may import, and nothing else leaks. gam-core's module
 * descriptor exports them, and they hold at most {@link #CEILING} public top-level types. A program (docs/java-api.md, the
 * example under examples/java-api) uses only the exported packages and compiles as a module that requires gam-core; no
 * public signature of an exported type names a type of another package of ours; the HTTP backends' wire code in
 * {@code backend.internal} is used by the backends alone.
 */
class PublicApiTest {
    static final Path ROOT = PackageCyclesTest.ROOT;
    /** gam-core's compiled classes, module-info.class among them. */
    static final Path CORE_CLASSES = ROOT.resolve("gam-core/target/classes");
    /** The most public top-level types the exported packages may hold: a library surface as small as its job. */
    static final int CEILING = 45;

    /**
     * What a program may import, as gam-core's module descriptor exports it: the facade and the method names, the records
     * a method takes and returns with its events, images, the backends (a program may bring its own {@code Backend};
     * {@code TokenCount} is in {@code Answer}) and the configuration a {@code Method} reads through {@code RunContext}.
     */
    static final Set<String> EXPORTED = exportedPackages();

    /** The packages that may use the HTTP backends' wire code ({@link #WIRE}). */
    static final Set<String> MAY_USE_INTERNAL = Set.of("dev.gamagent.backend", "dev.gamagent.backend.internal");

    private static final Pattern OURS = Pattern.compile("\\bdev\\.gamagent(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");
    private static final Pattern CODE_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    /** An import of, or a qualified name of, the HTTP backends' wire code in {@code backend.internal}. */
    private static final Pattern WIRE = Pattern.compile(
            "\\bdev\\.gamagent\\.backend\\.internal\\.(CanonicalRequest|HttpTransport|RequestBody|WireAnswer|WireParse|\\*)\\b");
    /** Comments and string literals, which name packages without using them. */
    private static final Pattern NOT_CODE = Pattern.compile("//[^\\n]*|/\\*(?s:.*?)\\*/|\"(?:\\\\.|[^\"\\\\\\n])*\"");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    @Test void theExampleAndTheJavaApiPageUseOnlyTheExportedPackages() throws IOException {
        List<String> outside = new ArrayList<>();
        List<Path> example;
        try (Stream<Path> s = Files.walk(ROOT.resolve("examples/java-api/src"))) {
            example = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(example).as("the example's sources").isNotEmpty();
        for (Path f : example) outside.addAll(outsideExported(ROOT.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
        String page = Files.readString(ROOT.resolve("docs/java-api.md"), StandardCharsets.UTF_8);
        Matcher blocks = CODE_BLOCK.matcher(page);
        int n = 0;
        for (; blocks.find(); n++) outside.addAll(outsideExported("docs/java-api.md (java block " + (n + 1) + ")", blocks.group(1)));
        assertThat(n).as("java blocks in docs/java-api.md").isPositive();
        // the page's prose names types too (`dev.gamagent.backend.TokenCount`)
        outside.addAll(outsideExported("docs/java-api.md", page));
        assertThat(outside).as("types a program uses from packages that are not exported " + EXPORTED).isEmpty();
    }

    @Test void theJavaApiPageListsTheExportedPackages() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/java-api.md"), StandardCharsets.UTF_8);
        for (String p : EXPORTED) assertThat(page).as("docs/java-api.md names " + p).contains("`" + p + "`");
    }

    @Test void noPublicSignatureOfAnExportedTypeNamesATypeOfAnotherPackageOfOurs() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> c : exportedTypes()) {
            Set<Type> seen = new LinkedHashSet<>();
            if (c.getGenericSuperclass() != null) seen.add(c.getGenericSuperclass());
            seen.addAll(List.of(c.getGenericInterfaces()));
            check(leaks, c.getName() + " extends/implements", seen);
            for (Field f : c.getDeclaredFields()) {
                if (visible(f.getModifiers())) check(leaks, c.getName() + "." + f.getName(), Set.of(f.getGenericType()));
            }
            for (Method m : c.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic()) check(leaks, c.getName() + "." + m.getName() + "()", signature(m, m.getGenericReturnType()));
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (visible(k.getModifiers()) && !k.isSynthetic()) check(leaks, c.getName() + " constructor", signature(k, null));
            }
        }
        assertThat(leaks).as("public signatures of exported types that name a type of a package that is not exported").isEmpty();
    }

    @Test void gamCoresModuleExportsAtMostTheCeilingOfPublicTopLevelTypes() throws IOException {
        assertThat(EXPORTED).as("packages gam-core's module-info exports").contains("dev.gamagent", "dev.gamagent.api")
                .noneMatch(p -> p.contains(".internal"));
        List<String> types = new ArrayList<>();
        for (String p : new TreeSet<>(EXPORTED)) {
            try (Stream<Path> files = Files.list(CORE_CLASSES.resolve(p.replace('.', '/')))) {
                for (Path f : files.filter(x -> x.toString().endsWith(".class") && !x.getFileName().toString().contains("$")).sorted().toList()) {
                    String name = p + "." + f.getFileName().toString().replace(".class", "");
                    if (Modifier.isPublic(load(name).getModifiers())) types.add(name);
                }
            }
        }
        assertThat(types).as("public top-level types of the packages gam-core exports " + EXPORTED).hasSizeLessThanOrEqualTo(CEILING);
    }

    @Test void theExampleCompilesAsAModuleThatRequiresGamCoreAndAnInternalTypeDoesNot(@TempDir Path dir) throws IOException {
        Path example = ROOT.resolve("examples/java-api/src/main/java/example/AskExample.java");
        assertThat(compileAsModule(dir.resolve("ok"), example, null)).as("the example compiled as a module").isEmpty();
        String internal = "package example;\nclass UsesInternal { dev.gamagent.backend.internal.NamedBackends b; }\n";
        assertThat(compileAsModule(dir.resolve("hidden"), example, internal)).as("an internal type is not visible to a module")
                .contains("dev.gamagent.backend.internal").contains("not visible");
    }

    /** Compiles {@code source} (and {@code extra}, a second class) in a module that requires gam-core; the compiler's errors. */
    private static String compileAsModule(Path dir, Path source, String extra) throws IOException {
        Path src = dir.resolve("src/example");
        Files.createDirectories(src);
        Files.writeString(dir.resolve("src/module-info.java"), "module example { requires dev.gamagent.core; }\n");
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", dir.resolve("out").toString(),
                "--module-path", modulePath(), dir.resolve("src/module-info.java").toString(), source.toString()));
        if (extra != null) {
            Files.writeString(src.resolve("UsesInternal.java"), extra);
            args.add(src.resolve("UsesInternal.java").toString());
        }
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int rc = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, err, err, args.toArray(String[]::new));
        String out = err.toString(StandardCharsets.UTF_8);
        return rc == 0 ? "" : out.isEmpty() ? "javac exit " + rc : out;
    }

    /** gam-core's classes and the Jackson jars it requires transitively, from this test's class path. */
    private static String modulePath() {
        List<String> out = new ArrayList<>(List.of(CORE_CLASSES.toString()));
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.contains("jackson-databind") || e.contains("jackson-core") || e.contains("jackson-annotations")) out.add(e);
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    /** The packages gam-core's compiled module descriptor exports (unqualified exports only). */
    private static Set<String> exportedPackages() {
        var modules = java.lang.module.ModuleFinder.of(CORE_CLASSES).findAll();
        assertThat(modules).as("a module descriptor in " + CORE_CLASSES).hasSize(1);
        Set<String> out = new TreeSet<>();
        for (var e : modules.iterator().next().descriptor().exports()) if (!e.isQualified()) out.add(e.source());
        return Set.copyOf(out);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublicApiTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("no class for " + name, e);
        }
    }

    @Test void onlyTheBackendsUseTheWireCodeOfBackendInternal() {
        List<String> users = new ArrayList<>();
        for (Path f : CodebaseRulesTest.sources("src/main/java", "src/test/java")) {
            String text = CodebaseRulesTest.read(f);
            Matcher pkg = PACKAGE.matcher(text);
            String p = pkg.find() ? pkg.group(1) : "";
            String code = NOT_CODE.matcher(text).replaceAll(" ");
            if (!MAY_USE_INTERNAL.contains(p) && WIRE.matcher(code).find()) users.add(ROOT.relativize(f).toString());
        }
        assertThat(users).as("classes outside " + MAY_USE_INTERNAL + " that use the wire code of dev.gamagent.backend.internal").isEmpty();
    }

    /** The public types of the exported packages, nested public types included. */
    static List<Class<?>> exportedTypes() {
        List<Class<?>> out = new ArrayList<>();
        Path main = ROOT.resolve("gam-core/src/main/java");
        for (String p : new TreeSet<>(EXPORTED)) {
            Path dir = main.resolve(p.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).sorted().toList()) {
                    String name = f.getFileName().toString().replace(".java", "");
                    addPublic(out, Class.forName(p + "." + name));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ClassNotFoundException e) {
                throw new AssertionError("no class for " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static void addPublic(List<Class<?>> out, Class<?> c) {
        if (!Modifier.isPublic(c.getModifiers())) return;
        out.add(c);
        for (Class<?> n : c.getDeclaredClasses()) addPublic(out, n);
    }

    private static boolean visible(int modifiers) { return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers); }

    private static Set<Type> signature(Executable e, Type returns) {
        Set<Type> out = new LinkedHashSet<>(List.of(e.getGenericParameterTypes()));
        out.addAll(List.of(e.getGenericExceptionTypes()));
        if (returns != null) out.add(returns);
        return out;
    }

    private static void check(List<String> leaks, String where, Set<Type> types) {
        Set<Class<?>> named = new LinkedHashSet<>();
        for (Type t : types) collect(t, named, new LinkedHashSet<>());
        for (Class<?> k : named) {
            String p = k.getPackageName();
            if (p.startsWith("dev.gamagent") && !EXPORTED.contains(p)) leaks.add(where + " names " + k.getName());
        }
    }

    private static void collect(Type t, Set<Class<?>> out, Set<Type> visiting) {
        if (!visiting.add(t)) return;
        if (t instanceof Class<?> c) {
            while (c.isArray()) c = c.getComponentType();
            if (!c.isPrimitive()) out.add(c);
        } else if (t instanceof ParameterizedType p) {
            collect(p.getRawType(), out, visiting);
            for (Type a : p.getActualTypeArguments()) collect(a, out, visiting);
        } else if (t instanceof GenericArrayType g) {
            collect(g.getGenericComponentType(), out, visiting);
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) collect(b, out, visiting);
            for (Type b : w.getLowerBounds()) collect(b, out, visiting);
        } else if (t instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) collect(b, out, visiting);
        }
    }

    /** The names of our types that {@code text} uses (imports and qualified names) outside the exported packages. */
    static List<String> outsideExported(String where, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = OURS.matcher(text);
        while (m.find()) {
            String name = m.group();
            String p = name.substring(0, name.lastIndexOf('.'));
            // a nested type's outer class is not a package: dev.gamagent.Gam.Builder is in dev.gamagent
            while (!p.isEmpty() && Character.isUpperCase(p.charAt(p.lastIndexOf('.') + 1))) p = p.substring(0, p.lastIndexOf('.'));
            if (!EXPORTED.contains(p)) out.add(where + ": " + name);
        }
        return out;
    }
}
