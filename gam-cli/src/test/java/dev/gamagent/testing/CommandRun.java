package dev.gamagent.testing;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One picocli command run in-process with stdout and stderr captured; an exception is printed and exits 2. */
public record CommandRun(int code, String out, String err) {
    public static CommandRun of(Object command, String... args) {
        return captured(() -> {
            CommandLine cl = new CommandLine(command);
            cl.setExecutionExceptionHandler((ex, c, p) -> { ex.printStackTrace(); return 2; });
            return cl.execute(args);
        });
    }

    /** The real {@code gam} command line ({@code Main.run}: one "error: …" line and exit 1 on failure), captured. */
    public static CommandRun main(String... args) { return captured(() -> dev.gamagent.cli.Main.run(args)); }

    /** {@code command} (e.g. a command built with a test backend) with Main's error handling: "error: message", exit 1. */
    public static CommandRun likeMain(Object command, String... args) {
        return captured(() -> {
            CommandLine cl = new CommandLine(command);
            cl.setExecutionExceptionHandler((ex, c, p) -> {
                c.getErr().println("error: " + ex.getMessage());
                return 1;
            });
            return cl.execute(args);
        });
    }

    /** Swaps System.out/err while {@code run} runs; synchronized because they are global. */
    private static synchronized CommandRun captured(java.util.function.IntSupplier run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = run.getAsInt();
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
