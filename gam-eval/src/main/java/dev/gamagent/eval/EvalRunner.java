package dev.gamagent.eval;

import dev.gamagent.Gam;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.Grade;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.load.BadRowException;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.uncertainty.UncertaintyFallback;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Runs methods over questions with at most {@code concurrency} questions in flight, storing each
 * finished question × method at once. Pairs already finished in the store are skipped, so rerunning
 * resumes; a pair whose backend failed is stored as {@code error} and retried next time.
 */
public final class EvalRunner {
    private static final Logger LOG = LoggerFactory.getLogger(EvalRunner.class);
    private final NamedBackends backends;
    private final Backend backend;
    private final Config config;
    private final Grader grader;
    private final ResultStore store;
    private final int concurrency;
    private final SecretScrubber secrets;
    private java.util.function.BiConsumer<EvalQuestion, Question> onLoaded = (eq, q) -> { };

    /** A runner whose agents all use {@code backend}. */
    public EvalRunner(Backend backend, Config config, Grader grader, ResultStore store, int concurrency) {
        this(NamedBackends.of(backend), config, grader, store, concurrency);
    }

    /** A runner that scrubs nothing from the traces it stores. */
    public EvalRunner(NamedBackends backends, Config config, Grader grader, ResultStore store, int concurrency) {
        this(backends, config, grader, store, concurrency, SecretScrubber.NONE);
    }

    /**
     * @param backends the run's default backend and the named ones its agents may use
     * @param secrets  scrubbed from every trace stored (the process's keys, as {@code gam}'s command line knows them)
     */
    public EvalRunner(NamedBackends backends, Config config, Grader grader, ResultStore store, int concurrency, SecretScrubber secrets) {
        if (concurrency < 1) throw new IllegalArgumentException("--concurrency must be at least 1, got " + concurrency);
        this.backends = backends;
        this.backend = backends.defaultBackend();
        this.config = config;
        this.grader = grader;
        this.store = store;
        this.concurrency = concurrency;
        this.secrets = secrets == null ? SecretScrubber.NONE : secrets;
    }

    /**
     * Which pairs this run did and how many were already done; {@code skipped} are rows whose images
     * turned out undecodable only when their question came up (they are reported, not stored or retried).
     */
    public record Stats(int alreadyDone, int ran, int errors, int graded, List<SkippedRow> skipped) {
        public Stats {
            skipped = List.copyOf(skipped);
        }

        /** This run attempted pairs and every one of them failed: nothing was graded. */
        public boolean allFailed() { return errors > 0 && graded == 0; }
    }

    /**
     * Runs {@code hook} on each question's thread as soon as its images are loaded, before its methods run (a report
     * thumbnail is started there instead of decoding every image again at the end); its failures are ignored.
     */
    public EvalRunner onEachQuestion(java.util.function.BiConsumer<EvalQuestion, Question> hook) {
        this.onLoaded = hook;
        return this;
    }

    /** The pairs still to run, in question order. */
    public List<Pair> pending(List<EvalQuestion> questions, List<String> methods) {
        Set<String> done = store.finishedPairs();
        List<Pair> out = new ArrayList<>();
        for (EvalQuestion q : questions) {
            for (String m : methods) if (!done.contains(ResultStore.key(q.id(), m))) out.add(new Pair(q, m));
        }
        return out;
    }

    /** One question × method to run. */
    public record Pair(EvalQuestion question, String method) { }

