package dev.gamagent.telemetry;

import dev.gamagent.api.Answer;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A question's span and its children, made from what the method already reports: backend calls (a wrapper around each
 * backend the run resolves, as {@code UsageMeter} counts them) and progress events (a round begins; GAM's weights, U_sys
 * and C after it; DREAM's branch). The only class of ours that names OpenTelemetry's types: it is loaded only when
 * {@link DebateTracing} found them on the class path.
 */
final class OtelQuestionSpan implements QuestionSpan {
    static final String SCOPE = "dev.gamagent";

    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override public Iterable<String> keys(Map<String, String> carrier) { return carrier.keySet(); }

        @Override public String get(Map<String, String> carrier, String key) {
            if (carrier == null) return null;
            for (var e : carrier.entrySet()) if (e.getKey().equalsIgnoreCase(key)) return e.getValue();
            return null;
        }
    };

    private final Tracer tracer;
    private final Span question;
    /** Round spans by k (DREAM's probe round is k = −1), and the round begun last, the parent of calls that name none. */
    private final Map<Integer, Span> rounds = new ConcurrentHashMap<>();
    private final AtomicReference<Span> latest = new AtomicReference<>();
    private final List<Span> toEnd = new ArrayList<>();

    private OtelQuestionSpan(Tracer tracer, Span question) {
        this.tracer = tracer;
        this.question = question;
    }

    static QuestionSpan start(String method, Question q, Map<String, String> traceContext) {
        Tracer tracer = GlobalOpenTelemetry.getOrNoop().getTracer(SCOPE);
        Context parent = traceContext == null || traceContext.isEmpty() ? Context.current()
                : W3CTraceContextPropagator.getInstance().extract(Context.root(), traceContext, HEADERS);
        Span span = tracer.spanBuilder("invoke_agent " + method).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(Conventions.OPERATION, "invoke_agent")
                .setAttribute(Conventions.AGENT_NAME, method)
                .setAttribute(Conventions.METHOD, method)
                .setAttribute(Conventions.QUESTION_ID, q.id())
                .setAttribute(Conventions.IMAGES, (long) q.images().size())
                .setAttribute(Conventions.OPTIONS, (long) q.options().size())
                .startSpan();
        return new OtelQuestionSpan(tracer, span);
    }

    @Override public RunContext around(RunContext ctx) {
        Map<String, Backend> traced = new ConcurrentHashMap<>();
        Backend d = traced.computeIfAbsent(RunContext.DEFAULT_BACKEND, k -> new Traced(k, ctx.backend()));
        BackendResolver inner = ctx.backends();
        BackendResolver resolver = name -> {
            String label = RunContext.label(name);
            return label.equals(RunContext.DEFAULT_BACKEND) ? d : traced.computeIfAbsent(label, k -> new Traced(k, inner.resolve(name)));
        };
        ProgressListener progress = ctx.progress();
        return new RunContext(d, resolver, ctx.config(), ctx.executor(), event -> {
            observe(event);
            progress.event(event);
        }, ctx.tags());
    }

    private void observe(ProgressEvent event) {
        if (event instanceof ProgressEvent.RoundStarted r) {
            SpanBuilder b = tracer.spanBuilder("gam.round " + r.k()).setParent(Context.root().with(question))
                    .setAttribute(Conventions.ROUND, (long) r.k());
            if (r.phase() != null) b.setAttribute(Conventions.PHASE, r.phase());
            Span round = b.startSpan();
            synchronized (toEnd) {
                toEnd.add(round);
            }
            Span before = latest.getAndSet(round);
            rounds.put(r.k(), round);
            // rounds run one after another: the one before is over when the next begins
            if (before != null) before.end();
        } else if (event instanceof ProgressEvent.Weights w) {
            Span round = rounds.getOrDefault(w.k(), question);
            round.setAttribute(Conventions.U_SYS, w.uSys());
            if (w.conflict() != null) round.setAttribute(Conventions.CONFLICT, w.conflict());
            round.setAttribute(Conventions.WEIGHT_AGENTS, new ArrayList<>(w.weights().keySet()));
            round.setAttribute(Conventions.WEIGHTS, new ArrayList<>(w.weights().values()));
        } else if (event instanceof ProgressEvent.DreamBranch b) {
            question.setAttribute(Conventions.DREAM_BRANCH, b.branch());
        }
    }

    @Override public void end(Answer a) {
        question.setAttribute(Conventions.ROUNDS, (long) a.rounds());
        if (a.termination() != null) question.setAttribute(Conventions.TERMINATION, a.termination().label());
        if (a.option() != null) question.setAttribute(Conventions.OPTION, a.option());
        question.setAttribute(Conventions.CONFIDENCE, a.confidence());
        question.setAttribute(Conventions.U_SYS, a.uncertainty());
        question.setAttribute(Conventions.CALLS, (long) a.calls());
        if (a.tokens() != null) {
            question.setAttribute(Conventions.INPUT_TOKENS, a.tokens().prompt());
            question.setAttribute(Conventions.OUTPUT_TOKENS, a.tokens().completion());
            if (a.tokens().cached() != null) question.setAttribute(Conventions.CACHE_READ_INPUT_TOKENS, a.tokens().cached());
        }
        close();
    }

    @Override public void fail(Throwable error) {
        question.recordException(error);
        question.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        question.setAttribute(Conventions.ERROR_TYPE, error.getClass().getName());
        close();
    }

    private void close() {
        synchronized (toEnd) {
            for (Span s : toEnd) s.end(); // ending an ended span does nothing
        }
        question.end();
    }

    /** The span a call belongs under: its round (the request names it), else the round begun last, else the question. */
    private Span parentOf(ChatRequest r) {
        Span s = r.caller() == null ? null : rounds.get(r.caller().round());
        if (s == null) s = latest.get();
        return s == null ? question : s;
    }

    /** A backend whose every call is a GenAI {@code chat} span under its round. */
    private final class Traced implements Backend {
        private final String label;
        private final Backend inner;

        Traced(String label, Backend inner) {
            this.label = label;
            this.inner = inner;
        }

        @Override public String name() { return inner.name(); }

        @Override public Capabilities capabilities() { return inner.capabilities(); }

        @Override public ChatResult chat(ChatRequest r) {
            String name = inner.name();
            int colon = name.indexOf(':');
            String model = colon < 0 ? name : name.substring(colon + 1);
            SpanBuilder b = tracer.spanBuilder("chat " + model).setParent(Context.root().with(parentOf(r))).setSpanKind(SpanKind.CLIENT)
                    .setAttribute(Conventions.OPERATION, "chat")
                    .setAttribute(Conventions.REQUEST_MODEL, model)
                    .setAttribute(Conventions.TEMPERATURE, r.temperature())
                    .setAttribute(Conventions.MAX_TOKENS, (long) r.maxTokens())
                    .setAttribute(Conventions.BACKEND, label);
            if (colon > 0) b.setAttribute(Conventions.PROVIDER, name.substring(0, colon));
            if (r.n() > 1) b.setAttribute(Conventions.CHOICE_COUNT, (long) r.n());
            if (r.seed() != null) b.setAttribute(Conventions.SEED, r.seed());
            if (r.caller() != null) {
                b.setAttribute(Conventions.AGENT, r.caller().agent());
                b.setAttribute(Conventions.ROUND, (long) r.caller().round());
            }
            Span span = b.startSpan();
            try (Scope ignored = span.makeCurrent()) {
                ChatResult res = inner.chat(r);
                if (res.model() != null) span.setAttribute(Conventions.RESPONSE_MODEL, res.model());
                if (res.usage() != null) {
                    span.setAttribute(Conventions.INPUT_TOKENS, res.usage().promptTokens());
                    span.setAttribute(Conventions.OUTPUT_TOKENS, res.usage().completionTokens());
                    if (res.usage().cachedPromptTokens() != null) span.setAttribute(Conventions.CACHE_READ_INPUT_TOKENS, res.usage().cachedPromptTokens());
                    if (res.usage().estimated()) span.setAttribute(Conventions.ESTIMATED, true);
                }
                List<String> finish = new ArrayList<>();
                for (Choice c : res.choices()) if (c.finishReason() != null) finish.add(c.finishReason());
                if (!finish.isEmpty()) span.setAttribute(Conventions.FINISH_REASONS, finish);
                span.setAttribute(Conventions.SIGNAL, res.signal().label());
                return res;
            } catch (RuntimeException | Error e) {
                span.recordException(e, Attributes.empty());
                span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
                span.setAttribute(Conventions.ERROR_TYPE, e.getClass().getName());
                throw e;
            } finally {
                span.end();
            }
        }

        @Override public Backend withOwnCaches() {
            Backend v = inner.withOwnCaches();
            return v == inner ? this : new Traced(label, v);
        }

        // the trace does not own the backend: closing a run must not close the shared backend
        @Override public void close() { }
    }

    /** The attribute names: OpenTelemetry's GenAI semantic conventions ({@code gen_ai.*}) and GAM's own ({@code gam.*}). */
    static final class Conventions {
        static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
        static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
        static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
        static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
        static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
        static final AttributeKey<Double> TEMPERATURE = AttributeKey.doubleKey("gen_ai.request.temperature");
        static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
        static final AttributeKey<Long> CHOICE_COUNT = AttributeKey.longKey("gen_ai.request.choice.count");
        static final AttributeKey<Long> SEED = AttributeKey.longKey("gen_ai.request.seed");
        static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
        static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
        /** Of the input tokens (which include them), those the server read from its cache; only when it said. */
        static final AttributeKey<Long> CACHE_READ_INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens");
        static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
        static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

        static final AttributeKey<String> METHOD = AttributeKey.stringKey("gam.method");
        static final AttributeKey<String> QUESTION_ID = AttributeKey.stringKey("gam.question.id");
        static final AttributeKey<Long> IMAGES = AttributeKey.longKey("gam.question.images");
        static final AttributeKey<Long> OPTIONS = AttributeKey.longKey("gam.question.options");
        static final AttributeKey<Long> ROUND = AttributeKey.longKey("gam.round");
        static final AttributeKey<String> PHASE = AttributeKey.stringKey("gam.phase");
        static final AttributeKey<Long> ROUNDS = AttributeKey.longKey("gam.rounds");
        static final AttributeKey<String> TERMINATION = AttributeKey.stringKey("gam.termination");
        static final AttributeKey<String> OPTION = AttributeKey.stringKey("gam.answer.option");
        static final AttributeKey<Double> CONFIDENCE = AttributeKey.doubleKey("gam.confidence");
        static final AttributeKey<Double> U_SYS = AttributeKey.doubleKey("gam.u_sys");
        static final AttributeKey<Double> CONFLICT = AttributeKey.doubleKey("gam.conflict");
        static final AttributeKey<List<String>> WEIGHT_AGENTS = AttributeKey.stringArrayKey("gam.weights.agents");
        static final AttributeKey<List<Double>> WEIGHTS = AttributeKey.doubleArrayKey("gam.weights");
        static final AttributeKey<Long> CALLS = AttributeKey.longKey("gam.calls");
        static final AttributeKey<String> DREAM_BRANCH = AttributeKey.stringKey("gam.dream.branch");
        static final AttributeKey<String> AGENT = AttributeKey.stringKey("gam.agent");
        static final AttributeKey<String> BACKEND = AttributeKey.stringKey("gam.backend");
        static final AttributeKey<String> SIGNAL = AttributeKey.stringKey("gam.signal");
        static final AttributeKey<Boolean> ESTIMATED = AttributeKey.booleanKey("gam.usage.estimated");

        private Conventions() { }
    }
}
