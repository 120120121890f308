package dev.gamagent.uncertainty;

import java.util.Locale;

/**
 * Which generated tokens Φ_gen is averaged over (DESIGN.md §3): {@code all} tokens (the paper's default) or
 * only the {@code answer-span} (for multiple choice the option letter), usually the sharper signal.
 */
public enum Scoring {
    ALL("all"), ANSWER_SPAN("answer-span");

    private final String label;

    Scoring(String label) { this.label = label; }

    public String label() { return label; }

    /** Parses a config value ({@code all}, {@code answer-span}); anything else is an error naming the key. */
    public static Scoring parse(String value) {
        if (value == null || value.isBlank()) return ALL;
        String v = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Scoring s : values()) if (s.label.equals(v)) return s;
        if (v.equals("answer") || v.equals("span")) return ANSWER_SPAN;
        throw new IllegalArgumentException("gam.scoring = '" + value + "' is not known; use 'all' or 'answer-span'");
    }

    @Override public String toString() { return label; }
}
