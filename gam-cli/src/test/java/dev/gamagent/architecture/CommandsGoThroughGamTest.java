package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: the project's commands and its server run a method the way a program does, through {@code Gam}
 * ({@code Gam.ask}, or {@code Gam.session(...).ask} over backends and threads they own): no class outside gam-core
 * makes a {@code RunContext} itself. Read from the compiled classes (a call of RunContext's constructor).
 */
class CommandsGoThroughGamTest {
    static final String CONSTRUCTOR = "dev.gamagent.api.RunContext.<init>";

    @Test void noModuleButGamCoreMakesARunContext() throws IOException {
        Map<String, Path> modules = ClassFiles.modules(PackageCyclesTest.ROOT);
        List<String> makers = new ArrayList<>();
        List<String> coreMakers = new ArrayList<>();
        for (var e : modules.entrySet()) {
            for (String name : ClassFiles.classNames(e.getValue())) {
                var pool = ClassFiles.constantPool(Files.readAllBytes(e.getValue().resolve(name.replace('.', '/') + ".class")));
                if (!pool.methods().contains(CONSTRUCTOR)) continue;
                (e.getKey().equals("gam-core") ? coreMakers : makers).add(e.getKey() + ": " + name);
            }
        }
        // the test reads what it claims to: gam-core's facade makes them
        assertThat(coreMakers).as("gam-core classes that make a RunContext").anyMatch(n -> n.endsWith("dev.gamagent.Gam$Session"));
        assertThat(makers).as("classes outside gam-core that make a RunContext instead of asking through Gam").isEmpty();
    }
}
