package dev.gamagent.backend;

import java.time.Duration;
import java.util.List;

/** The answer to a chat request: one choice per {@code n}, usage, latency and the model that answered. */
public record ChatResult(List<Choice> choices, Usage usage, Duration latency, String model) {
    public ChatResult {
        choices = List.copyOf(choices);
        if (choices.isEmpty()) throw new IllegalArgumentException("a chat result needs at least one choice");
    }

    public Choice first() { return choices.get(0); }

    public String text() { return first().text(); }

    /** The uncertainty signal the first choice supports. */
    public UncertaintySignal signal() { return first().signal(); }
}
