package dev.gamagent.eval.replay;

import dev.gamagent.eval.store.ResultRecord;

/** Shared recorded-debate fixture for tests outside this package. */
public final class SweepFixtures {
    private SweepFixtures() { }

    public static ResultRecord recordedDebate() throws Exception { return SweepTest.recorded(); }
}
