package dev.gamagent.local;

import java.util.Locale;

/** What an agent's role lets it look at: text only, objects and attributes, positions, or everything. */
public enum Lens {
    TEXT, OBJECTS, POSITIONS, ALL;

    public static Lens of(String role) {
        String r = role == null ? "" : role.toLowerCase(Locale.ROOT);
        if (r.contains("ocr") || r.contains("text")) return TEXT;
        if (r.contains("relation") || r.contains("spatial")) return POSITIONS;
        if (r.contains("scene") || r.contains("object") || r.contains("attribute")) return OBJECTS;
        return ALL;
    }

    /** Whether this lens examines what the family's answer depends on. */
    public boolean sees(QuestionFamily f) {
        return switch (this) {
            case ALL -> !(f instanceof QuestionFamily.Unknown);
            case TEXT -> f instanceof QuestionFamily.Text;
            case OBJECTS -> f instanceof QuestionFamily.Count || f instanceof QuestionFamily.Color
                    || f instanceof QuestionFamily.Shape || f instanceof QuestionFamily.Chart;
            case POSITIONS -> f instanceof QuestionFamily.Spatial || f instanceof QuestionFamily.Chart;
        };
    }
}
