package dev.gamagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ServeAndVideoFlagsTest {
    @TempDir Path dir;

    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + ex.getMessage());
            return 1;
        });
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test void serveIsASubcommandWithItsFlagsAndTheBackendFlags() {
        Run r = run("serve", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("--port", "--host", "--server-key-env", "--trace-db", "--backend", "--api-key-env");
    }

    @Test void serveRefusesAPublicAddressWithoutAKey() {
        Run r = run("serve", "--host", "0.0.0.0", "--port", "0");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("needs an API key").contains("--server-key-env");
    }

    @Test void askTakesAVideoDirectoryAndReportsAnEmptyOne() throws Exception {
        Path frames = Files.createDirectory(dir.resolve("frames"));
        Run r = run("ask", "--video", frames.toString(), "--frames", "4", "--question", "what happens?");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("frames").contains("no frame images");
    }

    @Test void askNeedsAnImageOrAVideo() {
        Run r = run("ask", "--question", "what is this?");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("--image FILE or --video");
    }
}
