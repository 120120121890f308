package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * {@code gam serve}: an OpenAI-compatible chat-completions endpoint whose "models" are our methods, a
 * trace store and browser, Prometheus metrics and a small web page. Built on the JDK's HTTP server so
 * streaming and limits are under our control.
 */
public final class GamServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GamServer.class);
    private static final int RETRY_AFTER_SECONDS = 5;

    private final ServerSettings settings;
    private final Backend backend;
    private final NamedBackends backends;
    private final Config config;
    private final MethodCatalog catalog;
    private final SecretRedactor redactor;
    private final ServerMetrics metrics = new ServerMetrics();
    private final Semaphore inFlight;
    private final TraceStore traces;
    private final ExecutorService agentExecutor;
    private final ExecutorService httpExecutor;
    private final HttpClient imageClient;
    private final SecureRandom random = new SecureRandom();
    private HttpServer http;

    /**
     * @param upstreamSecrets API keys the backend uses; they are redacted from every response, trace and log line
     */
    public GamServer(ServerSettings settings, Backend backend, Config config, MethodCatalog catalog, List<String> upstreamSecrets) {
        this(settings, NamedBackends.of(backend), config, catalog, upstreamSecrets);
    }

    /**
     * A server whose methods' agents may use named backends (a panel from the server's configuration; clients
     * still pick only the method, as the "model").
     *
     * @param upstreamSecrets API keys the backends use; they are redacted from every response, trace and log line
     */
    public GamServer(ServerSettings settings, NamedBackends backends, Config config, MethodCatalog catalog, List<String> upstreamSecrets) {
        settings.check();
        this.settings = settings;
        this.backends = backends;
        this.backend = backends.defaultBackend();
        this.config = config;
        this.catalog = catalog == null ? MethodCatalog.REGISTRY : catalog;
        List<String> secrets = new java.util.ArrayList<>(upstreamSecrets == null ? List.of() : upstreamSecrets);
        if (settings.apiKey() != null) secrets.add(settings.apiKey());
        this.redactor = new SecretRedactor(secrets);
        this.inFlight = new Semaphore(settings.maxInFlight());
        this.traces = new TraceStore(settings.traceDb(), settings.traceRetention());
        this.agentExecutor = Concurrency.newIoExecutor("gam-serve-agent");
        this.httpExecutor = Concurrency.newIoExecutor("gam-serve-http", 32);
        this.imageClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Starts listening; returns the bound port (useful with port 0). */
    public synchronized int start() throws IOException {
        http = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 64);
        http.createContext("/", this::handle);
        http.setExecutor(httpExecutor);
        http.start();
        int port = http.getAddress().getPort();
        LOG.info("gam serve listening on http://{}:{}/ (backend {}, methods {}, auth {})", settings.host(), port,
                backend.name(), catalog.names(), settings.apiKey() == null ? "off" : "bearer");
        return port;
    }

    public int port() { return http.getAddress().getPort(); }

    public ServerMetrics metrics() { return metrics; }

    @Override public synchronized void close() {
        if (http != null) http.stop(0);
        httpExecutor.shutdownNow();
        agentExecutor.shutdownNow();
        traces.close();
    }

    // ---- routing ---------------------------------------------------------------------------------------

    private void handle(HttpExchange ex) {
        String path = ex.getRequestURI().getPath();
        String route = routeOf(path);
        int status = 500;
        try {
            ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            if (path.equals("/healthz")) {
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
            LOG.warn("{} {} failed: {}", ex.getRequestMethod(), path, redactor.redact(String.valueOf(e)));
            status = sendError(ex, new ApiError(500, "server_error", "internal_error", "internal error: " + e.getMessage()));
        } finally {
            metrics.httpRequest(route, status);
            ex.close();
        }
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

    private int chatCompletions(HttpExchange ex) throws IOException {
        requireMethod(ex, "POST");
        byte[] body = readBody(ex);
        if (!inFlight.tryAcquire()) {
            throw new ApiError(429, "rate_limit_error", "too_many_questions_in_flight", "the server is already answering "
                    + settings.maxInFlight() + " questions (server.max_in_flight); retry in " + RETRY_AFTER_SECONDS + " s",
                    RETRY_AFTER_SECONDS);
        }
        // The slot frees as soon as the answer exists, before it is written, so a client that got its
        // answer can ask again at once.
        java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable freeSlot = () -> { if (released.compareAndSet(false, true)) inFlight.release(); };
        long t0 = System.nanoTime();
        String methodName = "unknown";
        int status = 500;
        metrics.questionStarted();
        try {
            CompletionRequest req = CompletionRequest.parse(body, settings, this::fetchImage);
            Method method;
            try {
                method = catalog.create(req.model());
            } catch (IllegalArgumentException e) {
                throw new ApiError(404, "invalid_request_error", "model_not_found", "unknown model '" + req.model()
                        + "': the model names the method; known: " + String.join(", ", catalog.names()));
            }
            methodName = method.name();
            status = req.stream() ? stream(ex, req, method, freeSlot) : answer(ex, req, method, freeSlot);
            return status;
        } catch (ApiError e) {
            status = e.status();
            throw e;
        } finally {
            freeSlot.run();
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
            a = method.run(req.question(), ctx);
        } catch (MethodFailure e) {
            if (e.partialTrace() != null) store(traceId, method.name(), req, e.partialTrace());
            throw new ApiError(502, "upstream_error", "method_failed", method.name() + " could not answer: " + redactor.redact(e.getMessage())
                    + (e.partialTrace() != null ? " (partial trace " + traceId + ")" : ""));
        } catch (BackendException e) {
            throw new ApiError(502, "upstream_error", "backend_failed", "backend " + backend.name() + " failed: " + redactor.redact(e.getMessage()));
        }
        if (a.trace() != null) store(traceId, method.name(), req, a.trace());
        return a;
    }

    private void store(String traceId, String method, CompletionRequest req, Trace trace) {
        byte[] png = null;
        if (!req.question().images().isEmpty()) {
            Picture first = req.question().images().get(0);
            png = first.scaled(1.0, 1_000_000).png(); // enough for the viewer; keeps the database small
        }
        traces.save(traceId, method, req.question().text(), redactor.redact(Json.write(trace)), png);
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
            return Json.MAPPER.readTree(redactor.redact(Json.write(data == null ? Map.of() : data)));
        } catch (RuntimeException | IOException e) {
            return Json.MAPPER.getNodeFactory().textNode(redactor.redact(String.valueOf(data)));
        }
    }

    /** Server-sent events; progress arrives from several agent threads at once, so writes are serialised. */
    private final class EventStream {
        private final OutputStream out;
        private boolean open = true;

        EventStream(OutputStream out) { this.out = out; }

        synchronized void send(JsonNode payload) { write("data: " + redactor.redact(Json.write(payload)) + "\n\n"); }

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
                "no trace '" + id + "' (traces are kept for the newest " + settings.traceRetention() + " questions)"));
        return send(ex, 200, "application/json; charset=utf-8", json.getBytes(StandardCharsets.UTF_8));
    }

    private int traceImage(HttpExchange ex, String id) throws IOException {
        byte[] png = traces.image(id).orElseThrow(() -> new ApiError(404, "invalid_request_error", "trace_not_found",
                "no image for trace '" + id + "'"));
        return send(ex, 200, "image/png", png);
    }

    // ---- plumbing ------------------------------------------------------------------------------------------

    private byte[] readBody(HttpExchange ex) throws IOException {
        long limit = settings.maxBodyBytes();
        String cl = ex.getRequestHeaders().getFirst("Content-Length");
        if (cl != null) {
            try {
                if (Long.parseLong(cl.strip()) > limit) throw tooLarge(limit);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("invalid_content_length", "Content-Length '" + cl + "' is not a number");
            }
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (b.length > limit) throw tooLarge(limit);
            return b;
        }
    }

    private static ApiError tooLarge(long limit) {
        return new ApiError(413, "invalid_request_error", "request_too_large", String.format(java.util.Locale.ROOT,
                "the request body is larger than the limit of %.1f MB (config server.max_body_mb)", limit / (1024.0 * 1024)));
    }

    private byte[] fetchImage(URI url) {
        try {
            HttpResponse<InputStream> r = imageClient.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                if (r.statusCode() != 200) {
                    throw ApiError.badRequest("image_fetch_failed", "image URL " + url + " answered HTTP " + r.statusCode());
                }
                long limit = settings.maxBodyBytes();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[65536];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    if (out.size() > limit) throw new ApiError(413, "invalid_request_error", "image_too_large",
                            "image URL " + url + " is larger than the body limit of " + limit + " bytes");
                }
                return out.toByteArray();
            }
        } catch (IOException e) {
            throw ApiError.badRequest("image_fetch_failed", "cannot fetch image URL " + url + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.badRequest("image_fetch_failed", "interrupted while fetching " + url);
        }
    }

    private String newTraceId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return "tr-" + HexFormat.of().formatHex(b);
    }

    private int sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
        return send(ex, status, "application/json; charset=utf-8", redactor.redact(Json.write(body)).getBytes(StandardCharsets.UTF_8));
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
        err.put("message", redactor.redact(e.getMessage()));
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
