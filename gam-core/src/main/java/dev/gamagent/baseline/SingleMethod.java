package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AgentCall;
import dev.gamagent.engine.Prompts;
import dev.gamagent.engine.Role;
import dev.gamagent.uncertainty.UncertaintyEstimator;

import java.util.List;
import java.util.Map;

/**
 * The direct-answer baseline ("IO"): one call, greedy, the answer as given. With {@code single.role} (a GAM expert's
 * key: scene, ocr, relational, object, attribute) the call carries that expert's role as a system message, the
 * persona baseline of the persona-prompting studies (docs/local-model.md, "Roles"): the same question and format, only
 * the persona differs.
 */
public final class SingleMethod implements Method {
    @Override public String name() { return "single"; }

    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(1, "one reply")); }

    @Override public Answer run(Question q, RunContext ctx) {
        long t0 = System.nanoTime();
        Prompts prompts = new Prompts(ctx.config());
        String user = prompts.render(q.isMultipleChoice() ? "single_mc" : "single_open", Map.of("question", q.render()));
        Sampling req = Sampling.greedy(ctx.config().integer("single.max_tokens"), ctx.config().integer("logprobs.top_k"));
        ctx.progress().event(new ProgressEvent.RoundStarted(0));
        String name = Panel.backendRefs("single", 1, ctx.config()).get("single.backends[0]");
        Backend backend = ctx.backendFor(name);
        Role role = role(ctx.config());
        String system = role == null ? null
                : "<role>" + role.label() + "</role>\n" + prompts.render(role.template(), Map.of()).strip();
        AgentCall.Reply r = AgentCall.ask(backend, system, user, q.images(), 1.0, req, UncertaintyEstimator.defaults());
        String option = q.isMultipleChoice() ? ReplyParser.option(r.text(), q.options()) : null;
        String answer = option != null ? q.options().get(option) : r.text().strip();
        double u = r.uncertainty().value();
        var turn = new Trace.AgentTurn("single", role == null ? "answerer" : role.label(), 1.0, answer, option, u, r.uncertainty().signal().label(),
                1.0, List.of(), r.tokens(), r.text(), null, null, null, RunContext.label(name),
                r.result().model() == null ? backend.name() : r.result().model());
        ctx.progress().event(ProgressEvent.AgentAnswered.answer(0, "single", answer));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        var trace = new Trace(Trace.QuestionInfo.of(q), name(), Map.of(), List.of(new Trace.Round(0, List.of(turn), List.of(), u, 0.0, null)),
                Termination.SINGLE.label(), new Trace.Final(answer, option, 1 - u), r.tokens(), 1, ms, null);
        return new Answer(answer, option, 1 - u, u, 0, Termination.SINGLE, r.tokens(), 1, ms, trace);
    }

    /** The persona {@code single.role} names (an expert's key), or null when it is not set or empty. */
    static Role role(Config c) {
        java.util.Optional<String> given = c.optionalString("single.role");
        if (given.isEmpty() || given.get().isBlank()) return null;
        String key = given.get().strip();
        Role r = Role.parse(key, "single.role");
        if (r.kind() != Role.Kind.EXPERT) {
            throw new IllegalArgumentException("single.role: '" + key + "' is a critic; a persona is one of the experts: "
                    + String.join(", ", java.util.Arrays.stream(Role.values()).filter(x -> x.kind() == Role.Kind.EXPERT).map(Role::key).toList()));
        }
        return r;
    }

    /** {@code single.backends}: the one backend it asks (default: the run's). */
    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("single", 1, c); }
}
