package dev.gamagent.eval;

/** A benchmark row that could not be used: its index (or line number) and why. */
public record SkippedRow(String index, String reason) {
    @Override public String toString() { return "row " + index + ": " + reason; }

    /** The row and why, without the "row N: " an image error already starts with (it is said once, by toString). */
    static SkippedRow of(String index, String reason) {
        String prefix = "row " + index + ": ";
        return new SkippedRow(index, reason != null && reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason);
    }
}
