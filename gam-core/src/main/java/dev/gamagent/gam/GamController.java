package dev.gamagent.gam;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gamagent.api.Answer;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.engine.AnswerSampler;
import dev.gamagent.engine.ParallelCalls;
import dev.gamagent.engine.PromptText;
import dev.gamagent.engine.Prompts;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.game.Consensus;
import dev.gamagent.game.DebateRule;
import dev.gamagent.game.GameState;
import dev.gamagent.game.OptionDistribution;
import dev.gamagent.game.Similarity;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The GAM-Agent controller for one question (GAM-Agent §3.5; DESIGN.md §6): round 0 experts in
 * parallel; U_i, Sim, w, U_sys, C; debate iff U_sys > θ_U or C > θ_C; each round picks disputed claims,
 * runs the critics and then the experts' revisions in parallel and recomputes the game; stops on
 * uncertainty, stagnation, K_max or budget. One instance per run (it holds the run's counters).
 */
final class GamController {
    private final Question q;
    private final RunContext ctx;
    private final GamSettings s;
    private final Similarity similarity;
    private final UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
    private final AnswerSampler sampler;
    private final GamPrompts prompts;
    private final List<String> letters;
    private final AtomicLong promptTokens = new AtomicLong(), completionTokens = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean tokensEstimated;
    private final long t0 = System.nanoTime();
    /** {@code trace.prompts}: each round's extra holds what every expert and critic was asked, as text. */
    private final boolean recordPrompts;

    GamController(Question q, RunContext ctx, GamSettings settings, Similarity similarity) {
        this.q = q;
        this.ctx = ctx;
        this.s = settings;
        this.similarity = similarity;
        this.prompts = new GamPrompts(new Prompts(ctx.config()), q, AgentImages.note(ctx));
        this.letters = List.copyOf(q.options().keySet());
        this.sampler = new AnswerSampler(settings.fallback(), estimator.semantic());
        this.recordPrompts = PromptText.enabled(ctx.config());
    }

    /**
     * One expert's turn in one round; {@code error} set when its backend failed and it dropped out; {@code samples} the
     * sampled answers its U came from (sampling fallback), else null; {@code prompt} what it was asked, as text, when the
     * run records prompts ({@code trace.prompts}), else null.
     */
    record Turn(AgentSpec spec, int index, String raw, Choice choice, ParsedResponse parsed, String answer, String option,
                Estimate u, Map<String, Double> dist, String distSource, TokenCount tokens, String error, String model, List<String> samples,
                String prompt) {
        boolean answered() { return error == null; }

        /**
         * Why this answering expert holds no opinion ("not applicable", "unreadable": no answer, or a multiple-choice
         * reply naming no option; "declined": an open answer that only declines), or null when it holds one. Such an
         * expert keeps its weight but does not shape the game (DESIGN.md §5; the rule is {@link Consensus#noOpinion}).
         */
        String noOpinion(boolean multipleChoice) { return answered() ? GamController.noOpinion(parsed, answer, option, multipleChoice) : null; }
    }

    /** A round's state over the experts that answered: the game, the weighted consensus and whether the choices agree. */
    record State(List<Turn> turns, List<Turn> live, GameState game, Consensus.Verdict verdict, boolean agreed) implements DebateRule.Standing {
        double weightOf(Turn t) {
            int i = live.indexOf(t);
            return i < 0 ? 0 : game.weights()[i];
        }

        String answer() { return verdict.answer(); }

        String option() { return verdict.option(); }

        double confidence() { return verdict.confidence(); }

        @Override public double uSys() { return game.uSys(); }

        @Override public double conflict() { return game.conflict(); }

        @Override public boolean answered() { return turns.stream().anyMatch(Turn::answered); }

        @Override public boolean agreed() { return agreed; }
    }

    Answer run() {
        List<Trace.Round> rounds = new ArrayList<>();
        Map<String, Turn> lastAnswered = new HashMap<>();

        ctx.progress().event("round_started", Map.of("k", 0));
        List<Turn> turns0 = experts(0, null, List.of(), lastAnswered);
        if (turns0.stream().noneMatch(Turn::answered)) {
            rounds.add(traceRound(0, turns0, null, List.of(), null));
            Trace partial = trace(rounds, "failed", null, Map.of());
            String why = turns0.stream().map(t -> t.spec().id() + ": " + t.error()).reduce((a, b) -> a + "; " + b).orElse("no experts");
            throw new MethodFailure("gam: no expert answered question " + q.id() + " (" + why + ")", null, partial);
        }
        State state0 = evaluate(turns0);
        remember(turns0, lastAnswered);
        weightsEvent(0, state0);
        DebateRule rule = s.rule();
        DebateRule.Trigger check = rule.trigger(state0);
        boolean trigger = check.fired();
        Map<String, Object> extra0 = new LinkedHashMap<>(consensusExtra(state0));
        extra0.put("trigger", trigger);
        extra0.put("trigger_check", triggerExtra(check));
        if (s.recordFull()) extra0.put("stop_reason_if_default", trigger ? "continue" : Termination.CONSENSUS.label());
        rounds.add(traceRound(0, turns0, state0, List.of(), extra0));

        // the rule (shared with gam sweep) decides when to debate and stop; this class plays the rounds it asks for
        DebateRule.Outcome<State> end = rule.run(state0, new DebateRule.Rounds<>() {
            private List<Trace.Critique> critiques;
            private Map<String, Object> roundExtra;
            private int disputedCount;

            @Override public State play(int k, State current) {
                ctx.progress().event("round_started", Map.of("k", k));
                List<GamPrompts.Disputed> disputed = disputed(current);
                disputedCount = disputed.size();
                roundExtra = new LinkedHashMap<>();
                critiques = new ArrayList<>();
                List<GamPrompts.Shown> shown = critics(k, current, disputed, critiques, roundExtra);
                List<Turn> turns = experts(k, current, shown, lastAnswered);
                remember(turns, lastAnswered);
                return turns.stream().anyMatch(Turn::answered) ? evaluate(turns) : new State(turns, List.of(), null, null, false);
            }

            @Override public State carry(State previous, State failed) {
                return new State(failed.turns(), previous.live(), previous.game(), previous.verdict(), previous.agreed());
            }

            @Override public long tokensUsed() { return tokens(); }

            @Override public void settled(int k, State next, DebateRule.Stop stop) {
                weightsEvent(k, next);
                roundExtra.putAll(consensusExtra(next));
                roundExtra.put("disputed", disputedCount);
                if (!next.answered()) roundExtra.put("carried", "every expert failed; the previous round's standing is kept");
                roundExtra.put("stop", stopExtra(stop));
                Termination unforced = stop.unforcedReason();
                if (s.recordFull()) roundExtra.put("stop_reason_if_default", unforced == null ? "continue" : unforced.label());
                rounds.add(traceRound(k, next.turns(), next, critiques, roundExtra));
            }
        });

        State state = end.last();
        int ran = end.rounds();
        String answer = state.answer(), option = state.option();
        double confidence = state.confidence();
        Map<String, Object> judgeExtra = new LinkedHashMap<>();
        if (s.judge() && !q.isMultipleChoice() && ran > 0) {
            String judged = judge(state, judgeExtra);
            if (judged != null) {
                answer = judged;
                confidence = openConfidence(state, judged);
            }
        }
        Trace.Final fin = new Trace.Final(answer, option, confidence);
        Trace trace = trace(rounds, end.termination().label(), fin, judgeExtra.isEmpty() ? Map.of() : Map.of("judge", judgeExtra));
        return new Answer(answer, option, confidence, state.game().uSys(), ran, end.termination().label(), trace.tokens(),
                calls.get(), trace.millis(), trace);
    }

    // ---- experts ----

    private List<Turn> experts(int k, State prev, List<GamPrompts.Shown> critiques, Map<String, Turn> lastAnswered) {
        List<Callable<Turn>> jobs = new ArrayList<>();
        for (int i = 0; i < s.experts().size(); i++) {
            AgentSpec spec = s.experts().get(i);
            int index = i;
            jobs.add(() -> expert(k, spec, index, prev, critiques, lastAnswered.get(spec.id())));
        }
        List<Turn> turns = all(jobs);
        for (Turn t : turns) {
            Map<String, Object> ev = new LinkedHashMap<>();
            ev.put("k", k);
            ev.put("id", t.spec().id());
            ev.put("role", t.spec().role().key());
            if (t.answered()) {
                ev.put("answer", t.answer());
                if (t.option() != null) ev.put("option", t.option());
                ev.put("uncertainty", t.u().value());
            } else {
                ev.put("error", t.error());
            }
            ctx.progress().event("agent_answered", ev);
        }
        return turns;
    }

    private Turn expert(int k, AgentSpec spec, int index, State prev, List<GamPrompts.Shown> critiques, Turn mine) {
        Backend backend;
        try {
            backend = ctx.backendFor(spec.backend());
        } catch (RuntimeException e) {
            return failed(spec, index, "backend '" + spec.backend() + "': " + e.getMessage());
        }
        boolean json = backend.capabilities().structuredOutput();
        List<Picture> images = AgentImages.forAgent(q, ctx, index, spec.scale(), backend.capabilities().maxImagePixels());
        ChatRequest req;
        if (k == 0) {
            req = answerRequest(s, prompts, spec, json, images);
        } else {
            List<GamPrompts.Peer> peers = new ArrayList<>();
            for (Turn t : prev.live()) {
                if (!t.spec().id().equals(spec.id())) peers.add(new GamPrompts.Peer(t.spec().id(), prev.weightOf(t), render(t)));
            }
            String prompt = prompts.revise(spec.role(), mine == null ? null : render(mine), peers, critiques, json);
            req = request(prompt, images, json ? "gam_expert" : null, json ? prompts.expertSchema() : null).from(spec.id(), k);
        }
        String asked = recordPrompts ? PromptText.of(req) : null;
        ChatResult result;
        try {
            result = backend.chat(req);
        } catch (RuntimeException e) {
            return failed(spec, index, e.getClass().getSimpleName() + ": " + e.getMessage(), asked);
        }
        TokenCount tok = count(result);
        Choice c = result.first();
        // a claim's frame names one of the question's images (1..N); one outside them is dropped with a note in the trace
        ParsedResponse p = ClaimParser.parseAnswer(c.text(), q.options()).withFramesWithin(q.images().size());
        String option = null, answer = p.answer();
        if (q.isMultipleChoice() && p.answer() != null && !p.notApplicable()) {
            option = ReplyParser.option(p.answer(), q.options());
            if (option != null) answer = q.options().get(option);
        }
        boolean opinionless = noOpinion(p, answer, option, q.isMultipleChoice()) != null;
        AnswerSampler.Sampled sampled = null;
        if (!opinionless && !s.noUncertainty() && sampler.applies(c)) {
            // no log-probs: U from n samples of the same request (docs/GAM.md, "Without log-probs")
            List<TokenCount> used = new ArrayList<>();
            try {
                sampled = sampled(option != null ? option : answer, p.hedgeText(c.text()), sampler.draw(backend, req, r -> used.add(count(r))));
            } catch (RuntimeException e) {
                sampled = null; // the samples failed, the answer stands: its U falls back to Φ_sem (the trace's signal says so)
            }
            tok = used.stream().reduce(tok, TokenCount::plus);
        }
        Estimate u;
        if (s.noUncertainty()) {
            u = new Estimate(GamSettings.EQUAL_U, UncertaintySignal.FIXED); // the ablation: one U for all, opinionless included
        } else if (opinionless) {
            u = Estimate.notApplicable(); // not applicable or no readable answer: maximal uncertainty (DESIGN.md §5)
        } else if (sampled != null) {
            u = sampled.uncertainty();
        } else {
            u = estimator.estimate(c, s.scoring(), spanAnswer(p.answer(), option), p.hedgeText(c.text()), ClaimParser::contentSpans);
        }
        Map<String, Double> dist = null;
        String source = null;
        if (q.isMultipleChoice() && opinionless) {
            dist = OptionDistribution.smoothed(letters, null, 1); // no opinion: nothing chosen, uniform (DESIGN.md §5)
            source = "uniform";
        } else if (q.isMultipleChoice() && sampled != null) {
            dist = sampled.distribution();
            source = "samples";
        } else if (q.isMultipleChoice()) {
            // the letter token's own probabilities when they describe the choice the reply made (DESIGN.md §4), else the
            // chosen option smoothed by U; under "no uncertainty" U says nothing, so the chosen option alone
            Map<String, Double> read = OptionDistribution.fromLogprobs(c.logprobs(), letters, option);
            if (OptionDistribution.follows(read, option)) {
                dist = read;
                source = "logprobs";
            } else {
                dist = OptionDistribution.smoothed(letters, option, s.noUncertainty() ? 0 : u.value());
                source = (s.noUncertainty() ? "chosen option" : "smoothed by U")
                        + (read == null ? "" : " (the letter's log-probs do not favour the chosen option)");
            }
        }
        return new Turn(spec, index, c.text(), c, p, answer, option, u, dist, source, tok, null,
                result.model() == null ? backend.name() : result.model(), sampled == null ? null : sampled.keys(), asked);
    }

    /** Why a reply holds no opinion ("not applicable", "unreadable"), or null when it holds one. */
    private static String noOpinion(ParsedResponse p, String answer, String option, boolean multipleChoice) {
        return Consensus.noOpinion(p.notApplicable(), !p.parse().equals("none"), answer, option, multipleChoice);
    }

    /** What an expert's samples say about its answer (the answer's letter, or its words for an open question). */
    private AnswerSampler.Sampled sampled(String answer, String hedgeText, List<Choice> samples) {
        Function<Choice, String> key = ch -> {
            ParsedResponse p = ClaimParser.parseAnswer(ch.text(), q.options());
            if (p.notApplicable() || p.answer() == null) return null;
            return q.isMultipleChoice() ? ReplyParser.option(p.answer(), q.options()) : p.answer();
        };
        return q.isMultipleChoice() ? sampler.options(answer, samples, key, letters, hedgeText)
                : sampler.open(answer, samples, key, similarity, hedgeText);
    }

    /**
     * The answer as the expert wrote it, for answer-span scoring: the option letter when it wrote one ("B", "B. blue"),
     * else its own words ("blue"); searching for a letter it never wrote would score an unrelated token.
     */
    static String spanAnswer(String written, String option) {
        if (option == null || written == null) return written;
        return written.strip().matches("(?s)^[(\\[*\"']*" + java.util.regex.Pattern.quote(option) + "\\b.*") ? option : written;
    }

    private Turn failed(AgentSpec spec, int index, String error) { return failed(spec, index, error, null); }

    private Turn failed(AgentSpec spec, int index, String error, String prompt) {
        return new Turn(spec, index, null, null, ParsedResponse.none(), null, null, new Estimate(1.0, UncertaintySignal.FIXED),
                null, null, TokenCount.ZERO, error, null, null, prompt);
    }

    // ---- the game ----

    private State evaluate(List<Turn> turns) {
        List<Turn> live = turns.stream().filter(Turn::answered).toList();
        int n = live.size();
        double[] u = new double[n];
        boolean[] opinion = new boolean[n];
        List<Consensus.Vote> votes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Turn t = live.get(i);
            u[i] = t.u().value();
            opinion[i] = t.noOpinion(q.isMultipleChoice()) == null;
            votes.add(new Consensus.Vote(t.option(), t.answer(), t.dist(), opinion[i]));
        }
        double[][] sim = q.isMultipleChoice()
                ? similarity.multipleChoice(live.stream().map(Turn::dist).toList())
                : similarity.open(live.stream().map(t -> t.answer() == null ? "" : t.answer()).toList());
        GameState g = GameState.compute(u, sim, s.game(), s.noDynamicWeights(), opinion);
        boolean agreed = Consensus.agreed(votes);
        if (q.isMultipleChoice()) return new State(turns, live, g, Consensus.multipleChoice(votes, g.weights(), letters, q.options()), agreed);
        Consensus.Verdict v = Consensus.open(votes, g.weights());
        double conf = v.index() < 0 ? 0 : openConfidence(g.weights(), g.u(), g.sim()[v.index()], opinion);
        return new State(turns, live, g, new Consensus.Verdict(null, v.answer(), conf, v.rule(), v.index()), agreed);
    }

    /** A final answer of the game: the answer, its option letter (multiple choice) and its confidence. */
    record Decision(String answer, String option, double confidence) { }

    /**
     * GAM's decision rule (DESIGN.md §6, {@link Consensus}) over the experts' answers, option distributions, weights w,
     * uncertainties u and whether each holds an opinion (option letters for multiple choice); {@code sim} is the open answers' similarity matrix (unused
     * for multiple choice). DREAM's rollback decides dream+gam with this same rule (GamMethod#decide).
     */
    static Decision decide(Question q, List<String> options, List<String> answers, List<Map<String, Double>> dists,
                           double[] w, double[] u, double[][] sim, boolean[] opinion) {
        List<Consensus.Vote> votes = new ArrayList<>(w.length);
        for (int i = 0; i < w.length; i++) votes.add(new Consensus.Vote(options.get(i), answers.get(i), dists.get(i), opinion[i]));
        if (q.isMultipleChoice()) {
            Consensus.Verdict v = Consensus.multipleChoice(votes, w, List.copyOf(q.options().keySet()), q.options());
            return new Decision(v.answer(), v.option(), v.confidence());
        }
        Consensus.Verdict v = Consensus.open(votes, w);
        return new Decision(v.answer(), null, v.index() < 0 ? 0 : openConfidence(w, u, sim[v.index()], opinion));
    }

    /**
     * Open answers: p_i(answer) read as Sim(R_i, answer)·(1 − U_i) over the experts with an opinion, their weights
     * renormalised: confidence = Σ_i w_i·Sim·(1 − U_i) / Σ_i w_i (our reading of DESIGN.md §6 where no option
     * distribution exists).
     */
    private static double openConfidence(double[] w, double[] u, double[] simToAnswer, boolean[] opinion) {
        double c = 0, mass = 0;
        for (int i = 0; i < w.length; i++) {
            if (!opinion[i]) continue;
            c += w[i] * simToAnswer[i] * (1 - u[i]);
            mass += w[i];
        }
        return mass <= 0 ? 0 : Math.max(0, Math.min(1, c / mass));
    }

    private double openConfidence(State st, String answer) {
        double[] sim = new double[st.live().size()];
        boolean[] opinion = new boolean[sim.length];
        for (int i = 0; i < sim.length; i++) {
            Turn t = st.live().get(i);
            opinion[i] = t.noOpinion(false) == null;
            sim[i] = t.answer() == null ? 0 : similarity.open(t.answer(), answer);
        }
        return openConfidence(st.game().weights(), st.game().u(), sim, opinion);
    }

    // ---- disputed claims and critics ----

    /**
     * Disputed claims (GAM-Agent §3.5.2): first the main claim of each expert that contradicts the weighted
     * consensus (least trusted first), then the lowest-confidence claims; at most {@code gam.max_disputed}.
     * An expert that disagrees but gave no claims is represented by its answer as a claim.
     */
    List<GamPrompts.Disputed> disputed(State st) {
        List<GamPrompts.Disputed> out = new ArrayList<>();
        List<Turn> dissent = new ArrayList<>();
        for (Turn t : st.live()) if (t.noOpinion(q.isMultipleChoice()) == null && disagrees(t, st)) dissent.add(t);
        dissent.sort(Comparator.comparingDouble(st::weightOf));
        for (Turn t : dissent) {
            Trace.Claim main = t.parsed().claims().isEmpty()
                    ? new Trace.Claim(0, "The answer is " + (t.option() != null ? t.option() + ". " : "") + t.answer(), 1 - t.u().value(), null, null)
                    : t.parsed().claims().get(0);
            out.add(new GamPrompts.Disputed(t.spec().id(), main));
        }
        List<GamPrompts.Disputed> rest = new ArrayList<>();
        for (Turn t : st.live()) {
            if (t.noOpinion(q.isMultipleChoice()) != null) continue; // an expert without an opinion has nothing to dispute
            for (Trace.Claim c : t.parsed().claims()) rest.add(new GamPrompts.Disputed(t.spec().id(), c));
        }
        rest.sort(Comparator.comparingDouble(d -> d.claim().confidence()));
        for (GamPrompts.Disputed d : rest) if (!out.contains(d)) out.add(d);
        return out.size() > s.maxDisputed() ? List.copyOf(out.subList(0, Math.max(0, s.maxDisputed()))) : out;
    }

    private boolean disagrees(Turn t, State st) {
        if (q.isMultipleChoice()) return t.option() != null && !t.option().equals(st.option());
        if (t.answer() == null || st.answer() == null) return false;
        return similarity.open(t.answer(), st.answer()) < 0.8;
    }

    private List<GamPrompts.Shown> critics(int k, State st, List<GamPrompts.Disputed> disputed,
                                           List<Trace.Critique> critiques, Map<String, Object> roundExtra) {
        if (disputed.isEmpty() || s.critics().isEmpty()) return List.of();
        String consensus = (st.answer() == null ? "(no expert holds an opinion)" : (st.option() != null ? st.option() + ". " : "") + st.answer())
                + String.format(java.util.Locale.ROOT, " (weighted confidence %.2f, U_sys %.2f)", st.confidence(), st.game().uSys());
        List<Callable<List<GamPrompts.Shown>>> jobs = new ArrayList<>();
        Map<String, String> errors = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, String> paths = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Map<String, String>> served = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, String> asked = new java.util.concurrent.ConcurrentHashMap<>();
        // critics' usage belongs to this round (they are not trace agents), so a sweep stopping here counts it
        AtomicLong critPrompt = new AtomicLong(), critCompletion = new AtomicLong();
        AtomicInteger critCalls = new AtomicInteger();
        for (int c = 0; c < s.critics().size(); c++) {
            AgentSpec spec = s.critics().get(c);
            int index = s.experts().size() + c;
            jobs.add(() -> {
                try {
                    Backend backend = ctx.backendFor(spec.backend());
                    boolean json = backend.capabilities().structuredOutput();
                    List<Picture> images = new ArrayList<>();
                    String zoom = criticImages(images, disputed, index, spec.scale(), backend.capabilities().maxImagePixels());
                    String prompt = prompts.critique(spec.role(), consensus, disputed, zoom, json);
                    ChatRequest req = request(prompt, images, json ? "gam_critique" : null, json ? ResponseSchemas.CRITIQUE : null);
                    if (recordPrompts) asked.put(spec.id(), PromptText.of(req));
                    ChatResult r = backend.chat(req);
                    TokenCount used = count(r);
                    critPrompt.addAndGet(used.prompt());
                    critCompletion.addAndGet(used.completion());
                    critCalls.incrementAndGet();
                    paths.put(spec.id(), ClaimParser.critiquePath(r.text()));
                    served.put(spec.id(), Map.of("backend", RunContext.label(spec.backend()), "model", r.model() == null ? backend.name() : r.model()));
                    List<GamPrompts.Shown> mine = new ArrayList<>();
                    for (Assessment a : ClaimParser.parseCritique(r.text(), disputed.size())) {
                        GamPrompts.Disputed d = a.claim() == 0 ? null : disputed.get(a.claim() - 1);
                        mine.add(new GamPrompts.Shown(spec.id(), d == null ? null : d.expert(), d == null ? null : d.claim().text(), a));
                    }
                    return mine;
                } catch (RuntimeException e) {
                    errors.put(spec.id(), e.getClass().getSimpleName() + ": " + e.getMessage());
                    return List.of();
                }
            });
        }
        List<GamPrompts.Shown> shown = new ArrayList<>();
        for (List<GamPrompts.Shown> l : all(jobs)) shown.addAll(l);
        for (GamPrompts.Shown sh : shown) {
            Assessment a = sh.assessment();
            int claimN = a.claim() == 0 ? 0 : disputed.get(a.claim() - 1).claim().n();
            critiques.add(new Trace.Critique(sh.critic(), sh.expert(), claimN, sh.claimText(), a.assessment(), a.reason(),
                    a.correction(), a.confidence()));
            Map<String, Object> ev = new LinkedHashMap<>();
            ev.put("k", k);
            ev.put("critic", sh.critic());
            if (sh.expert() != null) ev.put("expert", sh.expert());
            ev.put("claim", claimN);
            ev.put("assessment", a.assessment());
            ctx.progress().event("critique", ev);
        }
        if (critCalls.get() > 0) {
            Map<String, Object> used = new LinkedHashMap<>();
            used.put("prompt", critPrompt.get());
            used.put("completion", critCompletion.get());
            roundExtra.put("tokens", used);
            roundExtra.put("calls", critCalls.get());
        }
        if (!errors.isEmpty()) roundExtra.put("critic_errors", new LinkedHashMap<>(errors));
        if (!paths.isEmpty()) roundExtra.put("critic_parse", new LinkedHashMap<>(paths));
        if (!served.isEmpty()) roundExtra.put("critic_backends", new java.util.TreeMap<>(served));
        if (!asked.isEmpty()) {
            // what each critic was asked (trace.prompts), in the panel's order
            Map<String, String> ordered = new LinkedHashMap<>();
            for (AgentSpec c : s.critics()) if (asked.containsKey(c.id())) ordered.put(c.id(), asked.get(c.id()));
            roundExtra.put("critic_prompts", ordered);
        }
        return shown;
    }

    /**
     * The images a critic sees (GAM on frames, docs/video.md): the frames the disputed claims name, each whole at the
     * critic's scale, in time order (every image when the question has one, or when a disputed claim names no frame);
     * then, with {@code gam.zoom}, a zoomed crop of each claim's region on its own frame. Returns the sentence telling
     * the critic which image is which (null when there is nothing to say: one image and no crops).
     */
    private String criticImages(List<Picture> out, List<GamPrompts.Disputed> disputed, int index, double scale, long maxPixels) {
        int n = q.images().size();
        List<Integer> frames = new ArrayList<>();
        boolean every = n <= 1 || disputed.stream().anyMatch(d -> d.claim().frame() == null);
        if (every) {
            for (int f = 1; f <= n; f++) frames.add(f);
        } else {
            disputed.stream().map(d -> d.claim().frame()).distinct().sorted().forEach(frames::add);
        }
        Question seen = every ? q : q.withImages(frames.stream().map(f -> q.images().get(f - 1)).toList());
        out.addAll(AgentImages.forAgent(seen, ctx, index, scale, maxPixels));
        StringBuilder which = new StringBuilder();
        if (n > 1) {
            int per = AgentImages.scales(ctx, index, scale).size(); // MixRes: each frame at each of the agent's scales
            for (int i = 0; i < frames.size(); i++) {
                which.append(i == 0 ? "Images: " : ", ")
                        .append(per == 1 ? "image " + (i + 1) : "images " + (i * per + 1) + "-" + ((i + 1) * per))
                        .append(" = frame ").append(frames.get(i));
            }
            which.append(".");
        }
        if (!s.zoom() || n == 0) return which.length() == 0 ? null : which.toString();
        StringBuilder sb = new StringBuilder();
        int shown = out.size();
        for (int i = 0; i < disputed.size(); i++) {
            Trace.Claim c = disputed.get(i).claim();
            Region r = c.region();
            if (r == null || r.isEmpty()) continue;
            Integer frame = c.frame() != null ? c.frame() : n == 1 ? Integer.valueOf(1) : null;
            if (frame == null) continue; // a region on no named frame of several: no crop to take
            Picture on = q.images().get(frame - 1);
            Picture crop = on.crop(r.expand(0.15));
            // enlarge small crops so the critic can see detail, within the backend's pixel limit
            double up = Math.min(4, Math.sqrt((double) on.pixels() / Math.max(1, crop.pixels())));
            out.add(up > 1 ? crop.scaled(up, maxPixels) : crop);
            sb.append(sb.length() == 0 ? "" : ", ").append("image ").append(++shown).append(" = zoom on CLAIM ").append(i + 1);
            if (n > 1) sb.append(" (frame ").append(frame).append(")");
        }
        String crops = sb.length() == 0 ? null : "Zoomed crops: " + sb + ".";
        if (which.length() == 0) return crops;
        return crops == null ? which.toString() : which + " " + crops;
    }

    private String judge(State st, Map<String, Object> extra) {
        List<GamPrompts.Peer> peers = new ArrayList<>();
        for (Turn t : st.live()) peers.add(new GamPrompts.Peer(t.spec().id(), st.weightOf(t), render(t)));
        try {
            Backend b = ctx.backendFor(s.judgeBackend());
            extra.put("backend", RunContext.label(s.judgeBackend()));
            ChatRequest req = request(prompts.judge(peers), q.images(), null, null);
            if (recordPrompts) extra.put("prompt", PromptText.of(req));
            ChatResult r = b.chat(req);
            count(r);
            extra.put("model", r.model() == null ? b.name() : r.model());
            ParsedResponse p = ClaimParser.parseAnswer(r.text(), Map.of());
            extra.put("raw", r.text());
            extra.put("parse", p.parse());
            if (p.answer() == null || p.notApplicable()) return null;
            extra.put("answer", p.answer());
            return p.answer();
        } catch (RuntimeException e) {
            extra.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            return null;
        }
    }

    // ---- plumbing ----

    private ChatRequest request(String prompt, List<Picture> images, String schemaName, com.fasterxml.jackson.databind.JsonNode schema) {
        return request(s, prompt, images, schemaName, schema);
    }

    private static ChatRequest request(GamSettings s, String prompt, List<Picture> images, String schemaName,
                                       com.fasterxml.jackson.databind.JsonNode schema) {
        Sampling sampling = Sampling.greedy(s.maxTokens(), s.topLogprobs());
        ChatRequest r = sampling.request(List.of(ChatMessage.user(prompt, images)));
        return schema == null ? r : r.withSchema(schemaName, schema);
    }

    /**
     * An expert's round-0 request with these images: the answer prompt in its role, JSON schema when the backend takes one
     * ({@code json}), greedy. The controller sends it in round 0 and DREAM's probe asks it at each scale (GamMethod#opening).
     */
    static ChatRequest answerRequest(GamSettings s, GamPrompts prompts, AgentSpec spec, boolean json, List<Picture> images) {
        return request(s, prompts.answer(spec.role(), json), images, json ? "gam_expert" : null, json ? prompts.expertSchema() : null)
                .from(spec.id(), 0);
    }

    /** An expert's reply as the controller reads it: its answer and option, or no answer when it holds no opinion (DESIGN.md §5). */
    static dev.gamagent.api.MultiAgentMethod.Reading read(Question q, String text) {
        ParsedResponse p = ClaimParser.parseAnswer(text, q.options());
        String option = null, answer = p.answer();
        if (q.isMultipleChoice() && p.answer() != null && !p.notApplicable()) {
            option = ReplyParser.option(p.answer(), q.options());
            if (option != null) answer = q.options().get(option);
        }
        return noOpinion(p, answer, option, q.isMultipleChoice()) != null ? new dev.gamagent.api.MultiAgentMethod.Reading(null, null)
                : new dev.gamagent.api.MultiAgentMethod.Reading(answer, option);
    }

    private TokenCount count(ChatResult r) {
        calls.incrementAndGet();
        TokenCount t = r.usage() == null ? TokenCount.ZERO : r.usage().toTokenCount();
        promptTokens.addAndGet(t.prompt());
        completionTokens.addAndGet(t.completion());
        if (t.estimated()) tokensEstimated = true;
        return t;
    }

    private long tokens() { return promptTokens.get() + completionTokens.get(); }

    /** Runs the jobs in parallel on the run's executor ({@link ParallelCalls}), results in the jobs' order. */
    private <T> List<T> all(List<Callable<T>> jobs) {
        return ParallelCalls.all(ctx.executor(), jobs, "gam run on question " + q.id() + " was interrupted",
                c -> new IllegalStateException("gam agent task failed on question " + q.id() + ": " + c, c));
    }

    private static void remember(List<Turn> turns, Map<String, Turn> last) {
        for (Turn t : turns) if (t.answered()) last.put(t.spec().id(), t);
    }

    /** An expert's answer as peers see it: the line format, whatever format it replied in. */
    private static String render(Turn t) {
        StringBuilder sb = new StringBuilder("ANSWER: ");
        sb.append(t.option() != null ? t.option() + ". " + t.answer() : t.answer() == null ? "(none)" : t.answer()).append('\n');
        for (Trace.Claim c : t.parsed().claims()) {
            sb.append("CLAIM ").append(c.n()).append(": ").append(c.text().replace('\n', ' '))
                    .append(" | CONFIDENCE: ").append(GamPrompts.num(c.confidence()));
            if (c.evidence() != null) sb.append(" | EVIDENCE: ").append(c.evidence().replace('\n', ' '));
            if (c.region() != null) sb.append(" | REGION: ").append(GamPrompts.num(c.region().x0())).append(',')
                    .append(GamPrompts.num(c.region().y0())).append(',').append(GamPrompts.num(c.region().x1())).append(',')
                    .append(GamPrompts.num(c.region().y1()));
            sb.append('\n');
        }
        sb.append("CONFIDENCE: ").append(GamPrompts.num(1 - t.u().value()));
        return sb.toString();
    }

    private void weightsEvent(int k, State st) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("k", k);
        Map<String, Double> w = new LinkedHashMap<>();
        for (int i = 0; i < st.live().size(); i++) w.put(st.live().get(i).spec().id(), st.game().weights()[i]);
        ev.put("weights", w);
        ev.put("U_sys", st.game().uSys());
        ev.put("conflict", st.game().conflict());
        ctx.progress().event("weights", ev);
    }

    /** Round 0's trigger as the viewer explains it: each value beside its threshold and which one started the debate. */
    private static Map<String, Object> triggerExtra(DebateRule.Trigger t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("U_sys", t.uSys());
        m.put("theta_U", t.thetaU());
        m.put("uncertainty_crossed", t.byUncertainty());
        m.put("conflict", t.conflict());
        m.put("theta_C", t.thetaC());
        m.put("conflict_crossed", t.byConflict());
        m.put("reads_uncertainty", t.readsUncertainty()); // false under the "no uncertainty" ablation: only C can start a debate
        m.put("started_by", t.startedBy());
        return m;
    }

    /** The check after a debate round: the stop reason ("continue" when the debate goes on) and the values and thresholds behind it. */
    private static Map<String, Object> stopExtra(DebateRule.Stop st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reason", st.reason() == null ? "continue" : st.reason().label());
        m.put("k", st.k());
        m.put("U_sys", st.uSys());
        m.put("theta_term", st.thetaTerm());
        m.put("previous_U_sys", st.previousUSys());
        m.put("delta_U_sys", st.deltaUSys());
        m.put("epsilon", st.epsilon());
        m.put("K_max", st.maxRounds());
        m.put("tokens", st.tokens());
        m.put("token_budget", st.tokenBudget());
        m.put("agreed", st.agreed());
        m.put("reads_uncertainty", st.readsUncertainty()); // false: θ_term and ε do not act ("no uncertainty" ablation)
        if (st.forcedBy() != null) {
            m.put("forced_by", st.forcedBy());
            m.put("unforced_reason", st.unforcedReason() == null ? "continue" : st.unforcedReason().label());
        }
        return m;
    }

    private Map<String, Object> consensusExtra(State st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consensus_answer", st.answer());
        if (st.option() != null) m.put("consensus_option", st.option());
        m.put("consensus_confidence", st.confidence());
        m.put("decision", dev.gamagent.baseline.Panel.decision(st.option(), st.answer())); // flip accounting: the consensus is gam's decision
        m.put("consensus_rule", st.verdict().rule().label());
        // the option mixture Σ w·p / Σ w over the experts with an opinion: the numbers the decision read (DESIGN.md §6)
        if (!st.verdict().mixture().isEmpty()) m.put("mixture", st.verdict().mixture());
        m.put("agreed", st.agreed());
        Map<String, String> none = new LinkedHashMap<>();
        for (Turn t : st.live()) {
            String why = t.noOpinion(q.isMultipleChoice());
            if (why != null) none.put(t.spec().id(), why);
        }
        // experts without an opinion keep their weight but stay out of Sim, C and the consensus (DESIGN.md §5)
        if (!none.isEmpty()) m.put("no_opinion", none);
        return m;
    }

    /** The scale the agent's images were given at: DREAM's assignment when present (the first of several), else the role's. */
    private double seenScale(Turn t) {
        return AgentImages.scales(ctx, t.index(), t.spec().scale()).get(0);
    }

    private Trace.Round traceRound(int k, List<Turn> turns, State st, List<Trace.Critique> critiques, Map<String, Object> extra) {
        List<Trace.AgentTurn> agents = new ArrayList<>();
        for (Turn t : turns) {
            if (!t.answered()) {
                agents.add(new Trace.AgentTurn(t.spec().id(), t.spec().role().key(), seenScale(t), null, null, 1.0,
                        UncertaintySignal.FIXED.label(), null, List.of(), TokenCount.ZERO, null, null, t.error(), null,
                        RunContext.label(t.spec().backend()), null));
                continue;
            }
            Double w = st == null || !st.live().contains(t) ? null : st.weightOf(t);
            agents.add(new Trace.AgentTurn(t.spec().id(), t.spec().role().key(), seenScale(t), t.answer(), t.option(),
                    t.u().value(), t.u().signal().label(), w, t.parsed().claims(), t.tokens(), t.raw(), t.parsed().parse(),
                    null, t.dist(), RunContext.label(t.spec().backend()), t.model()));
        }
        Map<String, List<String>> samples = new LinkedHashMap<>();
        for (Turn t : turns) if (t.samples() != null) samples.put(t.spec().id(), t.samples());
        if (!samples.isEmpty()) {
            extra = extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
            extra.put("samples", samples); // what each expert's sampled answers were: its U is their agreement
        }
        Map<String, String> asked = new LinkedHashMap<>();
        for (Turn t : turns) if (t.prompt() != null) asked.put(t.spec().id(), t.prompt());
        if (!asked.isEmpty()) {
            extra = extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
            extra.put("prompts", asked); // what each expert was asked this round, as text (trace.prompts; images as notes)
        }
        Map<String, List<String>> notes = new LinkedHashMap<>();
        for (Turn t : turns) if (!t.parsed().notes().isEmpty()) notes.put(t.spec().id(), t.parsed().notes());
        if (!notes.isEmpty()) {
            extra = extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
            extra.put("parse_notes", notes); // what reading each reply set aside (a claim naming a frame the question lacks)
        }
        Map<String, String> sources = new LinkedHashMap<>();
        for (Turn t : turns) if (t.distSource() != null) sources.put(t.spec().id(), t.distSource());
        if (!sources.isEmpty()) {
            extra = extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
            extra.put("distribution_source", sources); // where each expert's option distribution came from (DESIGN.md §4)
        }
        return new Trace.Round(k, agents, critiques, st == null ? null : st.game().uSys(), st == null ? null : st.game().conflict(),
                extra == null || extra.isEmpty() ? null : extra);
    }

    private Trace trace(List<Trace.Round> rounds, String termination, Trace.Final fin, Map<String, Object> extra) {
        Map<String, Object> config = Json.MAPPER.convertValue(ctx.config().node("gam"), new TypeReference<Map<String, Object>>() { });
        TokenCount tok = new TokenCount(promptTokens.get(), completionTokens.get(), tokensEstimated);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Map<String, Object> ex = new LinkedHashMap<>(extra);
        ex.put("similarity", q.isMultipleChoice() ? "bhattacharyya" : similarity.usesEmbeddings() ? "embedding-cosine" : "jaccard");
        ex.put("scoring", s.scoring().label());
        return new Trace(Trace.QuestionInfo.of(q), "gam", config, List.copyOf(rounds), termination, fin, tok, calls.get(), ms, ex);
    }
}
