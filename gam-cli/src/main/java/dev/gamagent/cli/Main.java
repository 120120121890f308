package dev.gamagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** The {@code gam} command line. */
@Command(name = "gam", mixinStandardHelpOptions = true, version = "gam 0.1.0",
        description = "GAM-Agent: uncertainty-aware, game-theoretic multi-agent debate for vision-language models.",
        footer = "%nAdd --verbose to any command to see library log messages.",
        subcommands = {AskCommand.class, EvalCommand.class, GradeCommand.class, DemoCommand.class, ServeCommand.class, ReportCommand.class,
                SweepCommand.class, BenchCommand.class, BackendsCommand.class, LocalServerCommand.class, ConfigCommand.class,
                DataCommand.class, ReproduceCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer>, CommandContext {
    static final String VERBOSE = "--verbose";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The secrets this command line can reach; a command scrubs what it writes with them ({@link CommandContext}). */
    private final dev.gamagent.backend.internal.SecretScrubber secrets;

    private Main(dev.gamagent.backend.internal.SecretScrubber secrets) { this.secrets = secrets; }

    /** A command line that knows no secrets (tests that parse options). */
    Main() { this(dev.gamagent.backend.internal.SecretScrubber.NONE); }

    @Override public dev.gamagent.backend.internal.SecretScrubber secrets() { return secrets; }

    public static void main(String[] args) {
        boolean verbose = Arrays.asList(args).contains(VERBOSE);
        quietLibraries(verbose);
        // ONNX Runtime registers its temp directory for deletion before the libraries inside it, so the JVM leaves it behind
        Runtime.getRuntime().addShutdownHook(new Thread(Main::removeOnnxRuntimeTempDir, "gam-temp-cleanup"));
        System.exit(run(args));
    }

    /**
     * Runs one command line with stdout and stderr (and so the log lines, which go to stderr) passed through the
     * process's {@link ProcessSecrets secret scrubber}, when there is a secret to scrub.
     */
    public static int run(String... args) {
        return scrubbed(ProcessSecrets.of(Arrays.asList(args), System.getenv()), args);
    }

    private static int scrubbed(dev.gamagent.backend.internal.SecretScrubber secrets, String... args) {
        if (secrets.isEmpty()) {
            return run(secrets, new PrintWriter(System.out, true, StandardCharsets.UTF_8), new PrintWriter(System.err, true, StandardCharsets.UTF_8), args);
        }
        PrintStream out = System.out, err = System.err;
        PrintStream scrubbedOut = secrets.scrubbing(out), scrubbedErr = secrets.scrubbing(err);
        System.setOut(scrubbedOut);
        System.setErr(scrubbedErr);
        try {
            return run(secrets, new PrintWriter(scrubbedOut, true, StandardCharsets.UTF_8), new PrintWriter(scrubbedErr, true, StandardCharsets.UTF_8), args);
        } finally {
            scrubbedOut.flush();
            scrubbedErr.flush();
            // another thread may have swapped them meanwhile (tests capturing output): put back only our own
            if (System.out == scrubbedOut) System.setOut(out);
            if (System.err == scrubbedErr) System.setErr(err);
        }
    }

    /** Runs one command line; {@code --verbose} anywhere is taken out (it only changes logging, see {@link #main}). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(ProcessSecrets.of(Arrays.asList(args), System.getenv()), out, err, args);
    }

    private static int run(dev.gamagent.backend.internal.SecretScrubber secrets, PrintWriter out, PrintWriter err, String... args) {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        rest.removeIf(VERBOSE::equals);
        CommandLine cl = new CommandLine(new Main(secrets));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + message(ex, cmd));
            if (System.getenv("GAM_DEBUG") != null) ex.printStackTrace(cmd.getErr());
            return 1;
        });
        return cl.execute(rest.toArray(String[]::new));
    }

    /** {@code gam} alone: the help, and exit code 2 (a usage error: no command given). */
    @Override public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** A usage error: the one line that says what is wrong (and a suggestion when picocli has one), then where help is. */
    static int usageError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("error: " + ex.getMessage());
        String plural = singularOfAnOption(cmd, args);
        if (plural != null) {
            err.println("did you mean " + plural + "? (" + cmd.getCommandSpec().qualifiedName() + " takes " + plural + " "
                    + cmd.getCommandSpec().findOption(plural).paramLabel() + ", a comma-separated list, e.g. " + plural + " single,gam)");
        } else if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            err.println("did you mean: " + String.join(", ", u.getSuggestions().subList(0, Math.min(3, u.getSuggestions().size()))) + "?");
        }
        err.println("see '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * An option given in the singular that the command only takes in the plural ({@code gam eval --method gam}: eval
     * compares several methods, so it takes {@code --methods}), or null. picocli only says "Missing required option".
     */
    static String singularOfAnOption(CommandLine cmd, String[] args) {
        for (String a : args) {
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (!name.startsWith("--") || cmd.getCommandSpec().findOption(name) != null) continue;
            var plural = cmd.getCommandSpec().findOption(name + "s");
            if (plural != null) return name + "s";
        }
        return null;
    }

    /**
     * The exception's message, or its type when it has none (a bare NullPointerException says nothing); a port
     * that is taken is named with the command's {@code --port} value.
     */
    static String message(Throwable ex, CommandLine cmd) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                var port = cmd.getCommandSpec().findOption("--port");
                var host = cmd.getCommandSpec().findOption("--host");
                String where = (port == null ? "its port" : "port " + port.getValue()) + (host == null ? "" : " of " + host.getValue());
                return "cannot listen on " + where + ": " + t.getMessage() + "; pick another --port (0 picks a free one) "
                        + "or stop the program using it";
            }
        }
        String m = ex.getMessage();
        return m == null || m.isBlank() ? ex.getClass().getSimpleName() : m;
    }

    /**
     * slf4j-simple's levels: libraries (DJL's "Failed to detect GPU count", Jetty's start-up) only say errors,
     * our own code keeps its warnings; {@code --verbose} shows everything at INFO. A level set with -D wins.
     */
    static void quietLibraries(boolean verbose) {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "error");
        setIfAbsent("org.slf4j.simpleLogger.log.dev.gamagent", verbose ? "info" : "warn");
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) System.setProperty(key, value);
    }

    /** Deletes the {@code onnxruntime-java*} directory this JVM's ONNX Runtime extracted its libraries into, if any. */
    static void removeOnnxRuntimeTempDir() {
        Path dir;
        try {
            Class<?> ort = Class.forName("ai.onnxruntime.OnnxRuntime", false, Main.class.getClassLoader());
            var f = ort.getDeclaredField("loaded");
            f.setAccessible(true);
            if (!f.getBoolean(null)) return;
            var t = ort.getDeclaredField("tempDirectory");
            t.setAccessible(true);
            dir = (Path) t.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return; // another ONNX Runtime version: nothing we know how to clean
        }
        if (dir == null || !dir.getFileName().toString().startsWith("onnxruntime-java")) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // leave it: the JVM's own delete-on-exit may still get it
        }
    }
}
