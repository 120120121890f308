package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 15 item 5–6: configuration mistakes are refused with the key named; the command line is quiet and exact. */
class QuietExactCliTest {
    @TempDir Path dir;

    record Run(int code, String out, String err) { }

    /** Main.run in process; System.out captured too (commands print their results there). */
    static synchronized Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        ByteArrayOutputStream sysOut = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(sysOut, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        } finally {
            System.setOut(old);
        }
        return new Run(code, out + sysOut.toString(StandardCharsets.UTF_8), err.toString());
    }

    private static final String IMAGE = Path.of("examples", "red-triangle.png").toString();

    @Test void gamAlonePrintsHelpAndExitsWithTheUsageCode() {
        Run r = run();
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Usage: gam", "ask", "eval", "config");
    }

    @Test void aUsageErrorIsOneLineAndWhereHelpIs() {
        Run r = run("ask", "--question", "q", "--imag", IMAGE);
        assertThat(r.code()).isEqualTo(2);
        List<String> lines = r.err().lines().toList();
        assertThat(lines).hasSizeLessThanOrEqualTo(3);
        assertThat(lines.get(0)).startsWith("error: Unknown option").contains("--imag");
        assertThat(r.err()).contains("--image").contains("see 'gam ask --help'").doesNotContain("Usage:");
    }

    @Test void aRepeatedOptionLetterIsAnError() {
        Run r = run("ask", "--image", IMAGE, "--question", "colour?", "--option", "A=red", "--option", "A=blue");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("--option A is given twice").contains("red").contains("blue");
        assertThat(run("ask", "--image", IMAGE, "--question", "q", "--option", "red").err()).contains("--option red").contains("LETTER=TEXT");
    }

    @Test void unknownKeysAreRefusedWithTheNearestKnownKey() {
        Run typo = run("config", "show", "--set", "gam.theta_trem=0.1");
        assertThat(typo.code()).isEqualTo(1);
        assertThat(typo.err()).contains("unknown configuration key 'gam.theta_trem'").contains("did you mean 'gam.theta_term'");
        Run section = run("config", "show", "--set", "foo.bar=1");
        assertThat(section.err()).contains("'foo.bar'").contains("gam").contains("dream");
    }

    @Test void badValuesNameTheKeyAndTheExpectedType() throws Exception {
        Run r = run("config", "show", "--set", "gam.theta_term=abc");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("gam.theta_term must be a number, got 'abc'");
        assertThat(run("config", "show", "--set", "gam.max_rounds=2.5").err()).contains("gam.max_rounds must be a whole number");
        assertThat(run("config", "show", "--set", "gam.zoom=maybe").err()).contains("gam.zoom must be true or false");
        Path file = dir.resolve("my.json");
        Files.writeString(file, "{\"gam\": {\"lamda\": 0.3}, \"debate\": {\"rounds\": \"two\"}}");
        Run f = run("config", "show", "--config", file.toString());
        assertThat(f.err()).contains("config file " + file).contains("'gam.lamda'").contains("did you mean 'gam.lambda'");
    }

    @Test void configShowPrintsEveryEffectiveValueWithItsSource() throws Exception {
        Path file = dir.resolve("my.json");
        Files.writeString(file, "{\"gam\": {\"lambda\": 0.3}, \"prompts\": {\"gam_answer\": \"x\"}}");
        Run r = run("config", "show", "--config", file.toString(), "--set", "gam.theta_term=0.1");
        assertThat(r.code()).isZero();
        assertThat(r.out()).containsPattern("gam\\.lambda\\s+= 0\\.3\\s+\\(" + java.util.regex.Pattern.quote(file.toString()) + "\\)")
                .containsPattern("gam\\.theta_term\\s+= 0\\.1\\s+\\(--set\\)")
                .containsPattern("gam\\.gamma\\s+= 0\\.5\\s+\\(default\\)")
                .containsPattern("prompts\\.gam_answer\\s+= x\\s+\\(");
    }

    @Test void aBinaryDataFileAndABusyPortAreNamed() throws Exception {
        Run data = run("eval", "--data", IMAGE, "--methods", "single", "--out", dir.resolve("out").toString());
        assertThat(data.err()).contains(IMAGE).contains("not UTF-8 text").doesNotContain("Input length");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run busy = run("local-server", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(busy.code()).isEqualTo(1);
            assertThat(busy.err()).contains("port " + taken.getLocalPort()).contains("--port");
        }
    }

    @Test void helpTextsFormatWithoutPicocliWarnings() {
        for (String[] args : List.of(new String[] {"bench", "generate", "--help"}, new String[] {"eval", "--help"},
                new String[] {"ask", "--help"}, new String[] {"serve", "--help"}, new String[] {"config", "show", "--help"})) {
            Run r = run(args);
            assertThat(r.code()).isZero();
            assertThat(r.err()).as(String.join(" ", args)).doesNotContain("WARN");
        }
    }

    /** A real process with the built-in model: stdout is the JSON alone, stderr is empty, and the temp folder stays clean. */
    @Test void askWithTheBuiltInModelPrintsOnlyItsAnswerAndLeavesNoTempFiles() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Djava.awt.headless=true", dev.gamagent.testing.CliProcess.QUICK_JIT, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                "dev.gamagent.cli.Main", "ask", "--image", IMAGE, "--question", "Which shape is shown?", "--option", "A=triangle",
                "--option", "B=circle", "--method", "gam", "--json")
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("gam ask finished").isTrue();
        String out = Files.readString(dir.resolve("out.txt")), err = Files.readString(dir.resolve("err.txt"));
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(err).as("stderr").isEmpty();
        JsonNode json = Json.MAPPER.readTree(out);
        assertThat(out.strip().lines().count()).isEqualTo(1);
        assertThat(json.path("method").asText()).isEqualTo("gam");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(x -> x.getFileName().toString()).filter(n -> n.startsWith("onnxruntime-java")).toList()).isEmpty();
        }
    }

    @Test void aQuestionTheBuiltInModelCannotReadEndsWithNoAnswerSaidInWords() {
        Run r = run("ask", "--image", IMAGE, "--question", "Why is the triangle red?", "--method", "gam", "--set", "gam.embedding=none");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("answer:      none (no agent gave an answer").contains("confidence:  0.000").doesNotContain("null");
    }
}
