package dev.gamagent.uncertainty;

import dev.gamagent.backend.UncertaintySignal;

/** An uncertainty in [0,1] (1 = most uncertain) and the signal it came from. */
public record Estimate(double value, UncertaintySignal signal) {
    public Estimate {
        if (Double.isNaN(value)) value = 1.0;
        value = Math.max(0, Math.min(1, value));
    }

    public static Estimate notApplicable() { return new Estimate(1.0, UncertaintySignal.FIXED); }
}
