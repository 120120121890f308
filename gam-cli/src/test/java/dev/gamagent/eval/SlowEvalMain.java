package dev.gamagent.eval;

import dev.gamagent.cli.EvalCommand;
import dev.gamagent.testing.ScriptedBackend;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child-process entry point for {@link EvalResumeProcessTest}: the real {@code gam eval} command
 * (picocli, store, runner, report) with a slow scripted backend that logs every call to the file named
 * by the system property {@code calls.log}.
 */
public final class SlowEvalMain {
    private SlowEvalMain() { }

    public static void main(String[] args) {
        Path log = Path.of(System.getProperty("calls.log"));
        long delay = Long.getLong("delay.ms", 250);
        EvalCommand cmd = new EvalCommand((spec, config) -> ScriptedBackend.text(r -> {
            String text = r.messages().get(r.messages().size() - 1).text();
            String q = text.lines().filter(l -> l.startsWith("Question ")).findFirst().orElse("?");
            try {
                Thread.sleep(delay);
                Files.writeString(log, q + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return "ANSWER: A";
        }));
        System.exit(new CommandLine(cmd).execute(args));
    }
}
