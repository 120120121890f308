package dev.gamagent.baseline;

import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Builds a panel of identical agents {@code agent-1..agent-N} with indices 0..N-1. */
final class Debaters {
    private Debaters() { }

    static List<Panel.Agent> of(int n, String role) {
        if (n < 1) throw new Config.ConfigException("a panel needs at least one agent, got " + n);
        List<Panel.Agent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(new Panel.Agent("agent-" + (i + 1), role, i));
        return out;
    }

    /**
     * A panel as DREAM probes it ({@link MultiAgentMethod#agents}): every agent at one temperature, on the backend
     * {@code <section>.backends} names for it (the run's default when none).
     */
    static List<MultiAgentMethod.Agent> roster(String section, Config c, List<Panel.Agent> agents, double temperature) {
        return roster(section, c, agents, temperature, a -> "");
    }

    /** The same, with each agent's own instructions (e.g. its reasoning strategy). */
    static List<MultiAgentMethod.Agent> roster(String section, Config c, List<Panel.Agent> agents, double temperature,
                                               Function<Panel.Agent, String> instructions) {
        return agents.stream().map(a -> new MultiAgentMethod.Agent(a.id(), a.role(), Panel.backendName(section, a.index(), c),
                instructions.apply(a), temperature)).toList();
    }

    /** Agent {@code id}'s own answer of the last round as a revise prompt shows it, or "(no previous answer)" when it gave none. */
    static String previous(List<Turn> last, String id) {
        Turn own = find(last, id);
        return own != null && own.ok() ? Panel.body(own, false) : "(no previous answer)";
    }

    /** The turn of {@code id} in a round, or null. */
    private static Turn find(List<Turn> round, String id) {
        for (Turn t : round) if (t.id().equals(id)) return t;
        return null;
    }
}
