package dev.gamagent.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code gam} command line in a child JVM (this test run's class path), for what cannot be
 * done in-process: an environment variable holding an API key, a kill -9. Several command lines separated
 * by {@code ::} run one after the other in the same child ({@link #main}), to save JVM start-ups.
 */
public final class CliProcess {
    /** What a child printed and how it ended. */
    public record Result(int code, String out, String err) { }

    private CliProcess() { }

    /** The system property naming a file the child writes each command line's exit code to, one a line, in order. */
    public static final String CODES = "gam.test.codes";

    /**
     * The child's entry point: each "::"-separated command line through {@code Main.run}; exits with the largest code
     * (and writes each one to the file {@link #CODES} names, when set).
     */
    public static void main(String[] args) throws IOException {
        List<Integer> codes = new ArrayList<>();
        List<String> one = new ArrayList<>();
        for (String a : args) {
            if (a.equals("::")) {
                codes.add(dev.gamagent.cli.Main.run(one.toArray(String[]::new)));
                one.clear();
            } else one.add(a);
        }
        if (!one.isEmpty()) codes.add(dev.gamagent.cli.Main.run(one.toArray(String[]::new)));
        String file = System.getProperty(CODES);
        if (file != null) Files.write(Path.of(file), codes.stream().map(String::valueOf).toList(), StandardCharsets.UTF_8);
        System.exit(codes.stream().mapToInt(Integer::intValue).max().orElse(0));
    }

    /**
     * The JIT option of the test's child JVMs: the client compiler only. A child lives seconds, too short for the
     * optimising compiler's work to pay: a 4-question {@code gam demo} took 13.5 s of CPU with it and 9.3 s without
     * (2026-12-05), and the full demo the same 75 s either way. The collector is left as each test chooses it.
     */
    public static final String QUICK_JIT = "-XX:TieredStopAtLevel=1";

    /** The command to start a child JVM running {@code mainClass}. */
    public static List<String> javaCommand(String mainClass) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ArrayList<>(List.of(java, "-Djava.awt.headless=true", QUICK_JIT, "-Xmx1g", "-cp", System.getProperty("java.class.path"), mainClass));
    }

    /** Runs {@code gam} command lines (separated by "::") in one child with {@code env} added; waits up to {@code seconds}. */
    public static Result run(Path workDir, Map<String, String> env, long seconds, String... args) throws IOException, InterruptedException {
        List<String> cmd = javaCommand(CliProcess.class.getName());
        cmd.addAll(Arrays.asList(args));
        Path out = Files.createTempFile(workDir, "child", ".out"), err = Files.createTempFile(workDir, "child", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("gam " + String.join(" ", args) + " did not finish within " + seconds + " s; stderr:\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
