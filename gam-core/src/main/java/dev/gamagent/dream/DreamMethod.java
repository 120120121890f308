package dev.gamagent.dream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AgentScales;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DREAM (dynamic resolution assignment + uncertainty-guided rollback) around any method, through the
 * {@link Method} interface and its {@link Trace}: a probe round picks each agent's image scales (passed to the
 * inner method on its run context, {@link AgentScales}, CONTRACTS §4), the inner method
 * debates, and rollback aggregation re-reads its per-agent trajectories. A {@link MultiAgentMethod} has its
 * own agents probed (role, instructions, backend, sampling) and its own rule decide after the rollback.
 * Ablations: {@code dream.mode} = full | probe_only | rollback_only; {@code dream.threshold} = adaptive | static.
 */
public final class DreamMethod implements Method {
    public static final String PREFIX = "dream+";

    private final Method inner;

    public DreamMethod(Method inner) {
        if (inner instanceof DreamMethod) throw new IllegalArgumentException("DREAM cannot wrap itself: " + inner.name());
        this.inner = inner;
    }

    @Override public String name() { return PREFIX + inner.name(); }

    /** The backends of the inner method's agents. */
    @Override public Map<String, String> backendRefs(Config config) { return inner.backendRefs(config); }

    /**
     * The probe round (each agent at up to {@code dream.scales} scales; scales the pixel cap makes equal are probed once)
     * and the inner method's own calls, which a Consensus skips when {@code dream.consensus_skips_debate}; empty when
     * the inner method states no count.
     */
    @Override public Optional<CallPlan> plannedCalls(Config config) {
        Optional<CallPlan> own = inner.plannedCalls(config);
        if (own.isEmpty()) return Optional.empty();
        CallPlan m = own.get();
        DreamSettings s = DreamSettings.of(config);
        int agents = agents(PROBE_QUESTION, config).size(), scales = s.scales().size();
        boolean skip = s.consensusSkipsDebate();
        return Optional.of(new CallPlan(agents + (skip ? 0 : m.min()), agents * scales + m.max(), agents + " agents probed at up to " + scales
                + " scales (scales the pixel cap makes equal are probed once) + " + inner.name() + "'s " + m
                + (skip ? "; Consensus skips the debate" : "")));
    }

    /** A question to ask the inner method for its agents when counting calls: they do not depend on its content. */
    private static final Question PROBE_QUESTION = new Question("plan", List.of(), "?", null, Map.of("A", "a", "B", "b"));


    /**
     * The agents to probe: the inner method's own when it names them ({@link MultiAgentMethod}), else
     * {@link #agentCount} generic agents {@code agent-1..N} on the default backend, greedy.
     */
    List<MultiAgentMethod.Agent> agents(Question q, Config c) {
        if (inner instanceof MultiAgentMethod m) {
            List<MultiAgentMethod.Agent> own = m.agents(q, c);
            if (own.isEmpty()) throw new IllegalStateException(inner.name() + " named no agents for DREAM to probe");
            return own;
        }
        List<MultiAgentMethod.Agent> out = new ArrayList<>();
        for (int i = 1; i <= agentCount(c, inner.name()); i++) out.add(new MultiAgentMethod.Agent("agent-" + i, "assistant", null, "", 0));
        return out;
    }

    /**
     * How many agents a method that does not name its agents runs, from its config section
     * ({@code <method>.agents}, or the size of its {@code experts} / {@code roles} / {@code strategies} list);
     * {@code dream.agents} overrides; default 3.
     */
    public static int agentCount(Config c, String innerName) {
        var override = c.optionalInteger("dream.agents");
        if (override.isPresent() && override.getAsInt() > 0) return override.getAsInt();
        String section = innerName.replace('-', '_');
        JsonNode n = c.node(section + ".agents");
        if (n.isNumber() && n.asInt() > 0) return n.asInt();
        for (String list : List.of("experts", "roles", "strategies")) {
            JsonNode l = c.node(section + "." + list);
            if (l.isArray() && l.size() > 0) return l.size();
        }
        return 3;
    }

