package dev.gamagent.testing;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One picocli command run in-process with stdout and stderr captured; an exception is printed and exits 2. */
public record CommandRun(int code, String out, String err) {
    public static CommandRun of(Object command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            CommandLine cl = new CommandLine(command);
            cl.setExecutionExceptionHandler((ex, c, p) -> { ex.printStackTrace(); return 2; });
            code = cl.execute(args);
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
