package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark scripts (bench/*.sh) run test classes of a module on that module's test classpath; after the
 * module split they pointed at the old single-module paths and failed at run time (perf.sh: JMH missing from
 * gam-cli's classpath). Each script's classpath must name modules that exist, and every class it runs must be
 * a test class of one of them.
 */
class BenchScriptsTest {
    private static final Pattern MODULE_DIR = Pattern.compile("\\b(gam-[a-z]+)/target/(?:test-classes|classes|test-classpath\\.txt)");
    private static final Pattern CLASS = Pattern.compile("\\b(dev\\.gamagent\\.[a-z.]+\\.[A-Z]\\w+)\\b");
    private static final Pattern OLD_ROOT_PATH = Pattern.compile("(?<![\\w-]/)(?<![\\w-])target/(?:test-)?classes");

    @Test void everyBenchScriptRunsClassesOfModulesThatExistOnThoseModulesClasspaths() throws Exception {
        List<Path> scripts;
        try (Stream<Path> s = Files.list(Path.of("bench"))) {
            scripts = s.filter(p -> p.toString().endsWith(".sh")).sorted().toList();
        }
        assertThat(scripts).as("bench/*.sh").isNotEmpty();
        List<String> problems = new ArrayList<>();
        for (Path script : scripts) {
            String text = Files.readString(script);
            if (!text.contains(" -cp ")) continue; // a script that runs only the launcher
            Set<String> modules = new LinkedHashSet<>();
            Matcher m = MODULE_DIR.matcher(text);
            while (m.find()) modules.add(m.group(1));
            if (modules.isEmpty()) problems.add(script + ": its -cp names no module's target directory");
            for (String module : modules) {
                if (!Files.isRegularFile(Path.of(module, "pom.xml"))) problems.add(script + ": no module " + module);
            }
            Matcher old = OLD_ROOT_PATH.matcher(text);
            if (old.find()) problems.add(script + ": the single-module path '" + old.group() + "' (the root has no classes since the split)");
            Matcher c = CLASS.matcher(text);
            while (c.find()) {
                String file = "src/test/java/" + c.group(1).replace('.', '/') + ".java";
                boolean found = modules.stream().anyMatch(mod -> Files.isRegularFile(Path.of(mod, file)));
                if (!found) problems.add(script + ": runs " + c.group(1) + ", which is no test class of " + modules);
            }
        }
        assertThat(problems).isEmpty();
    }
}
