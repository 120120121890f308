package dev.gamagent.eval;

/** Shared recorded-debate fixture for tests outside this package. */
public final class SweepFixtures {
    private SweepFixtures() { }

    public static ResultRecord recordedDebate() throws Exception { return SweepTest.recorded(); }
}
