package dev.gamagent.eval.load;

/**
 * A benchmark row that could not be used: its index ({@code "line N"} when the row is too broken to have one),
 * why, and the 1-based line of the file it starts on (0 when not known), so an editor finds it.
 */
public record SkippedRow(String index, String reason, long line) {
    public SkippedRow(String index, String reason) { this(index, reason, 0); }

    /** "row 12 (line 14)", or "line 14" for a row without a usable index. */
    public String where() {
        if (index == null || index.startsWith("line ")) return index == null ? "line " + line : index;
        return line > 0 ? "row " + index + " (line " + line + ")" : "row " + index;
    }

    @Override public String toString() { return where() + ": " + reason; }

    /** The row and why, without the "row N: " an image error already starts with (it is said once, by toString). */
    public static SkippedRow of(String index, String reason) { return of(index, reason, 0); }

    public static SkippedRow of(String index, String reason, long line) {
        String prefix = "row " + index + ": ";
        return new SkippedRow(index, reason != null && reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason, line);
    }
}
