package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16: the packages of every module's main code form no cycle, so each layer builds on the ones below
 * (docs/architecture.md). A package here is {@code dev.gamagent.<name>} with its subpackages folded in
 * ({@code backend.internal} is part of {@code backend}, {@code local.ocr} of {@code local}); the root package
 * {@code dev.gamagent} (the facade {@code Gam}) is one of its own. A dependency is an import or a fully
 * qualified name in code (comments and string literals do not count).
 */
class PackageCyclesTest {
    static final Path ROOT = Path.of(System.getProperty("gam.root", "."));
    static final String ROOT_PACKAGE = "dev.gamagent";

    @TempDir Path dir;

    @Test void theMainCodeOfEveryModuleHasNoPackageCycle() {
        List<Path> sources = moduleSources(ROOT);
        assertThat(sources).as("modules listed in pom.xml").hasSizeGreaterThanOrEqualTo(5);
        Graph g = Graph.scan(sources);
        // the scan sees the code: without these the test could pass on an empty graph
        assertThat(g.edges().keySet()).contains("api", "backend", "gam", "cli");
        assertThat(g.edges().get("cli").keySet()).contains("api", "backend", "eval", "server", "local");
        assertThat(g.cycles()).as("package cycles in the main code (break them: docs/architecture.md)").isEmpty();
    }

    @Test void aCycleIsFoundAndNamedWithTheFilesThatMakeIt() throws IOException {
        Path src = dir.resolve("m/src/main/java/dev/gamagent");
        write(src.resolve("a/A.java"), "package dev.gamagent.a;\nimport dev.gamagent.b.B;\nclass A { B b; }\n");
        write(src.resolve("b/B.java"), "package dev.gamagent.b;\nclass B { dev.gamagent.c.sub.C c; }\n");
        write(src.resolve("c/sub/C.java"), "package dev.gamagent.c.sub;\nclass C { Object o = dev.gamagent.a.A.class; }\n");
        // only comments and strings name d: no edge to it, so d stays out of the cycle
        write(src.resolve("d/D.java"), "package dev.gamagent.d;\nclass D { }\n");
        write(src.resolve("a/A2.java"), "package dev.gamagent.a;\n// dev.gamagent.d.D\nclass A2 { String s = \"dev.gamagent.d.D\"; }\n");
        write(src.resolve("d/D2.java"), "package dev.gamagent.d;\nimport static dev.gamagent.a.A.*;\nclass D2 { }\n");

        List<String> cycles = Graph.scan(List.of(dir.resolve("m/src/main/java"))).cycles();
        assertThat(cycles).hasSize(1);
        assertThat(cycles.get(0)).startsWith("a -> b -> c -> a")
                .contains("a -> b: A.java").contains("b -> c: B.java").contains("c -> a: C.java")
                .contains("(strongly connected: a, b, c)").doesNotContain("D.java", "D2.java", "A2.java");
    }

