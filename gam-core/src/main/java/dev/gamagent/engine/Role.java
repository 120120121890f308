package dev.gamagent.engine;

import java.util.Arrays;
import java.util.Locale;

/**
 * The GAM-Agent roles (GAM-Agent §3.1; docs/design.md §6): experts answer, critics assess disputed claims.
 * {@link #label()} is the {@code <role>} line of docs/CONTRACTS.md; each role's focus text is the
 * overridable prompt template {@code gam_role_<key>}.
 */
public enum Role {
    SCENE("scene", Kind.EXPERT, "scene expert"),
    OCR("ocr", Kind.EXPERT, "ocr expert"),
    RELATIONAL("relational", Kind.EXPERT, "relational expert"),
    OBJECT("object", Kind.EXPERT, "object expert"),
    ATTRIBUTE("attribute", Kind.EXPERT, "attribute expert"),
    FACT("fact", Kind.CRITIC, "fact checker"),
    COMPLETENESS("completeness", Kind.CRITIC, "completeness checker"),
    LOGIC("logic", Kind.CRITIC, "logic checker");

    /** Experts answer and revise; critics assess claims. */
    public enum Kind { EXPERT, CRITIC }

    private final String key;
    private final Kind kind;
    private final String label;

    Role(String key, Kind kind, String label) {
        this.key = key;
        this.kind = kind;
        this.label = label;
    }

    public String key() { return key; }

    public Kind kind() { return kind; }

    public String label() { return label; }

    /** The focus template name, e.g. {@code gam_role_ocr}. */
    public String template() { return "gam_role_" + key; }

    /** A role by key ("ocr"), label ("ocr expert") or enum name; unknown names list the known ones. */
    public static Role parse(String name, String where) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (Role r : values()) {
            if (r.key.equals(n) || r.label.equals(n) || r.name().toLowerCase(Locale.ROOT).equals(n)
                    || n.equals(r.key + " expert") || n.equals(r.key + " checker") || n.equals(r.key + "_checker")) return r;
        }
        if (n.equals("text")) return OCR;
        throw new IllegalArgumentException(where + ": unknown GAM role '" + name + "'; known: "
                + String.join(", ", Arrays.stream(values()).map(Role::key).toList()));
    }
}