    @Override public Answer run(Question q, RunContext ctx) {
        long t0 = System.nanoTime();
        DreamSettings s = DreamSettings.of(ctx.config());
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("inner_method", inner.name());
        extra.put("mode", s.mode());
        ProbeReplies replies = new ProbeReplies();
        ProbeRound probe = s.mode().equals("rollback_only") ? ProbeRound.NONE : probeRound(q, ctx, s, extra, replies);
        if (probe.branch() != null) {
            // DREAM's branch is recorded as the paper names it; whether every readable probe agreed is a flag beside it
            ResolutionAssignment.Agreement agreed = probe.routing().consensus();
            boolean skip = agreed != null && s.consensusSkipsDebate();
            extra.put("consensus", agreed != null);
            extra.put("consensus_skips_debate", s.consensusSkipsDebate());
            extra.put("debate_skipped", skip);
            if (skip) return consensus(q, ctx, agreed, probe, extra, t0);
        }
        RunContext innerCtx = ctx;
        if (probe.branch() != null) {
            innerCtx = ctx.withTag(AgentScales.class, new AgentScales(probe.branch().assignment(probe.agents()), probe.branch().note()));
        }
        // record ANLL of every inner reply so rollback can use DREAM's signal; the trace's own u otherwise
        // a probe that asked exactly an agent's round-0 request is its round-0 answer (docs/design.md §7): the inner method takes it
        AnllRecorder recorder = new AnllRecorder(replies.over(innerCtx.backend()));
        BackendResolver resolver = innerCtx.backends();
        innerCtx = new RunContext(recorder, agentBackend -> recorder.alongside(replies.over(resolver.resolve(agentBackend))),
                innerCtx.config(), innerCtx.executor(), innerCtx.progress(), innerCtx.tags());
        Answer in;
        try {
            in = inner.run(q, innerCtx);
        } catch (MethodFailure e) {
            throw new MethodFailure(name() + " (after a " + extra.get("branch") + " probe): " + e.getMessage(), e, e.partialTrace());
        }
        Trace it = in.trace();
        List<Trace.Round> rounds = it == null || it.rounds() == null ? List.of() : it.rounds();
        extra.put("inner_final", new Trace.Final(in.answer(), in.option(), in.confidence()));
        extra.put("inner_termination", in.termination().label());
        String answer = in.answer(), option = in.option();
        double confidence = in.confidence(), uncertainty = in.uncertainty();
        if (!s.mode().equals("probe_only")) {
            RollbackAggregation.Outcome ura = rollback(rounds, s, recorder, extra);
            if (ura != null) {
                MultiAgentMethod.Decision d = decide(q, innerCtx.config(), ura, extra);
                answer = d.answer();
                option = d.option();
                confidence = d.confidence();
                uncertainty = d.uncertainty();
            }
        }
        TokenCount probeTokens = probe.tokens();
        int probeCalls = probe.calls();
        if (probe.branch() != null) {
            // the reused probes' tokens are the inner round 0's now; the probe round costs what the others cost
            TokenCount reused = replies.reusedTokens();
            probeTokens = probeTokens.minus(reused);
            probeCalls -= replies.reusedCalls();
            extra.put("probes", probe.probes().stream().map(p -> p.withReused(replies.reused(ProbeRound.key(p)))).toList());
            extra.put("probe_usage", usage(probeTokens, probeCalls, replies.reusedCalls()));
        }
        TokenCount tokens = probeTokens.plus(in.tokens());
        int calls = probeCalls + in.calls();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Trace trace = new Trace(Trace.QuestionInfo.of(q), name(), config(ctx, it), rounds, in.termination().label(),
                new Trace.Final(answer, option, confidence), tokens, calls, ms, extra);
        return new Answer(answer, option, confidence, uncertainty, in.rounds(), in.termination(), tokens, calls, ms, trace);
    }

    /**
     * The final answer over the answers after rollback: the inner method's own rule when it has one (gam: Σ w·p
     * with the last round's weights), else the majority vote, ties to the lower uncertainty (DREAM §3.2).
     */
    private MultiAgentMethod.Decision decide(Question q, Config config, RollbackAggregation.Outcome ura, Map<String, Object> extra) {
        if (inner instanceof MultiAgentMethod m) {
            var own = m.decide(q, ura.answers(), config);
            if (own.isPresent()) {
                extra.put("decided_by", inner.name());
                return own.get();
            }
        }
        MajorityVote.Verdict v = ura.verdict();
        extra.put("decided_by", "majority");
        extra.put("votes", v.scores());
        return new MultiAgentMethod.Decision(v.answer(), v.option(), v.confidence(), v.uncertainty());
    }

    /** What the probe round decided and cost for how many agents; {@code routing} null when no probe ran. */
    record ProbeRound(ResolutionAssignment.Routing routing, List<Probe> probes, int agents, TokenCount tokens, int calls) {
        static final ProbeRound NONE = new ProbeRound(null, List.of(), 0, TokenCount.ZERO, 0);

        Branch branch() { return routing == null ? null : routing.branch(); }

        /** A probe's name among the round's: each agent is probed once per scale. */
        static String key(Probe p) { return p.agentIndex() + "@" + p.scale(); }
    }

