package dev.gamagent.baseline;

import dev.gamagent.api.Answer;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AgentCall;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.engine.AgentScales;
import dev.gamagent.engine.ParallelCalls;
import dev.gamagent.engine.Prompts;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.engine.RequestLayout;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The shared machinery of one baseline run on one question: agent calls (with each agent's images from
 * {@link AgentImages} and DREAM's note), parallel rounds on the context's executor, token and call
 * counting, round records, and the final {@link Answer} with its trace. One instance per run.
 */
public final class Panel {
    /** An agent: a stable id (the same in every round), its role, and its index for {@link AgentImages}. */
    public record Agent(String id, String role, int index) { }

    private final String method;
    private final String section;
    private final Question question;
    private final RunContext ctx;
    private final Prompts prompts;
    private final RequestLayout layout;
    private final Conversations talks;
    private final UncertaintyEstimator estimator = UncertaintyEstimator.defaults();
    private final List<Trace.Round> rounds = new ArrayList<>();
    private final Map<Integer, List<Picture>> images = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each answered turn's reply with its log-probs, by id and round, for a method that reads more than U (DebUnc). */
    private final Map<String, Choice> choices = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> backendNames;
    private final long t0 = System.nanoTime();
    private TokenCount tokens = TokenCount.ZERO;
    private int calls;

    /** @param section the config section holding this method's hyperparameters, e.g. {@code debate} */
    public Panel(String method, String section, Question question, RunContext ctx) {
        this.method = method;
        this.section = section;
        this.question = question;
        this.ctx = ctx;
        this.prompts = new Prompts(ctx.config());
        this.layout = RequestLayout.of(ctx.config());
        this.talks = new Conversations(layout);
        this.backendNames = backendNames(section, ctx.config());
    }

    /**
     * The agents of this run, after checking that {@code <section>.backends}, when given, names one backend per
     * agent (agent i runs on the i-th name; a judge runs on the backend of the agent whose images it shares).
     */
    public List<Agent> seat(List<Agent> agents) {
        backendRefs(section, agents.size(), ctx.config());
        return agents;
    }

    /**
     * Where {@code <section>.backends} names a backend per agent: {@code <section>.backends[i]} → name, for a
     * panel of {@code agents} agents (see {@link dev.gamagent.api.Method#backendRefs}).
     *
     * @throws Config.ConfigException when the list is not one name per agent
     */
    public static Map<String, String> backendRefs(String section, int agents, Config config) {
        List<String> names = backendNames(section, config);
        Map<String, String> refs = new LinkedHashMap<>();
        if (names.isEmpty()) return refs;
        if (names.size() != agents) {
            throw new Config.ConfigException("config " + section + ".backends names " + names.size() + " backend"
                    + (names.size() == 1 ? "" : "s") + " but " + section + " has " + agents + " agents; give one name per agent, in order");
        }
        for (int i = 0; i < names.size(); i++) if (names.get(i) != null) refs.put(section + ".backends[" + i + "]", names.get(i));
        return refs;
    }

    /** {@code <section>.backends}: one backend name per agent index (null = the run's default), or empty. */
    private static List<String> backendNames(String section, Config config) {
        var n = config.node(section + ".backends");
        if (n.isMissingNode() || n.isNull()) return List.of();
        if (!n.isArray()) throw new Config.ConfigException("config " + section + ".backends must be a list of backend names, one per agent, got " + n);
        List<String> out = new ArrayList<>();
        for (var x : n) {
            if (x.isNull() || x.isTextual() && x.asText().isBlank()) out.add(null);
            else if (x.isTextual()) out.add(x.asText().strip());
            else throw new Config.ConfigException("config " + section + ".backends must hold backend names (strings), got " + x);
        }
        return out;
    }

    /** The backend agent {@code a} runs on. */
    public Backend backendOf(Agent a) { return ctx.backendFor(backendName(a.index())); }

    /** The configured backend name of the agent with image index {@code index} (null = the run's default). */
    private String backendName(int index) {
        return index < backendNames.size() ? backendNames.get(index) : null;
    }

    /** The backend name {@code <section>.backends} gives the agent with image index {@code index} (null = the run's default). */
    static String backendName(String section, int index, Config config) {
        List<String> names = backendNames(section, config);
        return index < names.size() ? names.get(index) : null;
    }

    public Question question() { return question; }

    public Config config() { return ctx.config(); }

    public RunContext context() { return ctx; }

    /** {@code <section>.<key>}, a whole number ≥ 0 with its default in defaults.json. */
    public int integer(String key) { return new Section(section, ctx.config()).integer(key); }

    /** A method's config section as its run reads it, so the run and the method's call count read a setting alike. */
    record Section(String name, Config config) {
        /** {@code <name>.<key>}, a whole number ≥ 0 with its default in defaults.json. */
        int integer(String key) {
            int v = config.integer(name + "." + key);
            if (v < 0) throw new Config.ConfigException("config " + name + "." + key + " must be >= 0, got " + v);
            return v;
        }

        /** {@code <name>.<key>}, a list of texts; an empty or absent list means the list defaults.json gives. */
        List<String> strings(String key) {
            List<String> out = new ArrayList<>();
            var n = config.node(name + "." + key);
            if (n.isArray()) n.forEach(x -> out.add(x.asText()));
            if (out.isEmpty()) Config.defaults().node(name + "." + key).forEach(x -> out.add(x.asText()));
            return out;
        }
    }

    /** {@code <section>.<key>}, a number with its default in defaults.json. */
    public double number(String key) { return ctx.config().number(section + "." + key); }

    /** {@code <section>.<key>}, a text with its default in defaults.json. */
    public String string(String key) { return ctx.config().string(section + "." + key); }

    /** Sampling for this method's agents: {@code <section>.max_tokens} and the configured top-k log-probs. */
    public Sampling sampling(double temperature) {
        Sampling g = Sampling.greedy(integer("max_tokens"), ctx.config().integer("logprobs.top_k"));
        return temperature > 0 ? g.withN(1, temperature) : g;
    }

    /** The requested output format, stated last in every prompt (CONTRACTS §1 line format). */
    public String format() {
        return question.isMultipleChoice()
                ? "Reply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>"
                : "Reply in this format:\nANSWER: <a single word or short phrase>\nCONFIDENCE: <0..1>";
    }

    /** Renders a template for one agent: its id ({@code {{agent}}}) and role plus the values every prompt has. */
    public String render(String template, Agent agent, Map<String, ?> values) {
        Map<String, Object> v = new LinkedHashMap<>(values);
        v.putIfAbsent("agent", agent.id());
        return render(template, agent.role(), v);
    }

    /** Renders a template with the values every prompt has: question, role, note, format. */
    public String render(String template, String role, Map<String, ?> values) {
        Map<String, Object> v = new LinkedHashMap<>(values);
        v.putIfAbsent("question", question.render());
        v.putIfAbsent("role", role);
        v.putIfAbsent("note", AgentImages.note(ctx));
        v.putIfAbsent("format", format());
        return prompts.render(template, v).replaceAll("\\n{3,}", "\n\n");
    }

    /** The pictures agent {@code index} receives (DREAM's assignment when present) at this backend's pixel cap. */
    public List<Picture> images(int index) {
        // the config is fixed for the run, so each agent's scaled (and PNG-encoded) pictures are reused every round
        return images.computeIfAbsent(index, i ->
                AgentImages.forAgent(question, ctx, i, 1.0, ctx.backendFor(backendName(i)).capabilities().maxImagePixels()));
    }

    /** One call of one agent; a failed call becomes a turn with {@code error} set. */
    public Turn ask(Agent a, int k, String user, Sampling sampling) {
        // a later round continues the agent's own conversation when requests.rounds = conversation (Conversations)
        Conversations.Next next = talks.next(a.id(), user);
        Turn t = call(a, k, null, next.earlier(), next.user(), List.of(), sampling).get(0);
        talks.answered(a.id(), next, t.ok() ? t.raw() : null);
        return t;
    }

    /**
     * One request that may return several choices ({@code sampling.n()}); each choice becomes a turn
     * ({@code id-1}, {@code id-2}, ... when n > 1). The request's tokens are put on the first turn so the
     * turns' tokens add up to what was spent.
     */
    public List<Turn> sample(Agent a, int k, String user, Sampling sampling) {
        return call(a, k, null, List.of(), user, List.of(), sampling);
    }

    /**
     * One call that continues the agent's own conversation: an optional system message, its earlier turns
     * (text only), then the user turn carrying the agent's images followed by {@code extra} pictures.
     */
    public Turn converse(Agent a, int k, String system, List<ChatMessage> earlier, String user, List<Picture> extra,
                         Sampling sampling) {
        return call(a, k, system, earlier, user, extra, sampling).get(0);
    }

    private List<Turn> call(Agent a, int k, String system, List<ChatMessage> earlier, String user, List<Picture> extra,
                            Sampling sampling) {
        String label = RunContext.label(backendName(a.index()));
        Backend backend;
        try {
            backend = ctx.backendFor(backendName(a.index()));
        } catch (RuntimeException e) {
            // no call was made: an unknown name (a library caller that skipped the run's check) drops the agent
            return List.of(new Turn(a.id(), a.role(), k, 1.0, null, null, Estimate.notApplicable(), TokenCount.ZERO, null, null,
                    "backend '" + label + "': " + e.getMessage(), label, null));
        }
        double scale = AgentImages.scales(ctx, a.index(), 1.0).get(0);
        ctx.progress().event(new ProgressEvent.AgentStarted(k, a.id()));
        ChatResult r;
        try {
            r = backend.chat(request(backend, a, k, system, earlier, user, images(a.index()), extra, sampling));
        } catch (RuntimeException e) {
            count(TokenCount.ZERO);
            String msg = e.getClass().getSimpleName() + ": " + e.getMessage();
            return List.of(new Turn(a.id(), a.role(), k, scale, null, null, Estimate.notApplicable(),
                    TokenCount.ZERO, null, null, msg, label, null));
        }
        TokenCount spent = r.usage().toTokenCount();
        count(spent);
        List<Turn> out = new ArrayList<>();
        for (int i = 0; i < r.choices().size(); i++) {
            Choice c = r.choices().get(i);
            var p = ReplyParser.parse(c.text(), question);
            String id = r.choices().size() > 1 ? a.id() + "-" + (i + 1) : a.id();
            // an open answer that only declines ("cannot determine") holds no opinion: U = 1, as GAM's experts (docs/design.md §5)
            Estimate u = !question.isMultipleChoice() && dev.gamagent.influence.Consensus.declines(p.answer()) ? Estimate.notApplicable() : estimator.estimate(c);
            choices.put(id + "#" + k, c);
            out.add(new Turn(id, a.role(), k, scale, p.answer(), p.option(), u,
                    i == 0 ? spent : TokenCount.ZERO, c.text(), p.how(), null, label, r.model() == null ? backend.name() : r.model()));
            ctx.progress().event(ProgressEvent.AgentAnswered.answer(k, id, p.answer()));
        }
        return out;
    }

    /**
     * The request agent {@code a} sends in round {@code k}: system, earlier turns, then the user turn; its own pictures
     * and this turn's {@code extra} ones (capped at the backend's pixel limit) where {@link RequestLayout} puts them.
     */
    private ChatRequest request(Backend backend, Agent a, int k, String system, List<ChatMessage> earlier, String user,
                                List<Picture> own, List<Picture> extra, Sampling sampling) {
        long cap = backend.capabilities().maxImagePixels();
        return sampling.request(layout.messages(system, earlier, user, AgentCall.scaleAll(own, 1.0, cap), AgentCall.scaleAll(extra, 1.0, cap)))
                .from(a.id(), k);
    }

    /**
     * Agent {@code a}'s round-0 request with {@code user} and {@code images} instead of its own pictures: the request
     * {@link #ask} sends in round 0 when the agent's images are these (DREAM's probe, {@code MultiAgentMethod#opening}).
     */
    public dev.gamagent.api.internal.MultiAgentMethod.Opening opening(Agent a, String user, Sampling sampling, List<Picture> images) {
        return new dev.gamagent.api.internal.MultiAgentMethod.Opening(request(backendOf(a), a, 0, null, List.of(), user, images, List.of(), sampling), null);
    }

    /** A round: every agent called in parallel on the context's executor; turns come back in agent order. */
    public List<Turn> round(int k, List<Agent> agents, Function<Agent, String> prompt, Sampling sampling) {
        ctx.progress().event(new ProgressEvent.RoundStarted(k));
        List<Callable<Turn>> jobs = new ArrayList<>();
        for (Agent a : agents) {
            String user = prompt.apply(a);
            jobs.add(() -> ask(a, k, user, sampling));
        }
        return ParallelCalls.all(ctx.executor(), jobs, "interrupted while waiting for an agent", ParallelCalls::rethrow);
    }

    /** Records a round in the trace; fails the run when no agent of the round answered. */
    public void record(int k, List<Turn> turns, List<Double> weights, Map<String, Object> extra) {
        List<Trace.AgentTurn> at = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) at.add(turns.get(i).toTrace(weights == null ? null : weights.get(i)));
        rounds.add(new Trace.Round(k, at, List.of(), null, null, extra));
        if (turns.stream().noneMatch(Turn::ok)) {
            String why = turns.isEmpty() ? "no agents" : turns.get(0).error();
            throw new MethodFailure(method + ": every agent failed in round " + k + " (" + why + ")", null,
                    trace(Termination.MAX_ROUNDS.label(), null, Map.of()));
        }
    }

    /**
     * Records the method's decision after the last recorded round as {@code extra.decision} = {option, answer}
     * (flip accounting, docs/metrics.md): what the method would answer had it stopped there.
     */
    public void decided(MajorityVote.Verdict v) {
        int last = rounds.size() - 1;
        Trace.Round r = rounds.get(last);
        Map<String, Object> extra = r.extra() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(r.extra());
        extra.put("decision", decision(v.option(), v.answer()));
        rounds.set(last, new Trace.Round(r.k(), r.agents(), r.critiques(), r.uSys(), r.conflict(), extra));
    }

    /** The {@code rounds[k].extra.decision} value every debate method records. */
    public static Map<String, Object> decision(String option, String answer) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("option", option);
        d.put("answer", answer);
        return d;
    }

    /** Plain majority over the turns that answered, ties to lower uncertainty. */
    public static MajorityVote.Verdict majority(List<Turn> turns) {
        return MajorityVote.decide(voters(turns).stream().map(t -> t.ballot(1.0)).toList());
    }

    /**
     * The turns that vote: those that answered, and of them the ones whose answer was read (a refusal that
     * names no option must not outvote an agent that did); every answered turn when none was read.
     */
    public static List<Turn> voters(List<Turn> turns) {
        List<Turn> ok = turns.stream().filter(Turn::ok).toList();
        List<Turn> read = ok.stream().filter(t -> !"unmatched".equals(t.parse())).toList();
        return read.isEmpty() ? ok : read;
    }

    /**
     * The peers block shown to {@code self}: every other agent's reasoning and answer in a
     * {@code <peer>} element; weights as given (uniform 1/N when null), confidences appended when given.
     */
    public static String peers(String selfId, List<Turn> previous, List<Double> weights, boolean withConfidence) {
        StringBuilder sb = new StringBuilder();
        int n = previous.size();
        for (int i = 0; i < n; i++) {
            Turn t = previous.get(i);
            if (t.id().equals(selfId) || !t.ok()) continue;
            double w = weights == null ? 1.0 / n : weights.get(i);
            sb.append(String.format(Locale.ROOT, "<peer id=\"%s\" weight=\"%.2f\">%n", t.id(), w));
            sb.append(body(t, withConfidence)).append("\n</peer>\n");
        }
        return sb.toString().strip();
    }

    /** An agent's own previous reply for a {@code <previous>} block. */
    public static String body(Turn t, boolean withConfidence) {
        String reasoning = ReplyParser.reasoning(t.raw());
        if (reasoning.length() > 800) reasoning = reasoning.substring(0, 800) + " ...";
        StringBuilder sb = new StringBuilder();
        if (!reasoning.isEmpty()) sb.append(reasoning).append('\n');
        sb.append("ANSWER: ").append(t.shownAnswer());
        if (withConfidence) sb.append(String.format(Locale.ROOT, "%nCONFIDENCE: %.2f", 1 - t.u()));
        return sb.toString();
    }

    /** The reply behind an answered turn (its text and log-probs), or null for a turn whose call failed. */
    public Choice choice(Turn t) { return choices.get(t.id() + "#" + t.k()); }

    public int calls() { return calls; }

    public synchronized TokenCount tokens() { return tokens; }

    /** The final answer and its trace. {@code debateRounds} counts rounds after the first answers (0 = none). */
    public Answer finish(MajorityVote.Verdict v, int debateRounds, Termination termination, Map<String, Object> extra) {
        Trace trace = trace(termination.label(), new Trace.Final(v.answer(), v.option(), v.confidence()), extra);
        return new Answer(v.answer(), v.option(), v.confidence(), v.uncertainty(), debateRounds, termination,
                tokens(), calls, trace.millis(), trace);
    }

    private Trace trace(String termination, Trace.Final fin, Map<String, Object> extra) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Map<String, Object> cfg = new LinkedHashMap<>();
        var sec = ctx.config().node(section);
        if (!sec.isMissingNode()) cfg.put(section, Json.MAPPER.convertValue(sec, Object.class));
        Map<String, Object> runtime = runtime();
        if (runtime != null) cfg.put("runtime", runtime);
        return new Trace(Trace.QuestionInfo.of(question), method, cfg, List.copyOf(rounds), termination, fin,
                tokens(), calls, ms, extra == null || extra.isEmpty() ? null : extra);
    }

    /**
     * The trace's {@code config.runtime}: the config's own {@code runtime} section, with DREAM's assignment of scales to
     * the agents and its note ({@code agent_scales}, {@code note}) when this panel runs inside DREAM; null when neither.
     */
    private Map<String, Object> runtime() {
        var own = ctx.config().node("runtime");
        AgentScales dream = AgentImages.assignment(ctx);
        if (own.isMissingNode() && !dream.assigned()) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        if (!own.isMissingNode()) out.putAll(Json.MAPPER.convertValue(own, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { }));
        if (dream.assigned()) {
            out.put("agent_scales", dream.perAgent());
            out.put("note", dream.note());
        }
        return out;
    }

    private synchronized void count(TokenCount t) {
        tokens = tokens.plus(t);
        calls++;
    }
}
