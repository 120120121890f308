package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.config.Config;
import dev.gamagent.eval.SignalMix;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.UncertaintyFallback;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code gam serve}: an OpenAI-compatible chat-completions endpoint whose "models" are our methods, a
 * trace store and browser, Prometheus metrics and a small web page. Jetty carries the connections (idle
 * timeout, a connection limit, and our header deadline for clients that trickle their headers in); every
 * request passes the Host allow-list and the Origin check before it is routed, POSTs must be JSON, and
 * CORS is off unless {@code server.cors_origins} names the pages that may call the API.
 */
public final class GamServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GamServer.class);
    /** Whether the semantic-fallback notice was logged: once per server, not once per request. */
    private final java.util.concurrent.atomic.AtomicBoolean semanticNoticed = new java.util.concurrent.atomic.AtomicBoolean();
    private static final int RETRY_AFTER_SECONDS = 5;

    private final ServerSettings settings;
    private final Backend backend;
    private final NamedBackends backends;
    private final Config config;
    private final MethodCatalog catalog;
    private final SecretScrubber secrets;
    private final ServerMetrics metrics = new ServerMetrics();
    private final QuestionQueue questions;
    private final TraceStore traces;
    private final ExecutorService agentExecutor;
    private final ImageFetcher fetcher;
    private final ImageLoader images;
    private final SecureRandom random = new SecureRandom();
    private Server http;
    private ServerConnector connector;
    private ScheduledExecutorService headerWatch;

    /**
     * @param upstreamSecrets API keys the backend uses; they are redacted from every response, trace and log line
     */
    public GamServer(ServerSettings settings, Backend backend, Config config, MethodCatalog catalog, List<String> upstreamSecrets) {
        this(settings, NamedBackends.of(backend), config, catalog, new SecretScrubber(upstreamSecrets == null ? List.of() : upstreamSecrets));
    }

    /**
     * @param upstreamSecrets API keys the backends use; they are redacted from every response, trace and log line
     */
    public GamServer(ServerSettings settings, NamedBackends backends, Config config, MethodCatalog catalog, List<String> upstreamSecrets) {
        this(settings, backends, config, catalog, new SecretScrubber(upstreamSecrets == null ? List.of() : upstreamSecrets));
    }

    /**
     * A server whose methods' agents may use named backends (a panel from the server's configuration; clients
     * still pick only the method, as the "model").
     *
     * @param processSecrets the process's secrets (upstream keys, keys in base URLs); they and the server's own key are
     *                       removed, in every form, from every response body, event, stored trace and log line
     */
    public GamServer(ServerSettings settings, NamedBackends backends, Config config, MethodCatalog catalog, SecretScrubber processSecrets) {
        settings.check();
        this.settings = settings;
        this.backends = backends;
        this.backend = backends.defaultBackend();
        this.config = config;
        this.catalog = catalog == null ? MethodCatalog.REGISTRY : catalog;
        this.secrets = settings.apiKey() == null ? processSecrets : processSecrets.with(List.of(settings.apiKey()));
        this.questions = new QuestionQueue(settings.maxInFlight(), settings.maxQueued(), settings.queueTimeout(), RETRY_AFTER_SECONDS);
        metrics.waitingFrom(questions::waiting);
        this.traces = new TraceStore(settings.traceDb(), settings.traceRetention(), settings.traceMaxAge(),
                settings.defaultTraceLocation(System.getenv(), System.getProperty("user.home")), java.time.Clock.systemUTC());
        this.agentExecutor = Concurrency.newIoExecutor("gam-serve-agent");
        this.fetcher = new ImageFetcher(settings, RETRY_AFTER_SECONDS);
        // decode within one budget for the server, keep each image at most as large as the backend can use
        this.images = new ImageLoader(settings.maxImagePixels(), "server.max_image_megapixels")
                .withBudget(settings.decodeBudgetPixels() > 0 ? new DecodeBudget(settings.decodeBudgetPixels()) : DecodeBudget.megapixels(0))
                .keepingAtMost(backends.entries().isEmpty() ? backend.capabilities().maxImagePixels()
                        : Math.max(backend.capabilities().maxImagePixels(), dev.gamagent.backend.Capabilities.DEFAULT_MAX_PIXELS));
    }

    /** Connections open at once; beyond it Jetty stops accepting until one closes. */
    private static final int MAX_CONNECTIONS = 256;

    /** Starts listening; returns the bound port (useful with port 0). */
    public synchronized int start() throws IOException {
        // a question waiting in line holds its thread: room for every slot and place in line, and for the rest
        QueuedThreadPool threads = new QueuedThreadPool(Math.max(64, 16 + settings.maxInFlight() + settings.maxQueued()), 4);
        threads.setName("gam-serve-http");
        threads.setDaemon(true);
        http = new Server(threads);
        HttpConfiguration hc = new HttpConfiguration();
        hc.setSendServerVersion(false);
        hc.setSendDateHeader(true);
        connector = new ServerConnector(http, new HttpConnectionFactory(hc));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        connector.setIdleTimeout(settings.idleTimeout().toMillis());
        http.addConnector(connector);
        http.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
        http.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) {
                GamServer.this.handle(new JettyExchange(request, response, callback));
                return true;
            }
        });
        http.setStopTimeout(0);
        try {
            http.start();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
        }
        headerWatch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gam-serve-header-deadline");
            t.setDaemon(true);
            return t;
        });
        headerWatch.scheduleWithFixedDelay(this::closeSlowHeaders, 250, 250, TimeUnit.MILLISECONDS);
        int port = connector.getLocalPort();
        LOG.info("gam serve listening on http://{}:{}/ (backend {}, methods {}, auth {})", settings.host(), port,
                backend.name(), catalog.names(), settings.apiKey() == null ? "off" : "bearer");
        return port;
    }

    /**
     * Closes connections whose request headers have been arriving for longer than the header timeout
     * (one byte a second keeps the idle timeout from ever firing); Jetty parses headers without a thread,
     * so only this watch can end them.
     */
    private void closeSlowHeaders() {
        long now = System.nanoTime(), limit = settings.headerTimeout().toNanos();
        try {
            for (EndPoint ep : connector.getConnectedEndPoints()) {
                if (ep.getConnection() instanceof HttpConnection c) {
                    HttpParser p = c.getParser();
                    long begun = p.getBeginNanoTime();
                    if (p.inHeaderState() && !p.isStart() && begun != 0 && now - begun > limit) {
                        metrics.httpRequest("(slow headers)", 408);
                        LOG.info("closed a connection from {}: its request headers took longer than {} s (server.header_timeout_s)",
                                ep.getRemoteSocketAddress(), settings.headerTimeout().toSeconds());
                        ep.close();
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("header deadline check failed: {}", e.toString()); // next tick tries again
        }
    }

    public int port() { return connector.getLocalPort(); }

    public ServerMetrics metrics() { return metrics; }

    @Override public synchronized void close() {
        if (headerWatch != null) headerWatch.shutdownNow();
        if (http != null) {
            try {
                http.stop();
            } catch (Exception e) {
                LOG.debug("stopping the HTTP server: {}", e.toString());
            }
        }
        agentExecutor.shutdownNow();
        fetcher.close();
        traces.close();
    }

    // ---- routing ---------------------------------------------------------------------------------------

    private void handle(HttpExchange ex) {
        String path = ex.getRequestURI().getPath();
        String route = routeOf(path);
        int status = 500;
        try {
            ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            if (guard(ex)) {
                status = send(ex, 204, "text/plain", new byte[0]); // an allowed CORS preflight
            } else if (path.equals("/healthz")) {
                status = sendJson(ex, 200, Json.MAPPER.createObjectNode().put("status", "ok"));
            } else if (path.equals("/") || path.startsWith("/ui/")) {
                requireMethod(ex, "GET");
                status = sendResource(ex, path.equals("/") ? "index.html" : path.substring(4));
            } else if (path.equals("/metrics")) {
                authorize(ex);
                status = send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.render().getBytes(StandardCharsets.UTF_8));
            } else if (path.startsWith("/v1/")) {
                authorize(ex);
                status = switch (route) {
                    case "/v1/chat/completions" -> chatCompletions(ex);
                    case "/v1/models" -> { requireMethod(ex, "GET"); yield sendJson(ex, 200, models()); }
                    case "/v1/traces" -> { requireMethod(ex, "GET"); yield sendJson(ex, 200, recentTraces()); }
                    case "/v1/traces/{id}" -> { requireMethod(ex, "GET"); yield trace(ex, path.substring("/v1/traces/".length())); }
                    case "/v1/traces/{id}/image" -> { requireMethod(ex, "GET"); yield traceImage(ex, path.split("/")[3]); }
                    default -> throw new ApiError(404, "invalid_request_error", "not_found", "no endpoint " + path);
                };
            } else {
                throw new ApiError(404, "invalid_request_error", "not_found", "no page " + path + "; try / or /v1/chat/completions");
            }
        } catch (ApiError e) {
            status = sendError(ex, e);
        } catch (RuntimeException | IOException e) {
            LOG.warn("{} {} failed: {}", ex.getRequestMethod(), path, secrets.scrub(String.valueOf(e)));
            status = sendError(ex, new ApiError(500, "server_error", "internal_error", "internal error: " + e.getMessage()));
        } finally {
            metrics.httpRequest(route, status);
            ex.close();
        }
    }

    /**
     * Refuses what a browser tab on another site could make us do: a Host that is not ours (DNS
     * rebinding), an Origin that is neither ours nor in {@code server.cors_origins} (CSRF), a POST that is
     * not JSON (the only bodies a cross-site page can send without a preflight are form and text types).
     * Returns true for an allowed CORS preflight, which needs no further handling.
     */
    private boolean guard(HttpExchange ex) {
        String host = ex.getRequestHeaders().getFirst("Host");
        if (!settings.hostAllowed(host)) {
            throw new ApiError(403, "invalid_request_error", "host_not_allowed", "Host '" + host + "' is not allowed: this server "
                    + "answers to " + settings.allowedHostsText() + " (config server.allowed_hosts)");
        }
        String origin = ex.getRequestHeaders().getFirst("Origin");
        boolean cors = settings.corsAllowed(origin);
        if (origin != null && !cors && !sameOrigin(origin, host)) {
            throw new ApiError(403, "invalid_request_error", "origin_not_allowed", "requests from pages on " + origin
                    + " are refused; add the origin to config server.cors_origins to allow them");
        }
        if (cors) {
            ex.getResponseHeaders().set("Access-Control-Allow-Origin", origin);
            ex.getResponseHeaders().set("Vary", "Origin");
        }
        if (ex.getRequestMethod().equalsIgnoreCase("OPTIONS")) {
            if (!cors) {
                throw new ApiError(403, "invalid_request_error", "cors_not_allowed", "cross-origin requests are off; "
                        + "list the calling page's origin in config server.cors_origins to allow them");
            }
            ex.getResponseHeaders().set("Access-Control-Allow-Methods", "GET, POST");
            ex.getResponseHeaders().set("Access-Control-Allow-Headers", "Authorization, Content-Type");
            ex.getResponseHeaders().set("Access-Control-Max-Age", "600");
            return true;
        }
        if (ex.getRequestMethod().equalsIgnoreCase("POST")) {
            String type = ex.getRequestHeaders().getFirst("Content-Type");
            if (type == null || !type.split(";")[0].strip().equalsIgnoreCase("application/json")) {
                throw new ApiError(415, "invalid_request_error", "unsupported_media_type", "POST bodies must be JSON: send "
                        + "'Content-Type: application/json'" + (type == null ? "" : " (got '" + type + "')"));
            }
        }
        return false;
    }

    /** The page making the request was served by this server (same scheme-less host:port). */
    private static boolean sameOrigin(String origin, String host) {
        if (host == null) return false;
        String o = origin.strip().toLowerCase(java.util.Locale.ROOT);
        int scheme = o.indexOf("://");
        return scheme > 0 && o.substring(scheme + 3).equals(host.strip().toLowerCase(java.util.Locale.ROOT));
    }

    private static String routeOf(String path) {
        if (path.startsWith("/v1/traces/")) return path.endsWith("/image") ? "/v1/traces/{id}/image" : "/v1/traces/{id}";
        if (path.startsWith("/ui/")) return "/ui";
        return path;
    }

    private static void requireMethod(HttpExchange ex, String method) {
        if (!ex.getRequestMethod().equalsIgnoreCase(method)) {
            ex.getResponseHeaders().set("Allow", method);
            throw new ApiError(405, "invalid_request_error", "method_not_allowed", ex.getRequestURI().getPath() + " accepts " + method + " only");
        }
    }

    private void authorize(HttpExchange ex) {
        String key = settings.apiKey();
        if (key == null) return;
        String h = ex.getRequestHeaders().getFirst("Authorization");
        String given = h != null && h.regionMatches(true, 0, "Bearer ", 0, 7) ? h.substring(7).strip() : "";
        // Constant-time comparison, so response timing does not reveal how much of the key matched.
        if (!MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), key.getBytes(StandardCharsets.UTF_8))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "invalid_request_error", "invalid_api_key",
                    "missing or wrong API key: send 'Authorization: Bearer <key>'");
        }
    }

    // ---- chat completions --------------------------------------------------------------------------------

    /**
     * A question: read and checked, its remote images fetched (within their own limits, holding no slot), then it
     * takes one of the {@code server.max_in_flight} slots, waiting in line when all are busy; only then are its
     * images decoded and the method run.
     */
    private int chatCompletions(HttpExchange ex) throws IOException {
        requireMethod(ex, "POST");
        byte[] body = readBody(ex);
        long t0 = System.nanoTime();
        String methodName = "unknown";
        int status = 500;
        metrics.questionStarted();
        try (ImageFetcher.Lease lease = fetcher.lease()) {
            lease.reserve(body.length, "this request's body");
            CompletionRequest.Read read = CompletionRequest.read(body, settings, url -> fetcher.fetch(url, lease));
            Method method;
            try {
                method = catalog.create(read.model());
            } catch (IllegalArgumentException e) {
                throw new ApiError(404, "invalid_request_error", "model_not_found", "unknown model '" + read.model()
                        + "': the model names the method; known: " + String.join(", ", catalog.names()));
            }
            methodName = method.name();
            QuestionQueue.Slot slot = questions.take(() -> ex instanceof JettyExchange j && j.clientGone());
            if (slot == null) {
                status = 499; // nginx's "client closed request": nobody is there to answer
                LOG.info("chat.completions method={}: the client went away while waiting for a slot", methodName);
                return status;
            }
            // The slot frees as soon as the answer exists, before it is written, so a client that got its
            // answer can ask again at once.
            Runnable freeSlot = slot::close;
            try {
                CompletionRequest req = read.decode(images);
                lease.close(); // decoded: the fetched bytes are no longer held
                status = req.stream() ? stream(ex, req, method, freeSlot) : answer(ex, req, method, freeSlot);
                return status;
            } finally {
                freeSlot.run();
            }
        } catch (ApiError e) {
            status = e.status();
            throw e;
        } finally {
            metrics.questionFinished(methodName, backend.name(), status, (System.nanoTime() - t0) / 1e9);
            LOG.info("chat.completions method={} status={} in {} ms", methodName, status, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private int answer(HttpExchange ex, CompletionRequest req, Method method, Runnable freeSlot) throws IOException {
        String traceId = newTraceId();
        Answer a = run(req, method, traceId, ProgressListener.NONE);
        freeSlot.run();
        return sendJson(ex, 200, completion(a, req, method, traceId));
    }

    private int stream(HttpExchange ex, CompletionRequest req, Method method, Runnable freeSlot) throws IOException {
        String traceId = newTraceId();
        String id = "chatcmpl-" + traceId;
        long created = System.currentTimeMillis() / 1000;
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        EventStream sse = new EventStream(ex.getResponseBody());
        sse.send(chunk(id, created, method.name(), Json.MAPPER.createObjectNode().put("role", "assistant").put("content", ""), null));
        ProgressListener progress = (type, data) -> {
            ObjectNode c = chunk(id, created, method.name(), Json.MAPPER.createObjectNode().put("content", ""), null);
            ObjectNode ev = c.putObject("gam_event");
            ev.put("type", type);
            ev.set("data", eventData(data));
            sse.send(c);
        };
        try {
            Answer a = run(req, method, traceId, progress);
            freeSlot.run();
            sse.send(chunk(id, created, method.name(), Json.MAPPER.createObjectNode().put("content", content(a)), null));
            ObjectNode last = chunk(id, created, method.name(), Json.MAPPER.createObjectNode(), "stop");
            last.set("usage", usage(a));
            last.set("gam", gamInfo(a, traceId));
            sse.send(last);
        } catch (RuntimeException e) {
            // Headers are gone: the error travels as an event, as OpenAI's streaming API does.
            ApiError ae = e instanceof ApiError a ? a : new ApiError(500, "server_error", "internal_error", "internal error: " + e.getMessage());
            ObjectNode err = Json.MAPPER.createObjectNode();
            err.set("error", errorBody(ae));
            sse.send(err);
            sse.done();
            return ae.status();
        }
        sse.done();
        return 200;
    }

    private Answer run(CompletionRequest req, Method method, String traceId, ProgressListener progress) {
        RunContext ctx = new RunContext(backend, backends, config, agentExecutor, progress);
        Answer a;
        try {
            // the trace names the question by this request's id (the response's chatcmpl-<id>, the trace's id), not "request"
            Question q = req.question();
            a = method.run(new Question(traceId, q.images(), q.text(), q.hint(), q.options(), q.groundTruth(), q.category(), q.l2Category()), ctx);
        } catch (MethodFailure e) {
            if (e.partialTrace() != null) store(traceId, method.name(), req, e.partialTrace());
            throw new ApiError(502, "upstream_error", "method_failed", method.name() + " could not answer: " + secrets.scrub(e.getMessage())
                    + (e.partialTrace() != null ? " (partial trace " + traceId + ")" : ""));
        } catch (BackendException e) {
            throw new ApiError(502, "upstream_error", "backend_failed", "backend " + backend.name() + " failed: " + secrets.scrub(e.getMessage()));
        }
        if (a.trace() != null) store(traceId, method.name(), req, a.trace());
        if (!semanticNoticed.get() && a.trace() != null && SignalMix.usedSemantic(Json.MAPPER.valueToTree(a.trace()))
                && !semanticNoticed.getAndSet(true)) {
            LOG.warn(UncertaintyFallback.semanticNotice(method.name()));
        }
        return a;
    }

    private void store(String traceId, String method, CompletionRequest req, Trace trace) {
        byte[] png = null;
        List<Picture> images = req.question().images();
        if (images.size() > 1) {
            // a video's frames (or several images): side by side, which the viewer shows as a strip of frames in time order
            png = new Picture("frames", dev.gamagent.image.FrameStrip.of(images)).png();
        } else if (!images.isEmpty()) {
            png = images.get(0).scaled(1.0, 1_000_000).png(); // enough for the viewer; keeps the database small
        }
        // the whole trace as JSON, scrubbed string by string: whatever a trace records (prompts too) inherits it
        traces.save(traceId, method, secrets.scrub(req.question().text()), Json.write(secrets.scrub(Json.MAPPER.valueToTree(trace))), png);
    }

    private ObjectNode completion(Answer a, CompletionRequest req, Method method, String traceId) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", "chatcmpl-" + traceId);
        o.put("object", "chat.completion");
        o.put("created", System.currentTimeMillis() / 1000);
        o.put("model", method.name());
        ArrayNode choices = o.putArray("choices");
        ObjectNode c = choices.addObject();
        c.put("index", 0);
        c.putObject("message").put("role", "assistant").put("content", content(a));
        c.put("finish_reason", "stop");
        o.set("usage", usage(a));
        o.set("gam", gamInfo(a, traceId));
        return o;
    }

    /** For multiple choice "B. triangle", so clients matching either the letter or the text both work. */
    private static String content(Answer a) {
        return a.option() != null && !a.option().equals(a.answer()) ? a.option() + ". " + a.answer() : a.answer();
    }

    private static ObjectNode usage(Answer a) {
        ObjectNode u = Json.MAPPER.createObjectNode();
        u.put("prompt_tokens", a.tokens().prompt());
        u.put("completion_tokens", a.tokens().completion());
        u.put("total_tokens", a.tokens().total());
        return u;
    }

    private ObjectNode gamInfo(Answer a, String traceId) {
        ObjectNode g = Json.MAPPER.createObjectNode();
        g.put("answer", a.answer());
        if (a.option() == null) g.putNull("option"); else g.put("option", a.option());
        g.put("confidence", a.confidence());
        g.put("uncertainty", a.uncertainty());
        g.put("rounds", a.rounds());
        g.put("termination", a.termination());
        ObjectNode t = g.putObject("tokens");
        t.put("prompt", a.tokens().prompt());
        t.put("completion", a.tokens().completion());
        t.put("estimated", a.tokens().estimated());
        g.put("calls", a.calls());
        g.put("millis", a.millis());
        g.put("backend", backend.name());
        g.put("trace_id", traceId);
        return g;
    }

    private static ObjectNode chunk(String id, long created, String model, ObjectNode delta, String finish) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", id);
        o.put("object", "chat.completion.chunk");
        o.put("created", created);
        o.put("model", model);
        ObjectNode c = o.putArray("choices").addObject();
        c.put("index", 0);
        c.set("delta", delta);
        if (finish == null) c.putNull("finish_reason"); else c.put("finish_reason", finish);
        return o;
    }

    private JsonNode eventData(Map<String, Object> data) {
        try {
            return secrets.scrub(Json.MAPPER.valueToTree(data == null ? Map.of() : data));
        } catch (RuntimeException e) {
            return Json.MAPPER.getNodeFactory().textNode(secrets.scrub(String.valueOf(data)));
        }
    }

    /** Server-sent events; progress arrives from several agent threads at once, so writes are serialised. */
    private final class EventStream {
        private final OutputStream out;
        private boolean open = true;

        EventStream(OutputStream out) { this.out = out; }

        synchronized void send(JsonNode payload) { write("data: " + Json.write(secrets.scrub(payload)) + "\n\n"); }

        synchronized void done() { write("data: [DONE]\n\n"); }

        private void write(String s) {
            if (!open) return;
            try {
                out.write(s.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                open = false; // the client went away; the method still finishes and its trace is kept
            }
        }
    }

    // ---- traces and models --------------------------------------------------------------------------------

    private ObjectNode models() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("object", "list");
        ArrayNode data = o.putArray("data");
        for (String n : catalog.names()) {
            data.addObject().put("id", n).put("object", "model").put("created", 0).put("owned_by", "gam-agent");
        }
        return o;
    }

    private ObjectNode recentTraces() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("object", "list");
        ArrayNode data = o.putArray("data");
        for (TraceStore.Summary s : traces.recent(100)) {
            data.addObject().put("id", s.id()).put("method", s.method()).put("question", s.question())
                    .put("time", java.time.Instant.ofEpochMilli(s.time()).toString());
        }
        return o;
    }

    private int trace(HttpExchange ex, String id) throws IOException {
        String json = traces.json(id).orElseThrow(() -> new ApiError(404, "invalid_request_error", "trace_not_found",
                "no trace '" + id + "' (" + retentionText() + ")"));
        return send(ex, 200, "application/json; charset=utf-8", json.getBytes(StandardCharsets.UTF_8));
    }

    /** How long traces are kept, in the words the 404s use (the web page shows them). */
    private String retentionText() {
        Duration age = settings.traceMaxAge();
        return "the server keeps the traces of its newest " + settings.traceRetention() + " questions"
                + (age.isZero() ? "" : ", none older than " + (age.toHours() % 24 == 0 ? age.toDays() + " days" : age.toHours() + " hours"))
                + ", in " + settings.traceDb().getFileName() + " (config server.trace_retention, server.trace_retention_days, --trace-db)";
    }

    private int traceImage(HttpExchange ex, String id) throws IOException {
        byte[] png = traces.image(id).orElseThrow(() -> new ApiError(404, "invalid_request_error", "trace_not_found",
                "no image for trace '" + id + "' (" + retentionText() + ")"));
        return send(ex, 200, "image/png", png);
    }

    // ---- plumbing ------------------------------------------------------------------------------------------

    private byte[] readBody(HttpExchange ex) throws IOException {
        // a client trickling its body in holds a thread: give it server.read_timeout_s in all; when a body is
        // refused unread, the connection is closed rather than drained
        ex.getResponseHeaders().set("Connection", "close");
        long limit = settings.maxBodyBytes();
        String cl = ex.getRequestHeaders().getFirst("Content-Length");
        if (cl != null) {
            try {
                if (Long.parseLong(cl.strip()) > limit) throw tooLarge(limit);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("invalid_content_length", "Content-Length '" + cl + "' is not a number");
            }
        }
        long deadline = System.nanoTime() + settings.bodyTimeout().toNanos();
        try (InputStream in = ex.getRequestBody()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                if (out.size() > limit) throw tooLarge(limit);
                if (System.nanoTime() > deadline) {
                    throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body took longer than "
                            + settings.bodyTimeout().toSeconds() + " s to arrive (config server.read_timeout_s)");
                }
            }
            ex.getResponseHeaders().remove("Connection");
            return out.toByteArray();
        } catch (IOException e) {
            // Jetty's idle timeout ended a body that stopped arriving, or the client went away
            throw new ApiError(408, "invalid_request_error", "request_timeout", "the request body stopped arriving before its end ("
                    + e.getMessage() + "; config server.idle_timeout_s)");
        }
    }

    private static ApiError tooLarge(long limit) {
        return new ApiError(413, "invalid_request_error", "request_too_large", String.format(java.util.Locale.ROOT,
                "the request body is larger than the limit of %.1f MB (config server.max_body_mb)", limit / (1024.0 * 1024)));
    }

    private String newTraceId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return "tr-" + HexFormat.of().formatHex(b);
    }

    private int sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
        return send(ex, status, "application/json; charset=utf-8", Json.write(secrets.scrub(body)).getBytes(StandardCharsets.UTF_8));
    }

    private static int send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
        return status;
    }

    private ObjectNode errorBody(ApiError e) {
        ObjectNode err = Json.MAPPER.createObjectNode();
        err.put("message", secrets.scrub(e.getMessage()));
        err.put("type", e.type());
        err.put("code", e.code());
        return err;
    }

    private int sendError(HttpExchange ex, ApiError e) {
        try {
            if (e.retryAfterSeconds() != null) ex.getResponseHeaders().set("Retry-After", Integer.toString(e.retryAfterSeconds()));
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.set("error", errorBody(e));
            return sendJson(ex, e.status(), o);
        } catch (IOException | RuntimeException io) {
            return e.status(); // headers were already sent (a stream broke); nothing more to tell the client
        }
    }

    private int sendResource(HttpExchange ex, String name) throws IOException {
        if (!name.matches("[A-Za-z0-9_-]+\\.(html|js|css|svg)")) throw new ApiError(404, "invalid_request_error", "not_found", "no file " + name);
        try (InputStream in = GamServer.class.getResourceAsStream("/web/" + name)) {
            if (in == null) throw new ApiError(404, "invalid_request_error", "not_found", "no file " + name);
            String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
                    : name.endsWith(".css") ? "text/css; charset=utf-8" : "image/svg+xml";
            ex.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'");
            return send(ex, 200, type, in.readAllBytes());
        }
    }
}
