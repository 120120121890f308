package dev.gamagent.bench;

import java.util.Locale;

/** The synthetic benchmark's question families with their VLMEvalKit categories (CONTRACTS §3). */
public enum Family {
    TEXT("text", "ocr"),
    COUNT("count", "counting"),
    COLOR("color", "attribute"),
    SHAPE("shape", "attribute"),
    SPATIAL("spatial", "relation"),
    CHART("chart", "chart");

    private final String category;
    private final String l2Category;

    Family(String category, String l2Category) {
        this.category = category;
        this.l2Category = l2Category;
    }

    public String category() { return category; }

    public String l2Category() { return l2Category; }

    /** Parses a family name as written in the {@code category} column, e.g. {@code "spatial"}. */
    public static Family parse(String name) {
        for (Family f : values()) if (f.category.equals(name.strip().toLowerCase(Locale.ROOT))) return f;
        throw new IllegalArgumentException("unknown benchmark family '" + name + "': use one of text, count, color, shape, spatial, chart");
    }
}
