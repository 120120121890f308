package dev.gamagent.reliability;

import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.cli.EvalCommand;
import dev.gamagent.testing.ScriptedBackend;
import picocli.CommandLine;

import java.util.List;

/**
 * A child-process entry point for {@link KillResumeTest}: the real {@code gam eval} command with a
 * deterministic backend, a test tool whose reply is a function of the prompt alone (so an interrupted and
 * resumed run must end exactly where an uninterrupted one does) and which takes {@code delay.ms} per call
 * so there is time to kill it mid-run.
 */
public final class DeterministicEvalMain {
    private DeterministicEvalMain() { }

    /** Right, wrong or unsure, chosen by the prompt's hash: the same prompt always gets the same reply. */
    static String reply(List<ChatMessage> messages) {
        StringBuilder all = new StringBuilder();
        for (ChatMessage m : messages) all.append(m.role()).append(':').append(m.text()).append('\n');
        return switch (Math.floorMod(all.toString().hashCode(), 5)) {
            case 0, 1 -> "The shape is clearly the first one.\nANSWER: A";
            case 2, 3 -> "It looks like the second one.\nANSWER: B";
            default -> "I am not sure; it might be either. ANSWER: B";
        };
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(command(Long.getLong("delay.ms", 10))).execute(args));
    }

    /** {@code gam eval} with the deterministic backend taking {@code delay} ms a call. */
    static EvalCommand command(long delay) {
        return new EvalCommand((spec, config) -> new ScriptedBackend("deterministic",
                new Capabilities(true, false, 0, true, true, 0), r -> {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return ScriptedBackend.result(reply(r.messages()), List.of());
                }));
    }
}
