package dev.gamagent.local;

import java.util.Locale;

/**
 * What an agent's role perceives with (docs/local-model.md): its text reader, its segmentation, whether
 * it asks where a text is written, and which question families its instruments say something about.
 * A role the model does not know (an answerer, a voter, a debater) uses the model's default instruments
 * on every family, as one plain call of a VLM would.
 */
public enum Expertise {
    /** The default: PP-OCRv4, the classical analyser, the largest text first. */
    GENERAL(Sight.Reader.V4, Sight.Segmentation.CLASSICAL, false, false),
    /** The scene expert: PP-OCRv3, the classical analyser, and the sign, label or card each text is on. */
    SCENE(Sight.Reader.V3, Sight.Segmentation.CLASSICAL, true, false),
    /** The OCR expert: PP-OCRv4, each sign, label or card read again enlarged; no object segmentation. */
    TEXT(Sight.Reader.V4, Sight.Segmentation.CLASSICAL, true, true),
    /**
     * The relational expert: the core segmenter's objects and positions, bar heights against a chart's axes
     * (whose labels and ticks it reads again enlarged); it does not read what a sign says.
     */
    RELATIONS(Sight.Reader.V4, Sight.Segmentation.CORES, true, false),
    /** The object expert: the core segmenter, shapes and counts. */
    OBJECTS(Sight.Reader.V4, Sight.Segmentation.CORES, true, false),
    /** The attribute expert: the core segmenter with its contrast-stretched colours. */
    ATTRIBUTES(Sight.Reader.V3, Sight.Segmentation.CORES, true, false);

    private final Sight.Reader reader;
    private final Sight.Segmentation segmentation;
    private final boolean surfaces, close;

    Expertise(Sight.Reader reader, Sight.Segmentation segmentation, boolean surfaces, boolean close) {
        this.reader = reader;
        this.segmentation = segmentation;
        this.surfaces = surfaces;
        this.close = close;
    }

    /** How this role reads the text a family's answer depends on (see {@link Sight.Reading}). */
    Sight.Reading reading(QuestionFamily f) {
        if (close && f instanceof QuestionFamily.Text) return Sight.Reading.SURFACES;
        if (this == RELATIONS && f instanceof QuestionFamily.Chart) return Sight.Reading.AXES;
        return Sight.Reading.PLAIN;
    }

    public Sight.Reader reader() { return reader; }

    public Sight.Segmentation segmentation() { return segmentation; }

    /** Whether this role asks which surface (sign, label, card) a text is on, rather than taking the largest text. */
    public boolean surfaces() { return surfaces; }

    /** The expertise of a role line such as "ocr expert" or "relational expert"; no role, or one it does not know: {@link #GENERAL}. */
    public static Expertise of(String role) {
        // By whole words of the role line alone (whatever prompt carries it): "context checker" is no text reader.
        java.util.Set<String> w = new java.util.HashSet<>(java.util.Arrays.asList(
                (role == null ? "" : role.toLowerCase(Locale.ROOT)).split("[^a-z]+")));
        if (w.contains("ocr") || w.contains("text")) return TEXT;
        if (w.contains("relational") || w.contains("relation") || w.contains("relations") || w.contains("spatial")) return RELATIONS;
        if (w.contains("scene")) return SCENE;
        if (w.contains("object") || w.contains("objects")) return OBJECTS;
        if (w.contains("attribute") || w.contains("attributes") || w.contains("colour") || w.contains("color")) return ATTRIBUTES;
        return GENERAL;
    }

    /** Whether this role's instruments say anything about the family's answer. */
    public boolean examines(QuestionFamily f) {
        if (f instanceof QuestionFamily.Unknown) return this == GENERAL || this == SCENE;
        return switch (this) {
            case GENERAL, SCENE -> true;
            case TEXT -> f instanceof QuestionFamily.Text || f instanceof QuestionFamily.Chart;
            case RELATIONS -> !(f instanceof QuestionFamily.Text);
            case OBJECTS, ATTRIBUTES -> !(f instanceof QuestionFamily.Text) && !(f instanceof QuestionFamily.Chart);
        };
    }

    /** Why a role that does not examine the family abstains, in its own words. */
    String abstention(QuestionFamily f) {
        return switch (this) {
            case TEXT -> "this role reads text; the question is about " + f.category() + ", which no text in the image states";
            case RELATIONS -> "this role measures positions and sizes; it does not read what a text says";
            case OBJECTS, ATTRIBUTES -> "this role examines objects and their attributes, not " + f.category();
            default -> "the question is outside what this model can perceive";
        };
    }
}