    /** The probe round's own cost: its tokens and calls without the replies the inner method took as round-0 answers. */
    private static Map<String, Object> usage(TokenCount tokens, int calls, int reused) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("prompt", tokens.prompt());
        m.put("completion", tokens.completion());
        if (tokens.cached() != null) m.put("cached", tokens.cached());
        m.put("calls", calls);
        m.put("reused_as_round_0", reused);
        return m;
    }

    /** Probes, threshold, confident set and branch (DREAM §3.1), all recorded in {@code extra}. */
    private ProbeRound probeRound(Question q, RunContext ctx, DreamSettings s, Map<String, Object> extra, ProbeReplies replies) {
        List<MultiAgentMethod.Agent> agents = agents(q, ctx.config());
        Prober.Probed probed = Prober.of(inner, q, ctx, s, replies).probe(agents);
        List<Probe> probes = probed.probes();
        if (!probed.prompts().isEmpty()) extra.put("probe_prompts", probed.prompts());
        if (!probes.isEmpty() && probes.stream().noneMatch(Probe::ok)) {
            // nothing answered: a branch decided on no evidence would only hide the backend's failure
            extra.put("probes", probes);
            Trace partial = new Trace(Trace.QuestionInfo.of(q), name(), config(ctx, null), List.of(), "error", null,
                    TokenCount.ZERO, probes.size(), 0, extra);
            throw new MethodFailure(name() + ": every one of the " + probes.size() + " probe calls failed, so the debate was not started; "
                    + "first failure: " + probes.get(0).error(), null, partial);
        }
        TokenCount tokens = TokenCount.ZERO;
        for (Probe p : probes) tokens = tokens.plus(p.tokens());
        double tau = s.threshold().equals("static") ? s.staticTau()
                : ResolutionAssignment.adaptiveThreshold(probes, s.alpha());
        List<Probe> marked = ResolutionAssignment.mark(probes, tau);
        List<Double> scales = new ArrayList<>(new java.util.TreeSet<>(marked.stream().map(Probe::scale).toList()));
        ResolutionAssignment.Routing routing = ResolutionAssignment.route(marked, agents.size(), scales);
        Branch branch = routing.branch();
        // without log-probs the probes' u is Φ_sem or sampled agreement; the run says so once (EvalRunner, ask, serve)
        for (UncertaintySignal fb : List.of(UncertaintySignal.SAMPLING, UncertaintySignal.SEMANTIC)) {
            if (marked.stream().anyMatch(p -> p.ok() && p.signal().equals(fb.label()))) extra.put("uncertainty_fallback", fb.label());
        }
        extra.put("threshold", tau);
        extra.put("threshold_kind", s.threshold());
        extra.put("branch", branch.label());
        extra.put("branch_reason", routing.reason());
        extra.put("probes", marked);
        extra.put("assignment", branch.assignment(agents.size()));
        if (!branch.note().isEmpty()) extra.put("note", branch.note());
        ctx.progress().event(new ProgressEvent.DreamBranch(branch.label(), tau));
        return new ProbeRound(routing, marked, agents.size(), tokens, probed.calls());
    }

    /**
     * URA over the inner trace (DREAM §3.2) with ANLL when every answering turn's reply was seen with
     * log-probs (matched by agent and round), else with the trace's own uncertainties: never a mix of signals.
     */
    private static RollbackAggregation.Outcome rollback(List<Trace.Round> rounds, DreamSettings s, AnllRecorder recorder,
                                                        Map<String, Object> extra) {
        boolean anll = s.rollbackUncertainty().equals("anll") && rounds.stream()
                .allMatch(r -> r.agents() == null || r.agents().stream()
                        .filter(t -> t.error() == null && t.answer() != null)
                        .allMatch(t -> recorder.uncertainty(r.k(), t) != null));
        RollbackAggregation.Outcome ura = anll
                ? RollbackAggregation.aggregate(rounds, s.rho(), (k, t) -> recorder.uncertainty(k, t))
                : RollbackAggregation.aggregate(rounds, s.rho());
        extra.put("rollback_uncertainty", anll ? "anll" : "trace");
        if (ura != null) extra.put("rollbacks", ura.rollbacks());
        return ura;
    }

    private Answer consensus(Question q, RunContext ctx, ResolutionAssignment.Agreement c, ProbeRound probe,
                             Map<String, Object> extra, long t0) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        double conf = 1 - c.uncertainty();
        Termination stop = Termination.CONSENSUS;
        extra.put("probe_usage", usage(probe.tokens(), probe.calls(), 0));
        Trace trace = new Trace(Trace.QuestionInfo.of(q), name(), config(ctx, null), List.of(), stop.label(),
                new Trace.Final(c.answer(), c.option(), conf), probe.tokens(), probe.calls(), ms, extra);
        return new Answer(c.answer(), c.option(), conf, c.uncertainty(), 0, stop, probe.tokens(), probe.calls(), ms, trace);
    }


    private static Map<String, Object> config(RunContext ctx, Trace innerTrace) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("dream", Json.MAPPER.convertValue(ctx.config().node("dream"), Object.class));
        if (innerTrace != null && innerTrace.config() != null) cfg.put("inner", innerTrace.config());
        return cfg;
    }
}
