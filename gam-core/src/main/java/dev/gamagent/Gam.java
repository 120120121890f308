package dev.gamagent;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.telemetry.DebateTracing;
import dev.gamagent.telemetry.QuestionSpan;
import dev.gamagent.util.Concurrency;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * The library's entry point: one method (GAM, DREAM, a baseline) over one backend, asked one question at a time.
 * Build it once and reuse it; it is safe to call {@link #ask} from several threads. Close it to stop its threads
 * and its backend's connections.
 *
 * <pre>{@code
 * try (Gam gam = Gam.builder()
 *         .openAiCompatible("http://localhost:8000/v1", "Qwen/Qwen2-VL-7B-Instruct")  // or .builtInModel()
 *         .method("gam")
 *         .set("gam.max_rounds", "2")
 *         .build()) {
 *     Question q = Question.of("q1", List.of(ImageLoader.load(Path.of("chart.png"))),
 *             "Which bar is tallest?", Map.of("A", "red", "B", "blue"));
 *     Answer a = gam.ask(q, event -> System.out.println(event.type() + " " + event.data()));
 *     System.out.println(a.option() + " " + a.answer() + ", " + a.trace().rounds().size() + " rounds");
 * }
 * }</pre>
 *
 * The methods are those of {@link MethodRegistry#names()}; the configuration keys those of the bundled
 * {@code defaults.json} (docs/java-api.md lists the common ones). The backend's timeout, retries and requests in
 * flight are the configuration's {@code backend.timeout_s}, {@code backend.retries} and {@code backend.max_concurrent};
 * the agents may name the backends of its {@code backends} section, as on the command line.
 */
public final class Gam implements AutoCloseable {
    private final NamedBackends backends;
    private final Method method;
    private final Config config;
    private final ExecutorService executor;
    private final ProgressListener progress;

    private Gam(NamedBackends backends, Method method, Config config, ExecutorService executor, ProgressListener progress) {
        this.backends = backends;
        this.method = method;
        this.config = config;
        this.executor = executor;
        this.progress = progress;
    }

    /** A builder with the built-in model as backend (if on the classpath), method {@code single} and the defaults. */
    public static Builder builder() { return new Builder(); }

    /** Answers one question, reporting progress to the builder's listener. */
    public Answer ask(Question question) { return ask(question, progress); }

    /**
     * Answers one question.
     *
     * @param question the images, text and (for multiple choice) options
     * @param listener receives progress events ({@code round_started}, {@code agent_answered}, {@code weights}, ...)
     *                 on the threads that run the agents
     * @return the answer, its confidence and uncertainty, tokens and calls, and the full {@link Trace}
     * @throws MethodFailure when every agent failed (the cause names the backend error)
     */
    public Answer ask(Question question, ProgressListener listener) {
        Objects.requireNonNull(question, "question");
        return session(backends.defaultBackend(), backends, config, executor).ask(method, question, listener, null);
    }

    /**
     * A way to ask questions over backends and a thread pool the caller owns and keeps: how {@code gam ask},
     * {@code gam eval} and {@code gam serve} run a method (each holds its own panel, executor and, for the evaluation
     * and the server, its own instances of the methods). Nothing of it is closed by the session.
     *
     * @param backend  the default backend
     * @param backends the named backends the method's agents may use ({@code gam.agents})
     */
    public static Session session(Backend backend, BackendResolver backends, Config config, ExecutorService executor) {
        return new Session(backend, backends, config, executor);
    }

    /** Backends, a configuration and a thread pool to run methods on; see {@link #session}. */
    public static final class Session {
        private final Backend backend;
        private final BackendResolver backends;
        private final Config config;
        private final ExecutorService executor;
        private final Map<String, String> traceContext;

        private Session(Backend backend, BackendResolver backends, Config config, ExecutorService executor) {
            this(backend, backends, config, executor, Map.of());
        }

        private Session(Backend backend, BackendResolver backends, Config config, ExecutorService executor, Map<String, String> traceContext) {
            this.backend = Objects.requireNonNull(backend, "backend");
            this.backends = Objects.requireNonNull(backends, "backends");
            this.config = Objects.requireNonNull(config, "config");
            this.executor = Objects.requireNonNull(executor, "executor");
            this.traceContext = Map.copyOf(traceContext);
        }

        /**
         * This session's questions as part of the trace a request carries: its W3C trace context ({@code traceparent} and
         * {@code tracestate} headers, by name), which the questions' spans continue when OpenTelemetry is on the class path
         * (docs/observability.md). Without it a question's span continues the current span, if any.
         */
        public Session continuing(Map<String, String> headers) {
            return new Session(backend, backends, config, executor, Objects.requireNonNull(headers, "headers"));
        }

        /**
         * Runs {@code method} on {@code question}: the one place a method is given its run context.
         *
         * @param listener progress events (null: none)
         * @param meter    counts each backend's calls and tokens (null: not counted)
         */
        public Answer ask(Method method, Question question, ProgressListener listener, UsageMeter meter) {
            Objects.requireNonNull(question, "question");
            RunContext ctx = new RunContext(backend, backends, config, executor, listener);
            // a span per question, round and call when OpenTelemetry is on the class path (docs/observability.md); else none
            QuestionSpan span = DebateTracing.start(method.name(), question, traceContext);
            Answer a;
            try {
                a = method.run(question, span.around(meter == null ? ctx : ctx.metered(meter)));
            } catch (RuntimeException | Error e) {
                span.fail(e);
                throw e;
            }
            span.end(a);
            return a;
        }
    }

    /** The method's name, e.g. {@code gam} or {@code dream+debate}. */
    public String method() { return method.name(); }

    /** The backend's name (server and model, or {@code local}). */
    public String backend() { return backends.defaultBackend().name(); }

    @Override public void close() {
        executor.shutdownNow();
        backends.close();
    }

    /** Chooses the backend, the method and the configuration of a {@link Gam}. */
    public static final class Builder {
        private Backend backend;
        private String kind = "local";
        private String baseUrl;
        private String model;
        private String apiKeyEnv;
        private String method = "single";
        private Path configFile;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private final Map<String, Backend> ownBackends = new LinkedHashMap<>();
        private ProgressListener progress = ProgressListener.NONE;

        private Builder() { }

        /** The built-in offline model (needs the {@code gam-local} artifact on the classpath). */
        public Builder builtInModel() {
            kind = "local";
            backend = null;
            return this;
        }

        /**
         * A server speaking OpenAI's chat completions (vLLM, SGLang, llama.cpp, LM Studio, OpenAI).
         *
         * @param baseUrl the URL up to and including {@code /v1}, e.g. {@code http://localhost:8000/v1}
         * @param model   the model name the server knows
         */
        public Builder openAiCompatible(String baseUrl, String model) { return openAiCompatible(baseUrl, model, null); }

        /**
         * As {@link #openAiCompatible(String, String)}, with the API key read from the environment variable
         * {@code apiKeyEnv} (keys never pass through code or traces); null for a server without keys.
         */
        public Builder openAiCompatible(String baseUrl, String model, String apiKeyEnv) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            this.model = model;
            this.apiKeyEnv = apiKeyEnv;
            kind = "openai";
            backend = null;
            return this;
        }

        /** Any backend of one's own (a {@link Backend} implementation); {@link Gam#close} closes it. */
        public Builder backend(Backend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /**
         * A backend of one's own under {@code name}, which the configuration's agents may name as they name an entry of
         * its {@code backends} section (e.g. {@code gam.experts[1].backend}): a panel may put one agent on it, e.g. a
         * LangChain4j model through gam-langchain4j. {@link Gam#close} closes it.
         */
        public Builder backend(String name, Backend backend) {
            ownBackends.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(backend, "backend"));
            return this;
        }

        /** The method: {@code single}, {@code cot}, {@code gam}, {@code dream+gam}, ... ({@link MethodRegistry#names()}). */
        public Builder method(String name) {
            this.method = Objects.requireNonNull(name, "method");
            return this;
        }

        /** One configuration value by its dotted key, e.g. {@code set("gam.max_rounds", "2")}. */
        public Builder set(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** A JSON configuration file (the shape of {@code defaults.json}), applied before {@link #set} values. */
        public Builder config(Path file) {
            this.configFile = file;
            return this;
        }

        /** The listener {@link Gam#ask(Question)} reports progress to. */
        public Builder progress(ProgressListener listener) {
            this.progress = listener == null ? ProgressListener.NONE : listener;
            return this;
        }

        /**
         * Builds the configured {@link Gam}.
         *
         * @throws IllegalArgumentException for an unknown method, configuration key or backend, naming it
         */
        public Gam build() {
            Config config = Config.defaults();
            if (configFile != null) config = config.withFile(configFile);
            if (!overrides.isEmpty()) config = config.withOverrides(overrides);
            Method m = MethodRegistry.create(method);
            NamedBackends named = backend != null
                    ? NamedBackends.around(backend, spec(config), config, BackendFactory::create)
                    : NamedBackends.open(spec(config), config, BackendFactory::create);
            try {
                if (!ownBackends.isEmpty()) named = named.with(ownBackends);
                named.requireKnown(m.backendRefs(config));
            } catch (RuntimeException e) {
                named.close();
                throw e;
            }
            return new Gam(named, m, config, Concurrency.newIoExecutor("gam"), progress);
        }

        /** The chosen backend with the configuration's timeout, retries and requests in flight ({@code backend.*}). */
        private BackendSpec spec(Config config) {
            if (kind.equals("local")) return BackendSpec.local();
            return new BackendSpec(kind, List.of(baseUrl), model, apiKeyEnv, Duration.ofSeconds(config.integer("backend.timeout_s")),
                    config.integer("backend.retries"), config.integer("backend.max_concurrent"), null, null, null);
        }
    }
}
