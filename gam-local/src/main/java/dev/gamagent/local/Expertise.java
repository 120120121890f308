package dev.gamagent.local;

import java.util.Locale;

/**
 * What an agent's role perceives with (docs/local-model.md, "Roles"): which text reader and which segmentation it
 * attends to, and which question families its instruments say something about. The model has two of each (PP-OCRv4
 * and PP-OCRv3; the classical analyser and the core segmenter), all reading the image exactly as sent. A plain call
 * (no role, or one the model does not know: an answerer, a voter, a debater) reads with all of them, each counting
 * equally, as a VLM answers with all it has; a role attends mostly to its own ({@link Calibration#roleFocus} of the
 * weight, the rest to the other), so its errors are partly its own while it is, on average, no better than the plain
 * call (the persona studies: a role prompt leaves accuracy unchanged on average but changes which answers are wrong).
 * A role changes how the model looks, never what it can see: no role has an instrument the plain call lacks.
 */
public enum Expertise {
    /** The plain call: both readers and both segmentations, each counting equally. */
    GENERAL(null, null),
    /** The scene expert: PP-OCRv3 and the classical analyser. */
    SCENE(Sight.Reader.V3, Sight.Segmentation.CLASSICAL),
    /** The OCR expert: PP-OCRv4 and the classical analyser; declares itself not applicable where no text answers. */
    TEXT(Sight.Reader.V4, Sight.Segmentation.CLASSICAL),
    /** The relational expert: PP-OCRv4 and the core segmenter (splits touching objects); does not read what a sign says. */
    RELATIONS(Sight.Reader.V4, Sight.Segmentation.CORES),
    /** The object expert: PP-OCRv4 and the core segmenter. */
    OBJECTS(Sight.Reader.V4, Sight.Segmentation.CORES),
    /** The attribute expert: PP-OCRv3 and the core segmenter. */
    ATTRIBUTES(Sight.Reader.V3, Sight.Segmentation.CORES);

    private final Sight.Reader reader;
    private final Sight.Segmentation segmentation;

    Expertise(Sight.Reader reader, Sight.Segmentation segmentation) {
        this.reader = reader;
        this.segmentation = segmentation;
    }

    /** The reader this role attends to (null: none in particular, the plain call). */
    public Sight.Reader reader() { return reader; }

    /** The segmentation this role attends to (null: none in particular, the plain call). */
    public Sight.Segmentation segmentation() { return segmentation; }

    /** The weight of reader {@code r} in this role's reading: ½ for the plain call, else the focus on its own. */
    public double weight(Sight.Reader r, Calibration c) {
        return reader == null ? 0.5 : r == reader ? c.roleFocus() : 1 - c.roleFocus();
    }

    /** The weight of segmentation {@code s} in this role's reading: ½ for the plain call, else the focus on its own. */
    public double weight(Sight.Segmentation s, Calibration c) {
        return segmentation == null ? 0.5 : s == segmentation ? c.roleFocus() : 1 - c.roleFocus();
    }

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
