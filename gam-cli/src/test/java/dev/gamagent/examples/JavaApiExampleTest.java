package dev.gamagent.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16, item 2: the Java API example under examples/java-api compiles against the modules and runs on the
 * built-in model in a JVM of its own whose classpath holds only what its pom brings: gam-core with Jackson, and
 * gam-local with ONNX Runtime, the OCR networks and jtokkit (no evaluation, server, command line or embedder).
 */
class JavaApiExampleTest {
    static final Path SOURCE = Path.of("examples/java-api/src/main/java/example/AskExample.java");

    @TempDir Path dir;

    @Test void theExampleCompilesAndAnswersWithTraceAndProgressOnTheBuiltInModel() throws Exception {
        assertThat(SOURCE).exists();
        String classpath = System.getProperty("java.class.path");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "--release", "17", "-d", dir.toString(), "-cp", classpath, SOURCE.toString());
        assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        List<String> kept = Arrays.stream(classpath.split(File.pathSeparator)).filter(JavaApiExampleTest::whatTheExamplesPomBrings).toList();
        assertThat(kept).anyMatch(e -> e.contains("gam-core")).anyMatch(e -> e.contains("gam-local"))
                .noneMatch(e -> e.contains("gam-eval") || e.contains("langchain4j") || e.contains("slf4j"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Djava.awt.headless=true", dev.gamagent.testing.CliProcess.QUICK_JIT, "-cp",
                dir + File.pathSeparator + String.join(File.pathSeparator, kept),
                "example.AskExample", "examples/red-triangle.png").redirectErrorStream(true);
        pb.environment().remove("GAM_OPENAI_URL");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();

        List<String> lines = out.lines().toList();
        assertThat(lines).as(out).anyMatch(l -> l.startsWith("event round_started"));
        assertThat(lines).as(out).anyMatch(l -> l.startsWith("event agent_answered"));
        // the typed event: the example reads U_sys from the Weights record
        assertThat(lines).as(out).anyMatch(l -> l.startsWith("U_sys after round 0: "));
        // the built-in model sees the triangle: the answer and a round-0 expert say B
        assertThat(lines).as(out).contains("answer: B. triangle");
        assertThat(lines).as(out).anyMatch(l -> l.startsWith("round 0") && l.contains("answered B"));
        assertThat(out).contains("via local");
    }

    /** gam-core, gam-local and their own dependencies: Jackson, ONNX Runtime, the OCR networks, jtokkit. */
    static boolean whatTheExamplesPomBrings(String entry) {
        String e = entry.replace('\\', '/');
        if (e.contains("test-classes") || e.endsWith("-tests.jar")) return false;
        return e.contains("/gam-core/") || e.contains("/gam-core-") || e.contains("/gam-local/") || e.contains("/gam-local-")
                || e.contains("/com/fasterxml/jackson/") || e.contains("/com/microsoft/onnxruntime/")
                || e.contains("/io/github/mymonstercat/") || e.contains("/com/knuddels/");
    }
}
