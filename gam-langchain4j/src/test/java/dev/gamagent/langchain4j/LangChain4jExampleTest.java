package dev.gamagent.langchain4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43: the example under examples/langchain4j compiles, and runs in a JVM of its own against the built-in model's
 * OpenAI-compatible server (what `gam local-server` runs, started here on 127.0.0.1): an AI service answers an image
 * question through GamChatModel, whose agents ask the server through a LangChain4j OpenAI model.
 */
class LangChain4jExampleTest {
    static final Path SOURCE = Path.of("examples/langchain4j/src/main/java/example/LangChain4jExample.java");

    @TempDir Path dir;

    @Test void theExampleAnswersThroughAnAiServiceOnGamOverALangChain4jOpenAiModel() throws Exception {
        String classpath = System.getProperty("java.class.path");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, "--release", "17", "-d", dir.toString(),
                "-cp", classpath, SOURCE.toString());
        assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        try (LocalServer server = new LocalServer(true)) {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            // the client compiler only: a JVM that lives seconds spends less CPU on compiling than the optimiser would save
            Process p = new ProcessBuilder(java.toString(), "-Djava.awt.headless=true", "-XX:TieredStopAtLevel=1", "-cp", dir + File.pathSeparator + classpath,
                    "example.LangChain4jExample", server.baseUrl(), "examples/red-triangle.png").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            List<String> lines = out.lines().toList();
            assertThat(lines).as(out).contains("answer: B. triangle");
            assertThat(lines).as(out).anyMatch(l -> l.matches("tokens: [1-9]\\d* in, [1-9]\\d* out"));
            assertThat(lines).as(out).anyMatch(l -> l.startsWith("debate: method gam, ") && l.contains("trace tr-"));
            // every agent asked the server through LangChain4j, and its log-probs came back
            assertThat(lines).as(out).anyMatch(l -> l.startsWith("round 0 ") && l.contains("via default (gam-perception, logprobs-topk)"));
        }
    }
}
