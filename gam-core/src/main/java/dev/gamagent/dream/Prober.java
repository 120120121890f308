package dev.gamagent.dream;

import dev.gamagent.api.Method;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.engine.AgentCall;
import dev.gamagent.engine.AnswerSampler;
import dev.gamagent.engine.ParallelCalls;
import dev.gamagent.engine.PromptText;
import dev.gamagent.engine.Prompts;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.influence.BgeSentenceEmbedder;
import dev.gamagent.influence.Similarity;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.uncertainty.UncertaintyFallback;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * DREAM's probe calls (DREAM §3.1): every agent asked at every scale, in parallel, as the inner method runs it, each reply
 * read into a {@link Probe} with its answer and u. One instance per question's probe round.
 */
record Prober(Method inner, Question q, RunContext ctx, DreamSettings s, ProbeReplies replies, ProbeSignal signal) {
    /** A prober of {@code inner}'s agents on {@code q}; the replies asked as the inner round 0 asks go to {@code replies}. */
    static Prober of(Method inner, Question q, RunContext ctx, DreamSettings s, ProbeReplies replies) {
        UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
        UncertaintyFallback fallback = UncertaintyFallback.from(ctx.config(), "dream");
        // open answers' samples are compared by meaning; loading the embedder is paid only when sampling needs it
        Similarity similarity = fallback.sampling() && !q.isMultipleChoice() ? new Similarity(BgeSentenceEmbedder.shared()) : Similarity.lexical();
        return new Prober(inner, q, ctx, s, replies,
                new ProbeSignal(estimator, new AnswerSampler(fallback, estimator.semantic()), similarity, new AtomicInteger()));
    }

    /** The probes, ordered by agent and scale, and the calls they made (an unknown backend makes none). */
    record Probed(List<Probe> probes, int calls, Map<String, String> prompts) { }

    /**
     * Every agent answers at every scale, in parallel, as the inner method runs it. A {@link MultiAgentMethod} with a fixed
     * round-0 request ({@link MultiAgentMethod#opening}) is asked exactly that, with the images at the scale (docs/design.md §7:
     * probes ask what round 0 asks), and its replies are kept for the inner round 0 ({@link ProbeReplies}); any other
     * method's agents get DREAM's one-line {@code dream_probe} prompt with their role and instructions, on their own
     * backend at their own temperature. Scales whose capped image size repeats a smaller scale's on that agent's backend are
     * probed once (the pixel limit made them the same image).
     */
    Probed probe(List<MultiAgentMethod.Agent> agents) {
        Prompts prompts = new Prompts(ctx.config());
        dev.gamagent.engine.RequestLayout layout = dev.gamagent.engine.RequestLayout.of(ctx.config());
        String format = q.isMultipleChoice() ? "Reply with one line:\nANSWER: <option letter>"
                : "Reply with one line:\nANSWER: <a single word or short phrase>";
        int topK = ctx.config().integer("logprobs.top_k");
        ctx.progress().event(new ProgressEvent.RoundStarted(-1, "probe"));
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
                        .orElseGet(() -> new Asked(sampling.request(AgentCall.messages(backend, null, layout.text(user), pics, 1.0)), null, "dream_probe"));
                if (PromptText.enabled(ctx.config())) asks.computeIfAbsent(agent.id(), k -> new LinkedHashMap<>()).put(scale, PromptText.of(asked.request()));
                fs.add(() -> {
                    Probe done = probeOne(new ProbeCall(backend, agent, index, scale, pics, asked));
                    progress.event(probeEvent(done)); // each probe as it finishes: the probe round takes a while
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
    private static ProgressEvent.ProbeAnswered probeEvent(Probe p) {
        return new ProgressEvent.ProbeAnswered(p.agent(), p.role(), p.scale(), p.width(), p.height(), p.frames(), p.pixels(),
                p.answer(), p.option(), p.u(), p.signal(), p.error());
    }

    /** What a probe asks: the request, how its reply is read (null: the line format), and which prompt it is. */
    record Asked(ChatRequest request, Function<String, MultiAgentMethod.Reading> reader, String kind) {
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
    record ProbeSignal(UncertaintyEstimator estimator, AnswerSampler sampler, Similarity similarity, AtomicInteger extraCalls) { }

    /** One probe: an agent asked at one scale (image {@code pics}) on its backend. */
    private record ProbeCall(Backend backend, MultiAgentMethod.Agent agent, int index, double scale, List<Picture> pics, Asked asked) { }

    /** Asks one probe and reads its reply (its answer, u and signal), or records its failure; a round-0 reply is kept. */
    private Probe probeOne(ProbeCall call) {
        Backend backend = call.backend();
        MultiAgentMethod.Agent agent = call.agent();
        int index = call.index();
        double scale = call.scale();
        List<Picture> pics = call.pics();
        Asked asked = call.asked();
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
}
