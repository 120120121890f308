package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Self-consistency (Wang et al.): k reasoning paths sampled at temperature T, majority over their answers.
 * One request with {@code n = k} when the backend returns several choices, else k parallel calls.
 */
public final class SelfConsistencyMethod implements MultiAgentMethod {
    /** One agent sampled k times: every sample sees the images of index 0. */
    private static final Panel.Agent SAMPLER = new Panel.Agent("sample", "assistant", 0);

    @Override public String name() { return "sc"; }

    @Override public List<Agent> agents(Question q, Config c) {
        return Debaters.roster("sc", c, List.of(SAMPLER), c.number("sc.temperature"));
    }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "sc", q, ctx);
        int k = samples(p.config());
        double temperature = p.number("temperature");
        Panel.Agent base = p.seat(List.of(SAMPLER)).get(0);
        String user = p.render("sc_answer", base, Map.of());
        List<Turn> turns;
        if (p.backendOf(base).capabilities().multipleChoices() && k > 1) {
            ctx.progress().event(new ProgressEvent.RoundStarted(0));
            turns = new ArrayList<>(p.sample(base, 0, user, p.sampling(temperature).withN(k, temperature)));
        } else {
            List<Panel.Agent> samplers = new ArrayList<>();
            for (int i = 1; i <= k; i++) samplers.add(new Panel.Agent("sample-" + i, "assistant", 0));
            turns = p.round(0, samplers, a -> user, p.sampling(temperature));
        }
        p.record(0, turns, null, null);
        return p.finish(Panel.majority(turns), 0, Termination.SINGLE, Map.of("samples", k, "temperature", temperature));
    }

    /** {@code sc.samples}, at least 1: the draws per question. */
    private static int samples(Config c) { return Math.max(1, new Panel.Section("sc", c).integer("samples")); }

    /** One request with n = k choices, or k requests where the backend returns one choice. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) {
        int k = samples(c);
        return java.util.Optional.of(new CallPlan(1, k, "one request with n = " + k + " choices, or " + k + " where the backend returns one choice"));
    }

    /** {@code sc.backends}: the one backend every sample is drawn from. */
    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("sc", 1, c); }
}
