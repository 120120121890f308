package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * N identical debaters over R rounds, as debate and DebUnc read them from their config section: {@code <section>.agents}
 * debaters answer with prompt {@code <section>_answer}, then answer again in each of {@code <section>.rounds} rounds, so
 * calls = N·(R+1); {@code <section>.temperature} and {@code <section>.backends} as every panel reads them.
 */
record DebateRounds(String section) {
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
