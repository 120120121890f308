package dev.gamagent.api;

/**
 * How many model calls one question can cost a method under its settings, as a range, and how that follows from
 * its protocol (docs/methods.md, "calls per question"): {@code min} when nothing triggers a debate or it stops at
 * once, {@code max} when every round runs. A request with {@code n} choices counts as one call, and the backend is
 * assumed to return log-probs.
 *
 * @param how the formula in words, e.g. {@code N·(R+1)}
 */
public record CallPlan(int min, int max, String how) {
    /** A protocol that always makes {@code n} calls. */
    public static CallPlan fixed(int n, String how) { return new CallPlan(n, n, how); }

    /** {@code n}, or {@code min–max}. */
    @Override public String toString() { return min == max ? Integer.toString(min) : min + "–" + max; }
}
