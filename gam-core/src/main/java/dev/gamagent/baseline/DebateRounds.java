package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * N identical debaters over R rounds, as debate and DebUnc read them from their config section: {@code <section>.agents}
 * debaters answer with prompt {@code <section>_answer}, then answer again in each of {@code <section>.rounds} rounds, so
 * calls = N·(R+1); {@code <section>.temperature} and {@code <section>.backends} as every panel reads them. Also the one
 * round loop of the debates ({@link #debate}: debate, DebUnc and DMAD).
 */
record DebateRounds(String section) {
    /** What a debate records of a round: the turns as answered, and the turns it goes on with (after {@link #carryOver}). */
    @FunctionalInterface
    interface Recorder {
        /** Records round {@code k} and the method's decision after it; round 0 has {@code answered} and {@code kept} alike. */
        void record(int k, List<Turn> answered, List<Turn> kept);
    }

    /**
     * The debates' round loop: the agents answer ({@code first}), then in each of {@code rounds} rounds answer again
     * ({@code revise}, given the agent and the previous round's kept turns), all agents of a round at once
     * ({@link Panel#round}); an agent whose call failed keeps its previous answer ({@link #carryOver}); each round goes to
     * {@code recorder}. Returns the last round's kept turns, which the method decides on.
     */
    static List<Turn> debate(Panel p, List<Panel.Agent> agents, int rounds, Sampling sampling, Function<Panel.Agent, String> first,
                             BiFunction<Panel.Agent, List<Turn>, String> revise, Recorder recorder) {
        List<Turn> prev = p.round(0, agents, first, sampling);
        recorder.record(0, prev, prev);
        for (int k = 1; k <= rounds; k++) {
            List<Turn> last = prev;
            List<Turn> now = p.round(k, agents, a -> revise.apply(a, last), sampling);
            prev = carryOver(now, last);
            recorder.record(k, now, prev);
        }
        return prev;
    }

    /** An agent whose call failed keeps its previous answer, so one dropped call does not lose its vote. */
    static List<Turn> carryOver(List<Turn> now, List<Turn> last) {
        return IntStream.range(0, now.size()).mapToObj(i -> now.get(i).ok() || i >= last.size() ? now.get(i) : last.get(i)).toList();
    }

    /** The recorder of a debate decided by the plain majority of the kept turns: the round as answered, then the majority. */
    static Recorder majority(Panel p) {
        return (k, answered, kept) -> {
            p.record(k, answered, null, null);
            p.decided(Panel.majority(kept));
        };
    }

    List<Panel.Agent> debaters(Config c) { return Debaters.of(c.integer(section + ".agents"), "debater"); }

    int rounds(Config c) { return new Panel.Section(section, c).integer("rounds"); }

    Map<String, String> backendRefs(Config c) { return Panel.backendRefs(section, debaters(c).size(), c); }

    List<MultiAgentMethod.Agent> roster(Config c) { return Debaters.roster(section, c, debaters(c), c.number(section + ".temperature")); }

    /** N agents answer, then answer again in each of R rounds. */
    Optional<CallPlan> plannedCalls(Config c) { return Optional.of(CallPlan.fixed(debaters(c).size() * (rounds(c) + 1), "N·(R+1)")); }

    String firstPrompt(Panel p, Panel.Agent a) { return p.render(section + "_answer", a, Map.of()); }

    /** Agent {@code index}'s round-0 request of method {@code method} with the given images (DREAM's probe asks exactly this). */
    Optional<MultiAgentMethod.Opening> opening(String method, Question q, RunContext ctx, int index, List<Picture> images) {
        List<Panel.Agent> agents = debaters(ctx.config());
        if (index < 0 || index >= agents.size()) return Optional.empty();
        Panel p = new Panel(method, section, q, ctx);
        return Optional.of(p.opening(agents.get(index), firstPrompt(p, agents.get(index)), p.sampling(p.number("temperature")), images));
    }
}
