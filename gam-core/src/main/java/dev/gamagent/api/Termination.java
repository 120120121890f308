package dev.gamagent.api;

/** Why a debate stopped. Names are the strings written to traces. */
public enum Termination {
    CONSENSUS("consensus"), UNCERTAINTY("uncertainty"), STAGNATION("stagnation"), MAX_ROUNDS("max_rounds"),
    BUDGET("budget"), MODERATOR("moderator"), SINGLE("single"), FIXED_ROUNDS("fixed_rounds"),
    /** The "no uncertainty" ablation's stop: every expert with an opinion chose the same answer (docs/design.md §6). */
    AGREEMENT("agreement");

    private final String label;

    Termination(String label) { this.label = label; }

    public String label() { return label; }

    @Override public String toString() { return label; }
}
