package dev.gamagent.eval.recipe;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Method;
import dev.gamagent.config.Config;

import java.util.Locale;

/**
 * Model calls per question a method's protocol can make, as a range, from its settings (docs/methods.md,
 * "calls per question"): the least when nothing triggers a debate or it stops at once, the most when every
 * round runs. Each method states its own count ({@link Method#plannedCalls}); this asks it. It assumes the backend
 * returns log-probs (the sampling fallback adds {@code gam.samples} draws per expert answer) and counts a request
 * with {@code n} choices as one call.
 */
public final class ProtocolCalls {
    private ProtocolCalls() { }

    /** A range of calls per question and how it follows from the protocol. */
    public record Range(int min, int max, String how) {
        @Override public String toString() { return min == max ? Integer.toString(min) : min + "–" + max; }
    }

    /**
     * The range for {@code method} under {@code config}, as the method states it ({@link Method#plannedCalls}, read
     * from the settings its run reads); an unknown method throws, naming it.
     */
    public static Range of(String method, Config config) {
        Method m = MethodRegistry.create(method.strip().toLowerCase(Locale.ROOT)); // throws for an unknown name
        CallPlan plan = m.plannedCalls(config)
                .orElseThrow(() -> new IllegalArgumentException("no call count for method '" + method + "' yet"));
        return new Range(plan.min(), plan.max(), plan.how());
    }
}
