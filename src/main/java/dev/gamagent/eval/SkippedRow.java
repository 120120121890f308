package dev.gamagent.eval;

/** A benchmark row that could not be used: its index (or line number) and why. */
public record SkippedRow(String index, String reason) {
    @Override public String toString() { return "row " + index + ": " + reason; }
}
