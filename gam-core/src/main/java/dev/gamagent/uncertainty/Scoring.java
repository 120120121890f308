package dev.gamagent.uncertainty;

import java.util.Locale;

/**
 * Which generated tokens Φ_gen is averaged over (docs/design.md §3): the reply's {@code content} (answer, claims,
 * evidence; not the scaffolding a response format forces: JSON keys, quotes, braces, fixed labels), {@code all}
 * tokens (the paper's replies are free text, where the two coincide), or only the {@code answer-span}
 * (for multiple choice the option letter).
 */
public enum Scoring {
    CONTENT("content"), ALL("all"), ANSWER_SPAN("answer-span");

    private final String label;

    Scoring(String label) { this.label = label; }

    public String label() { return label; }

    /** Parses a config value ({@code content}, {@code all}, {@code answer-span}); anything else is an error naming the key. */
    public static Scoring parse(String value) {
        if (value == null || value.isBlank()) return CONTENT;
        String v = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Scoring s : values()) if (s.label.equals(v)) return s;
        if (v.equals("answer") || v.equals("span")) return ANSWER_SPAN;
        throw new IllegalArgumentException("gam.scoring = '" + value + "' is not known; use 'content', 'all' or 'answer-span'");
    }

    @Override public String toString() { return label; }
}
