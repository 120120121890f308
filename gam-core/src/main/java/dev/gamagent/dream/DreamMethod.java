package dev.gamagent.dream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.MultiAgentMethod;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.baseline.MajorityVote;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AgentCall;
import dev.gamagent.engine.AnswerSampler;
import dev.gamagent.engine.ParallelCalls;
import dev.gamagent.engine.PromptText;
import dev.gamagent.engine.Prompts;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.game.BgeSentenceEmbedder;
import dev.gamagent.game.Similarity;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.uncertainty.UncertaintyFallback;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * DREAM (dynamic resolution assignment + uncertainty-guided rollback) around any method, through the
 * {@link Method} interface and its {@link Trace}: a probe round picks each agent's image scales (passed to the
 * inner method on its run context, {@link RunContext.AgentScales}, CONTRACTS §4), the inner method
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

    /** The settings read from the {@code dream} config section. */
    record Settings(List<Double> scales, double alpha, double rho, String mode, String threshold, double staticTau,
                    int probeMaxTokens, String rollbackUncertainty, boolean consensusSkipsDebate) {
        static Settings of(Config c) {
            List<Double> scales = new ArrayList<>();
            JsonNode sn = c.node("dream.scales");
            if (sn.isArray()) sn.forEach(n -> scales.add(n.asDouble()));
            if (scales.isEmpty()) scales.addAll(List.of(0.5, 1.0, 2.0));
            for (double s : scales) {
                if (!(s > 0)) throw new Config.ConfigException("dream.scales must hold positive numbers, got " + sn);
            }
            String mode = c.string("dream.mode", "full").toLowerCase(Locale.ROOT);
            if (!List.of("full", "probe_only", "rollback_only").contains(mode)) {
                throw new Config.ConfigException("dream.mode must be full, probe_only or rollback_only, got '" + mode + "'");
            }
            String thr = c.string("dream.threshold", "adaptive").toLowerCase(Locale.ROOT);
            if (!List.of("adaptive", "static").contains(thr)) {
                throw new Config.ConfigException("dream.threshold must be adaptive or static, got '" + thr + "'");
            }
            String ru = c.string("dream.rollback_uncertainty", "anll").toLowerCase(Locale.ROOT);
            if (!List.of("anll", "trace").contains(ru)) {
                throw new Config.ConfigException("dream.rollback_uncertainty must be anll or trace, got '" + ru + "'");
            }
            return new Settings(scales, c.number("dream.alpha", 0.5), c.number("dream.rho", 0.5), mode, thr,
                    c.number("dream.static_tau", 0.2), c.integer("dream.probe_max_tokens", 32), ru,
                    c.bool("dream.consensus_skips_debate", false));
        }
    }

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
    static int agentCount(Config c, String innerName) {
        int override = c.integer("dream.agents", 0);
        if (override > 0) return override;
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
        Settings s = Settings.of(ctx.config());
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
            innerCtx = ctx.withScales(new RunContext.AgentScales(probe.branch().assignment(probe.agents()), probe.branch().note()));
        }
        // record ANLL of every inner reply so rollback can use DREAM's signal; the trace's own u otherwise
        // a probe that asked exactly an agent's round-0 request is its round-0 answer (DESIGN.md §7): the inner method takes it
        AnllRecorder recorder = new AnllRecorder(replies.over(innerCtx.backend()));
        BackendResolver resolver = innerCtx.backends();
        innerCtx = new RunContext(recorder, agentBackend -> recorder.alongside(replies.over(resolver.resolve(agentBackend))),
                innerCtx.config(), innerCtx.executor(), innerCtx.progress(), innerCtx.scales());
        Answer in;
        try {
            in = inner.run(q, innerCtx);
        } catch (MethodFailure e) {
            throw new MethodFailure(name() + " (after a " + extra.get("branch") + " probe): " + e.getMessage(), e, e.partialTrace());
        }
        Trace it = in.trace();
        List<Trace.Round> rounds = it == null || it.rounds() == null ? List.of() : it.rounds();
        extra.put("inner_final", new Trace.Final(in.answer(), in.option(), in.confidence()));
        extra.put("inner_termination", in.termination());
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
            probeTokens = new TokenCount(probeTokens.prompt() - reused.prompt(), probeTokens.completion() - reused.completion(),
                    probeTokens.estimated());
            probeCalls -= replies.reusedCalls();
            extra.put("probes", probe.probes().stream().map(p -> p.withReused(replies.reused(ProbeRound.key(p)))).toList());
            extra.put("probe_usage", usage(probeTokens, probeCalls, replies.reusedCalls()));
        }
        TokenCount tokens = probeTokens.plus(in.tokens());
        int calls = probeCalls + in.calls();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Trace trace = new Trace(Trace.QuestionInfo.of(q), name(), config(ctx, it), rounds, in.termination(),
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
        m.put("calls", calls);
        m.put("reused_as_round_0", reused);
        return m;
    }

    /** Probes, threshold, confident set and branch (DREAM §3.1), all recorded in {@code extra}. */
    private ProbeRound probeRound(Question q, RunContext ctx, Settings s, Map<String, Object> extra, ProbeReplies replies) {
        List<MultiAgentMethod.Agent> agents = agents(q, ctx.config());
        Probed probed = probe(q, ctx, s, agents, replies);
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
        ctx.progress().event("dream_branch", Map.of("branch", branch.label(), "threshold", tau));
        return new ProbeRound(routing, marked, agents.size(), tokens, probed.calls());
    }

    /**
     * URA over the inner trace (DREAM §3.2) with ANLL when every answering turn's reply was seen with
     * log-probs (matched by agent and round), else with the trace's own uncertainties: never a mix of signals.
     */
    private static RollbackAggregation.Outcome rollback(List<Trace.Round> rounds, Settings s, AnllRecorder recorder,
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
        String label = Termination.CONSENSUS.label();
        extra.put("probe_usage", usage(probe.tokens(), probe.calls(), 0));
        Trace trace = new Trace(Trace.QuestionInfo.of(q), name(), config(ctx, null), List.of(), label,
                new Trace.Final(c.answer(), c.option(), conf), probe.tokens(), probe.calls(), ms, extra);
        return new Answer(c.answer(), c.option(), conf, c.uncertainty(), 0, label, probe.tokens(), probe.calls(), ms, trace);
    }

    /** The probes, ordered by agent and scale, and the calls they made (an unknown backend makes none). */
    record Probed(List<Probe> probes, int calls, Map<String, String> prompts) { }

    /**
     * Every agent answers at every scale, in parallel, as the inner method runs it. A {@link MultiAgentMethod} with a fixed
     * round-0 request ({@link MultiAgentMethod#opening}) is asked exactly that, with the images at the scale (DESIGN.md §7:
     * probes ask what round 0 asks), and its replies are kept for the inner round 0 ({@link ProbeReplies}); any other
     * method's agents get DREAM's one-line {@code dream_probe} prompt with their role and instructions, on their own
     * backend at their own temperature. Scales whose capped image size repeats a smaller scale's on that agent's backend are
     * probed once (the pixel limit made them the same image).
     */
    Probed probe(Question q, RunContext ctx, Settings s, List<MultiAgentMethod.Agent> agents, ProbeReplies replies) {
        Prompts prompts = new Prompts(ctx.config());
        String format = q.isMultipleChoice() ? "Reply with one line:\nANSWER: <option letter>"
                : "Reply with one line:\nANSWER: <a single word or short phrase>";
        int topK = ctx.config().integer("logprobs.top_k", 5);
        UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
        UncertaintyFallback fallback = UncertaintyFallback.from(ctx.config(), "dream");
        // open answers' samples are compared by meaning; loading the embedder is paid only when sampling needs it
        Similarity similarity = fallback.sampling() && !q.isMultipleChoice() ? new Similarity(BgeSentenceEmbedder.shared()) : Similarity.lexical();
        ProbeSignal signal = new ProbeSignal(estimator, new AnswerSampler(fallback, estimator.semantic()), similarity, new AtomicInteger());
        ctx.progress().event("round_started", Map.of("k", -1, "phase", "probe"));
        List<Callable<Probe>> fs = new ArrayList<>();
        List<Probe> out = new ArrayList<>();
        // trace.prompts: what each agent's probes asked, as text (one entry per agent when every scale asked the same words)
        Map<String, Map<Double, String>> asks = new LinkedHashMap<>();
        ProgressListener progress = ctx.progress();
        for (int a = 0; a < agents.size(); a++) {
            MultiAgentMethod.Agent agent = agents.get(a);
            final int index = a;
            Backend backend;
            try {
                backend = ctx.backendFor(agent.backend());
            } catch (RuntimeException e) {
                // the inner method reports the same agent's unknown backend; the probe records it per scale
                String why = "backend '" + agent.backend() + "': " + e.getMessage();
                for (double scale : s.scales()) out.add(failed(agent, index, agent.backend(), scale, 0, 0, why));
                continue;
            }
            String user = prompts.render("dream_probe", Map.of("role", agent.role(), "agent", agent.id(),
                    "instructions", agent.instructions(), "question", q.render(), "format", format));
            Sampling greedy = Sampling.greedy(s.probeMaxTokens(), topK);
            Sampling sampling = agent.temperature() > 0 ? greedy.withN(1, agent.temperature()) : greedy;
            long maxPixels = backend.capabilities().maxImagePixels();
            List<String> seenSizes = new ArrayList<>();
            for (double scale : s.scales()) {
                List<Picture> pics = q.images().stream().map(p -> p.scaled(scale, maxPixels)).toList();
                String size = pics.stream().map(p -> p.width() + "x" + p.height()).toList().toString();
                if (seenSizes.contains(size)) continue;
                seenSizes.add(size);
                Optional<MultiAgentMethod.Opening> opening = inner instanceof MultiAgentMethod m ? m.opening(q, ctx, index, pics) : Optional.empty();
                Asked asked = opening.map(o -> new Asked(o.request(), o.reader(), "round-0"))
                        .orElseGet(() -> new Asked(sampling.request(AgentCall.messages(backend, null, user, pics, 1.0)), null, "dream_probe"));
                if (PromptText.enabled(ctx.config())) asks.computeIfAbsent(agent.id(), k -> new LinkedHashMap<>()).put(scale, PromptText.of(asked.request()));
                fs.add(() -> {
                    Probe done = probeOne(backend, q, agent, index, scale, pics, asked, signal, replies);
                    progress.event("probe_answered", probeEvent(done)); // each probe as it finishes: the probe round takes a while
                    return done;
                });
            }
        }
        out.addAll(ParallelCalls.all(ctx.executor(), fs, "interrupted during DREAM's probe round", ParallelCalls::rethrow));
        out.sort(java.util.Comparator.comparingInt(Probe::agentIndex).thenComparingDouble(Probe::scale));
        return new Probed(out, fs.size() + signal.extraCalls().get(), promptsByAgent(asks));
    }

    /** An image note of {@link PromptText}: its size differs from scale to scale while the words stay. */
    private static final java.util.regex.Pattern IMAGE_NOTE = java.util.regex.Pattern.compile("(?m)^\\[image (\\d+): \\d+×\\d+]$");

    /**
     * The probe prompts keyed by agent, the images noted as "at the probe's scale" when only their size differs between
     * scales; keyed by "agent ×scale" for an agent whose scales were asked different words.
     */
    private static Map<String, String> promptsByAgent(Map<String, Map<Double, String>> asks) {
        Map<String, String> out = new LinkedHashMap<>();
        for (var e : asks.entrySet()) {
            var words = e.getValue().values().stream().map(t -> IMAGE_NOTE.matcher(t).replaceAll("[image $1 at the probe's scale]"))
                    .collect(java.util.stream.Collectors.toSet());
            if (words.size() == 1) {
                out.put(e.getKey(), words.iterator().next());
            } else {
                for (var s : e.getValue().entrySet()) out.put(e.getKey() + " ×" + s.getKey(), s.getValue());
            }
        }
        return out;
    }

    /** A finished probe as a progress event: agent, scale, image size, answer, u and its signal, or the error. */
    private static Map<String, Object> probeEvent(Probe p) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("k", -1);
        ev.put("phase", "probe");
        ev.put("agent", p.agent());
        if (p.role() != null) ev.put("role", p.role());
        ev.put("scale", p.scale());
        if (p.width() > 0) ev.put("width", p.width());
        if (p.height() > 0) ev.put("height", p.height());
        if (p.frames() > 1) {
            ev.put("frames", p.frames()); // a video: every frame at this scale
            ev.put("pixels", p.pixels());
        }
        if (p.ok()) {
            if (p.answer() != null) ev.put("answer", p.answer());
            if (p.option() != null) ev.put("option", p.option());
            ev.put("u", p.u());
            ev.put("signal", p.signal());
        } else {
            ev.put("error", p.error());
        }
        return ev;
    }

    /** What a probe asks: the request, how its reply is read (null: the line format), and which prompt it is. */
    private record Asked(ChatRequest request, Function<String, MultiAgentMethod.Reading> reader, String kind) {
        /** The reply's answer as the inner method reads it: no answer (key "") when it holds no opinion or names no option. */
        MultiAgentMethod.Reading read(String text, Question q) {
            if (reader != null) return reader.apply(text);
            var parsed = ReplyParser.parse(text, q);
            return new MultiAgentMethod.Reading(parsed.answer(), parsed.option());
        }
    }

    /**
     * Where a probe's u comes from: ANLL, or without log-probs Φ_sem or the agreement of n samples
     * ({@code dream.uncertainty_fallback}); {@code extraCalls} counts the sampling requests beyond one per probe.
     */
    private record ProbeSignal(UncertaintyEstimator estimator, AnswerSampler sampler, Similarity similarity, AtomicInteger extraCalls) { }

    private static Probe probeOne(Backend backend, Question q, MultiAgentMethod.Agent agent, int index, double scale,
                                  List<Picture> pics, Asked asked, ProbeSignal signal, ProbeReplies replies) {
        int w = pics.isEmpty() ? 0 : pics.get(0).width(), h = pics.isEmpty() ? 0 : pics.get(0).height();
        try {
            ChatRequest request = asked.request();
            ChatResult r = backend.chat(request);
            Choice c = r.first();
            MultiAgentMethod.Reading read = asked.read(c.text(), q);
            TokenCount tokens = r.usage().toTokenCount();
            Estimate u = signal.estimator().anll(c);
            // a multiple-choice reply without an option letter (a refusal, a ramble, NOT APPLICABLE) has no answer to agree on
            String key = q.isMultipleChoice() ? (read.option() == null ? "" : read.option())
                    : read.answer() == null ? "" : ReplyParser.key(read.answer(), null);
            String answer = q.isMultipleChoice() ? read.option() : read.answer();
            if (!key.isEmpty() && signal.sampler().applies(c)) {
                // no log-probs: u from n samples of the same probe (dream.uncertainty_fallback = sampling)
                List<TokenCount> more = new ArrayList<>();
                Function<Choice, String> answerOf = ch -> {
                    var p = asked.read(ch.text(), q);
                    return q.isMultipleChoice() ? p.option() : p.answer();
                };
                try {
                    List<Choice> samples = signal.sampler().draw(backend, request, x -> more.add(x.usage().toTokenCount()));
                    u = (q.isMultipleChoice()
                            ? signal.sampler().options(answer, samples, answerOf, List.copyOf(q.options().keySet()), c.text())
                            : signal.sampler().open(answer, samples, answerOf, signal.similarity(), c.text())).uncertainty();
                } catch (RuntimeException e) {
                    // the samples failed, the probe stands: its u stays Φ_sem (its signal says so)
                }
                tokens = more.stream().reduce(tokens, TokenCount::plus);
                signal.extraCalls().addAndGet(more.size());
            }
            if (asked.kind().equals("round-0")) replies.keep(index + "@" + scale, request, r);
            return new Probe(agent.id(), index, agent.role(), backend.name(), scale, w, h, read.answer(), read.option(),
                    key, u.value(), u.signal().label(), false, tokens, null, asked.kind(), false, pics.size(), pixels(pics));
        } catch (RuntimeException e) {
            return failed(agent, index, backend.name(), scale, w, h, e.getClass().getSimpleName() + ": " + e.getMessage())
                    .withImages(pics.size(), pixels(pics));
        }
    }

    /** The pixels of every image a probe sends, together (each frame of a video at the probe's scale). */
    private static long pixels(List<Picture> pics) { return pics.stream().mapToLong(Picture::pixels).sum(); }

    private static Probe failed(MultiAgentMethod.Agent agent, int index, String backend, double scale, int w, int h, String why) {
        return new Probe(agent.id(), index, agent.role(), backend, scale, w, h, null, null, "", 1.0,
                UncertaintySignal.FIXED.label(), false, TokenCount.ZERO, why);
    }

    private static Map<String, Object> config(RunContext ctx, Trace innerTrace) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("dream", Json.MAPPER.convertValue(ctx.config().node("dream"), Object.class));
        if (innerTrace != null && innerTrace.config() != null) cfg.put("inner", innerTrace.config());
        return cfg;
    }
}
