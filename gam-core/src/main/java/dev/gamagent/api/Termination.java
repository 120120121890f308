package dev.gamagent.api;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Optional;

/** Why a method stopped. Labels are the strings written to traces, results and replies. */
public enum Termination {
    CONSENSUS("consensus"), UNCERTAINTY("uncertainty"), STAGNATION("stagnation"), MAX_ROUNDS("max_rounds"),
    BUDGET("budget"), MODERATOR("moderator"), SINGLE("single"), FIXED_ROUNDS("fixed_rounds"),
    /** The "no uncertainty" ablation's stop: every expert with an opinion chose the same answer (docs/design.md §6). */
    AGREEMENT("agreement");

    private final String label;

    Termination(String label) { this.label = label; }

    /** The string written for this reason ({@code max_rounds}, ...); JSON writes the label, never the constant's name. */
    @JsonValue
    public String label() { return label; }

    /** The reason a stored label names (results written before, traces); empty for null or a label no reason has. */
    public static Optional<Termination> fromLabel(String label) {
        for (Termination t : values()) if (t.label.equals(label)) return Optional.of(t);
        return Optional.empty();
    }

    @Override public String toString() { return label; }
}
