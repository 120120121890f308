package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: no class cycle in any module's main code. A class is a top-level class with its nested classes; a
 * dependency is what the compiler recorded in the class file (a class reference, or a type in a field's or method's
 * descriptor or generic signature). PackageCyclesTest sees packages only; two classes of one package that need each
 * other are one design that reads as two, so each strongly connected set is named here with the edges that make it.
 */
class ClassCyclesTest {
    static final Path ROOT = PackageCyclesTest.ROOT;

    @Test void theMainCodeOfEveryModuleHasNoClassCycle() {
        Map<String, Path> modules = ClassFiles.modules(ROOT);
        assertThat(modules).as("compiled modules").containsKeys("gam-core", "gam-eval", "gam-local", "gam-server", "gam-cli");
        List<String> problems = new ArrayList<>();
        int classes = 0;
        for (var e : modules.entrySet()) {
            Map<String, Set<String>> graph = graph(e.getValue());
            classes += graph.size();
            for (List<String> c : components(graph)) if (c.size() > 1) problems.add(e.getKey() + ": " + describe(c, graph));
        }
        assertThat(classes).as("top-level classes read").isGreaterThan(300);
        assertThat(problems).as("class cycles in main code (break them: docs/architecture.md)").isEmpty();
    }

    @Test void aCycleThroughANestedTypeIsFoundAndNamed() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("a.A", new TreeSet<>(Set.of("a.B")));
        g.put("a.B", new TreeSet<>(Set.of("a.C")));
        g.put("a.C", new TreeSet<>(Set.of("a.A")));
        g.put("a.D", new TreeSet<>(Set.of("a.A")));
        List<List<String>> cyclic = components(g).stream().filter(c -> c.size() > 1).toList();
        assertThat(cyclic).containsExactly(List.of("a.A", "a.B", "a.C"));
        assertThat(describe(cyclic.get(0), g)).contains("a.A -> a.B -> a.C -> a.A");
    }

    @Test void nestedClassesCountAsTheirTopLevelClassAndDescriptorsAreRead() throws IOException {
        // a real class file: this test's own nested record names ClassFiles in a field descriptor
        assertThat(ClassFiles.topLevel("dev.gamagent.x.Outer$Inner$1")).isEqualTo("dev.gamagent.x.Outer");
        Path self = Path.of(Fixture.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .resolve(Fixture.class.getName().replace('.', '/') + ".class");
        assertThat(ClassFiles.references(Files.readAllBytes(self)))
                .contains("dev.gamagent.architecture.ClassCyclesTest", "dev.gamagent.architecture.PackageCyclesTest");
    }

    record Fixture(List<PackageCyclesTest> viaSignatureOnly) { }

    /** Class to the classes of the same module it depends on (itself excluded). */
    static Map<String, Set<String>> graph(Path classes) {
        List<String> names = ClassFiles.classNames(classes);
        Set<String> tops = new TreeSet<>();
        for (String n : names) tops.add(ClassFiles.topLevel(n));
        Map<String, Set<String>> g = new TreeMap<>();
        for (String n : names) {
            String from = ClassFiles.topLevel(n);
            Set<String> out = g.computeIfAbsent(from, k -> new TreeSet<>());
            try {
                for (String to : ClassFiles.references(Files.readAllBytes(classes.resolve(n.replace('.', '/') + ".class")))) {
                    if (!to.equals(from) && tops.contains(to)) out.add(to);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return g;
    }

    /** The component's members, then a shortest cycle through its first member: {@code A -> B -> A}. */
    static String describe(List<String> component, Map<String, Set<String>> g) {
        Set<String> in = Set.copyOf(component);
        String start = component.get(0);
        Map<String, String> parent = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        String last = null;
        while (!queue.isEmpty() && last == null) {
            String c = queue.poll();
            for (String n : g.getOrDefault(c, Set.of())) {
                if (!in.contains(n)) continue;
                if (n.equals(start)) { last = c; break; }
                if (parent.putIfAbsent(n, c) == null) queue.add(n);
            }
        }
        List<String> path = new ArrayList<>();
        for (String c = last; c != null && !c.equals(start); c = parent.get(c)) path.add(0, c);
        path.add(0, start);
        path.add(start);
        return "strongly connected " + component + "; e.g. " + String.join(" -> ", path);
    }

    /** Tarjan's strongly connected components, each sorted. */
    static List<List<String>> components(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<List<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : g.keySet()) if (!index.containsKey(v)) strongConnect(v, g, index, low, stack, onStack, out, counter);
        return out;
    }

    private static void strongConnect(String v, Map<String, Set<String>> g, Map<String, Integer> index, Map<String, Integer> low,
                                      Deque<String> stack, Set<String> onStack, List<List<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strongConnect(w, g, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> c = new ArrayList<>();
            String w;
            do { w = stack.pop(); onStack.remove(w); c.add(w); } while (!w.equals(v));
            c.sort(null);
            out.add(c);
        }
    }
}
