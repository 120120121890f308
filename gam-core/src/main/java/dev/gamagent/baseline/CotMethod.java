package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.config.Config;

import java.util.List;
import java.util.Map;

/** Chain-of-thought (Wei et al.): one greedy call that reasons step by step, then states "ANSWER: X". */
public final class CotMethod implements Method {
    @Override public String name() { return "cot"; }

    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(1, "one reply")); }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "cot", q, ctx);
        Panel.Agent a = p.seat(List.of(new Panel.Agent("cot", "assistant", 0))).get(0);
        Turn t = p.ask(a, 0, p.render("cot_answer", a, Map.of()), p.sampling(0));
        p.record(0, List.of(t), List.of(1.0), null);
        return p.finish(Panel.majority(List.of(t)), 0, Termination.SINGLE, null);
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("cot", 1, c); }
}