    /** src/main/java of every module the root pom lists, so a new module is checked without editing this test. */
    static List<Path> moduleSources(Path root) {
        String pom = read(root.resolve("pom.xml"));
        List<Path> out = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            Path s = root.resolve(m.group(1).strip()).resolve("src/main/java");
            if (Files.isDirectory(s)) out.add(s);
        }
        return out;
    }

    /** Package to package dependencies, each edge with the files (by name) that make it. */
    record Graph(Map<String, Map<String, Set<String>>> edges) {
        static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
        // an import (static or not, wildcard or not) or a qualified name: lower-case segments, then a type or '*'
        static final Pattern REFERENCE = Pattern.compile("\\bdev\\.gamagent((?:\\.[a-z_][a-z0-9_]*)*)\\.(?:[A-Z]|\\*)");

        static Graph scan(List<Path> sourceRoots) {
            Map<String, Map<String, Set<String>>> edges = new TreeMap<>();
            for (Path root : sourceRoots) {
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                        String code = withoutCommentsAndStrings(read(f));
                        Matcher pm = PACKAGE.matcher(code);
                        if (!pm.find()) continue;
                        String from = unit(pm.group(1));
                        if (from == null) continue;
                        Map<String, Set<String>> out = edges.computeIfAbsent(from, k -> new TreeMap<>());
                        Matcher rm = REFERENCE.matcher(code.substring(pm.end()));
                        while (rm.find()) {
                            String to = unit(ROOT_PACKAGE + rm.group(1));
                            if (!from.equals(to)) out.computeIfAbsent(to, k -> new TreeSet<>()).add(f.getFileName().toString());
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot list " + root, e);
                }
            }
            return new Graph(edges);
        }

        /** {@code dev.gamagent.backend.internal} -> {@code backend}; the root package keeps its name; others null. */
        static String unit(String pkg) {
            if (pkg.equals(ROOT_PACKAGE)) return ROOT_PACKAGE;
            if (!pkg.startsWith(ROOT_PACKAGE + ".")) return null;
            String rest = pkg.substring(ROOT_PACKAGE.length() + 1);
            int dot = rest.indexOf('.');
            return dot < 0 ? rest : rest.substring(0, dot);
        }

        /**
         * One line per strongly connected set of packages: its shortest cycle through its first package, e.g.
         * {@code api -> backend -> api}, then the files that make each edge of that cycle.
         */
        List<String> cycles() {
            List<String> out = new ArrayList<>();
            for (List<String> component : components()) {
                if (component.size() < 2) continue;
                List<String> cycle = shortestCycle(component.get(0), Set.copyOf(component));
                StringBuilder s = new StringBuilder(String.join(" -> ", cycle));
                s.append("  (strongly connected: ").append(String.join(", ", component)).append(")");
                for (int i = 0; i + 1 < cycle.size(); i++) {
                    String a = cycle.get(i), b = cycle.get(i + 1);
                    s.append("\n    ").append(a).append(" -> ").append(b).append(": ").append(String.join(", ", edges.get(a).get(b)));
                }
                out.add(s.toString());
            }
            return out;
        }

        private Set<String> next(String p) { return edges.getOrDefault(p, Map.of()).keySet(); }

        /** Tarjan's strongly connected components, each sorted by name. */
        private List<List<String>> components() {
            Set<String> nodes = new TreeSet<>(edges.keySet());
            edges.values().forEach(m -> nodes.addAll(m.keySet()));
            Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
            Deque<String> stack = new ArrayDeque<>();
            Set<String> onStack = new java.util.HashSet<>();
            List<List<String>> out = new ArrayList<>();
            for (String n : nodes) if (!index.containsKey(n)) connect(n, index, low, stack, onStack, out);
            return out;
        }

        private void connect(String v, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                             Set<String> onStack, List<List<String>> out) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            for (String w : next(v)) {
                if (!index.containsKey(w)) {
                    connect(w, index, low, stack, onStack, out);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                Set<String> component = new TreeSet<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                out.add(List.copyOf(component));
            }
        }

        /** Breadth-first from {@code start} back to itself inside its component. */
        private List<String> shortestCycle(String start, Set<String> component) {
            Map<String, String> parent = new LinkedHashMap<>();
            Deque<String> queue = new ArrayDeque<>(List.of(start));
            while (!queue.isEmpty()) {
                String v = queue.poll();
                for (String w : next(v)) {
                    if (!component.contains(w)) continue;
                    if (w.equals(start)) {
                        List<String> path = new ArrayList<>();
                        for (String p = v; !p.equals(start); p = parent.get(p)) path.add(0, p);
                        path.add(0, start);
                        path.add(start);
                        return path;
                    }
                    if (!parent.containsKey(w)) {
                        parent.put(w, v);
                        queue.add(w);
                    }
                }
            }
            throw new IllegalStateException("no cycle through " + start + " in " + component);
        }
    }

    /** Keeps line breaks so that package lines still match; drops comments, string, text-block and char literals. */
    static String withoutCommentsAndStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                s.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                i = end;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') j += s.charAt(j) == '\\' ? 2 : 1;
                i = Math.min(n, j + 1);
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    static void write(Path f, String text) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }
}