    /** @param onStarted told the number of pending pairs before any runs (to size a progress bar) */
    public Stats run(List<EvalQuestion> questions, List<String> methods, IntConsumer onStarted, ProgressSink progress) {
        for (String m : methods) MethodRegistry.create(m); // fail fast on unknown names, before any work
        List<Pair> todo = pending(questions, methods);
        int already = questions.size() * methods.size() - todo.size();
        onStarted.accept(todo.size());
        // group pending pairs by question so "K in flight" bounds questions, not pairs
        List<List<Pair>> byQuestion = new ArrayList<>();
        for (Pair p : todo) {
            if (byQuestion.isEmpty() || byQuestion.get(byQuestion.size() - 1).get(0).question() != p.question()) byQuestion.add(new ArrayList<>());
            byQuestion.get(byQuestion.size() - 1).add(p);
        }
        // virtual threads on Java 21+ (a question waiting on the model holds no OS thread); a bounded pool on 17
        ExecutorService agents = Concurrency.newIoExecutor("gam-eval-agents", Math.max(64, 4 * concurrency));
        ExecutorService questionsPool = Concurrency.newIoExecutor("gam-eval-question", concurrency);
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicInteger errors = new AtomicInteger(), graded = new AtomicInteger();
        List<SkippedRow> skipped = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean noticed = new AtomicBoolean(); // the semantic-fallback notice, once per run
        // each method gets its own caches (the built-in model's perception cache): no method is timed on another's work;
        // so do the named backends its agents use
        Map<String, Backend> views = new HashMap<>();
        Map<String, BackendResolver> resolvers = new HashMap<>();
        List<Backend> namedViews = java.util.Collections.synchronizedList(new ArrayList<>());
        for (String m : methods) {
            Backend view = backend.withOwnCaches();
            views.put(m, view);
            resolvers.put(m, ownCaches(view, namedViews));
        }
        // method instances are built once (a method may load models) and lent to one question at a time, never shared
        Map<String, Queue<Method>> instances = new ConcurrentHashMap<>();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (List<Pair> pairs : byQuestion) {
                inFlight.acquire(); // at most `concurrency` questions hold images and wait on the model at once
                futures.add(questionsPool.submit(() -> {
                    try {
                        KeyedQuestion q = null;
                        RuntimeException loadFailure = null;
                        try {
                            q = pairs.get(0).question().question(); // decode the images once for all methods
                        } catch (RuntimeException e) {
                            loadFailure = e;
                        }
                        if (loadFailure != null && isBadInput(loadFailure)) {
                            // the row itself is broken: report it like a row skipped at load, do not store an error to retry forever
                            EvalQuestion first = pairs.get(0).question();
                            skipped.add(SkippedRow.of(first.group(), loadFailure.getMessage(), first.line()));
                            return;
                        }
                        if (q != null) {
                            try {
                                onLoaded.accept(pairs.get(0).question(), q.question());
                            } catch (RuntimeException ignored) {
                                // a thumbnail that cannot be made is left out of the report
                            }
                        }
                        for (Pair p : pairs) {
                            ResultRecord r = loadFailure != null ? failed(p, loadFailure, 0)
                                    : runLent(p, q, instances, agents, views.get(p.method()), resolvers.get(p.method()));
                            store.put(r);
                            if (r.isError()) errors.incrementAndGet();
                            else graded.incrementAndGet();
                            if (!noticed.get() && SignalMix.usedSemantic(r.trace().json()) && !noticed.getAndSet(true)) {
                                LOG.warn(UncertaintyFallback.semanticNotice(p.method()));
                            }
                            progress.finished(r);
                        }
                    } finally {
                        inFlight.release();
                    }
                }));
            }
            for (Future<?> f : futures) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("evaluation interrupted; rerun the same command to resume", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("evaluation failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            questionsPool.shutdownNow();
            agents.shutdownNow();
            for (Backend v : views.values()) if (v != backend) v.close();
            synchronized (namedViews) {
                for (Backend v : namedViews) v.close();
            }
        }
        List<SkippedRow> rows = new ArrayList<>();
        synchronized (skipped) {
            for (SkippedRow r : skipped) if (rows.stream().noneMatch(x -> x.index().equals(r.index()))) rows.add(r); // one per row, not per rotation
        }
        return new Stats(already, todo.size(), errors.get(), graded.get(), rows);
    }

    /**
     * A decode failure that lies in the data (a corrupt or oversized image, a missing file), as opposed to
     * running out of memory or being interrupted, which a rerun may not meet again.
     */
    public static boolean isBadInput(RuntimeException e) {
        if (e instanceof BadRowException) return true;
        return e instanceof dev.gamagent.image.ImageException && !(e.getCause() instanceof OutOfMemoryError);
    }

    /** Runs one pair with an idle instance of its method (a new one when all are busy), returned afterwards. */
    private ResultRecord runLent(Pair p, KeyedQuestion q, Map<String, Queue<Method>> instances, ExecutorService agents, Backend view,
                                 BackendResolver resolver) {
        Queue<Method> idle = instances.computeIfAbsent(p.method(), k -> new ConcurrentLinkedQueue<>());
        Method m = idle.poll();
        if (m == null) m = MethodRegistry.create(p.method());
        try {
            return runOne(p, q, m, agents, view, resolver);
        } finally {
            idle.offer(m);
        }
    }

    /** Receives each stored record (progress bar, live tables). */
    @FunctionalInterface
    public interface ProgressSink {
        void finished(ResultRecord record);
    }

    /** A method's NaN/infinite confidence is stored as "no confidence" (0) / "full uncertainty" (1), keeping the JSON valid. */
    private static double finite(double v, double fallback) { return Double.isFinite(v) ? v : fallback; }

    ResultRecord runOne(Pair p, KeyedQuestion q, Method m, ExecutorService agents) { return runOne(p, q, m, agents, backend, backends); }

    /**
     * One method's view of the named backends: each with its own caches ({@link Backend#withOwnCaches}), the
     * default backend as {@code defaultView}; views that are new objects are added to {@code created} to be closed.
     */
    private BackendResolver ownCaches(Backend defaultView, List<Backend> created) {
        Map<String, Backend> mine = new java.util.concurrent.ConcurrentHashMap<>();
        return name -> {
            Backend b = backends.resolve(name);
            if (b == backend) return defaultView;
            return mine.computeIfAbsent(name, n -> {
                Backend v = b.withOwnCaches();
                if (v != b) created.add(v);
                return v;
            });
        };
    }

    private ResultRecord runOne(Pair p, KeyedQuestion q, Method m, ExecutorService agents, Backend backend,
                                BackendResolver resolver) {
        EvalQuestion eq = p.question();
        long t0 = System.nanoTime();
        UsageMeter meter = new UsageMeter();
        try {
            // the method is asked the question alone; the answer key grades it and joins the trace written
            Answer a = Gam.session(backend, resolver, config, agents).ask(m, q.question(), null, meter);
            Grade g = grader.grade(q, a);
            // scrubbed like every output (with trace.prompts the trace holds what each agent was asked)
            JsonNode trace = a.trace() == null ? null : secrets.scrub(finiteOnly(Json.MAPPER.valueToTree(q.keyed(a.trace()))));
            TokenCount tokens = a.tokens() == null ? TokenCount.ZERO : a.tokens();
            return ResultRecord.of(question(eq, q.groundTruth()), p.method(),
                    new ResultRecord.Graded(g.outcome().label(), g.predicted(), a.answer(), a.option(),
                            finite(a.confidence(), 0), finite(a.uncertainty(), 1), g.rule(), null),
                    new ResultRecord.Cost(tokens.prompt(), tokens.completion(), tokens.estimated(), a.calls(), a.millis(),
                            backend.name(), meter.tallies(), tokens.cached()),
                    new ResultRecord.TraceRef(a.rounds(), a.termination() == null ? null : a.termination().label(), trace));
        } catch (RuntimeException e) {
            // a backend or method failure is not a wrong answer: record it and retry on resume
            return failed(p, e, (System.nanoTime() - t0) / 1_000_000, meter, q);
        }
    }

    private ResultRecord failed(Pair p, RuntimeException e, long ms) { return failed(p, e, ms, new UsageMeter(), null); }

    /** The record of a failure; a method's partial trace is written with the answer key of {@code q} (null: none). */
    private ResultRecord failed(Pair p, RuntimeException e, long ms, UsageMeter meter, KeyedQuestion q) {
        EvalQuestion eq = p.question();
        JsonNode trace = e instanceof MethodFailure mf && mf.partialTrace() != null
                ? secrets.scrub(finiteOnly(Json.MAPPER.valueToTree(q == null ? mf.partialTrace() : q.keyed(mf.partialTrace())))) : null;
        String msg = e.getClass().getSimpleName() + ": " + e.getMessage();
        return ResultRecord.of(question(eq, groundTruth(eq)), p.method(),
                new ResultRecord.Graded(Outcome.ERROR.label(), null, null, null, 0, 1, null, msg),
                new ResultRecord.Cost(0, 0, false, 0, ms, backend.name(), meter.tallies().isEmpty() ? null : meter.tallies()),
                new ResultRecord.TraceRef(0, null, trace));
    }

    private static ResultRecord.QuestionRef question(EvalQuestion eq, String groundTruth) {
        return new ResultRecord.QuestionRef(eq.id(), eq.group(), eq.rotation(), eq.category(), eq.l2Category(), groundTruth);
    }

    /** The question's ground truth for a failure record; null when its row cannot be read again either. */
    private static String groundTruth(EvalQuestion eq) {
        try {
            return eq.shell().groundTruth();
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** Replaces NaN and infinite numbers in a trace by null: JSON has no NaN, and the stored line must parse again. */
    static JsonNode finiteOnly(JsonNode n) {
        if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            var it = o.fields();
            List<String> bad = new ArrayList<>();
            while (it.hasNext()) {
                var e = it.next();
                if (e.getValue().isNumber() && !Double.isFinite(e.getValue().asDouble())) bad.add(e.getKey());
                else finiteOnly(e.getValue());
            }
            for (String k : bad) o.putNull(k);
        } else if (n instanceof com.fasterxml.jackson.databind.node.ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isNumber() && !Double.isFinite(a.get(i).asDouble())) a.setNull(i);
                else finiteOnly(a.get(i));
            }
        }
        return n;
    }
}
