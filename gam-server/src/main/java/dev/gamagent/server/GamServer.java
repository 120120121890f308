package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code gam serve}: an OpenAI-compatible chat-completions endpoint whose "models" are our methods, a
 * trace store and browser, Prometheus metrics and a small web page; this class listens and routes. Jetty carries the
 * connections (idle timeout, a connection limit, and our header deadline for clients that trickle their headers in);
 * every request passes the Host allow-list and the Origin check ({@link AccessGuard}) before it is routed, POSTs must
 * be JSON, and CORS is off unless {@code server.cors_origins} names the pages that may call the API.
 */
public final class GamServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GamServer.class);
    private static final int RETRY_AFTER_SECONDS = 5;

    private final ServerSettings settings;
    private final Backend backend;
    private final MethodCatalog catalog;
    private final SecretScrubber secrets;
    private final ServerMetrics metrics = new ServerMetrics();
    private final TraceStore traces;
    private final AccessGuard guard;
    private final Replies replies;
    private final TraceApi traceApi;
    private final ChatCompletions completions;
    private Server http;
    private ServerConnector connector;
    private volatile ScheduledExecutorService headerWatch;
    private final java.util.concurrent.atomic.AtomicInteger openConnections = new java.util.concurrent.atomic.AtomicInteger();

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
        this.backend = backends.defaultBackend();
        this.catalog = catalog == null ? MethodCatalog.REGISTRY : catalog;
        this.secrets = settings.apiKey() == null ? processSecrets : processSecrets.with(List.of(settings.apiKey()));
        this.guard = new AccessGuard(settings);
        this.replies = new Replies(secrets);
        this.traces = new TraceStore(settings.traceDb(), settings.traceRetention(), settings.traceMaxAge(),
                settings.defaultTraceLocation(System.getenv(), System.getProperty("user.home")), java.time.Clock.systemUTC());
        this.traceApi = new TraceApi(traces, settings, replies);
        this.completions = new ChatCompletions(settings, backends, config, this.catalog, secrets, metrics, traces, replies, RETRY_AFTER_SECONDS, LOG);
    }

    /**
     * Under pressure (connections past three quarters of {@code server.max_connections}), a connection that has sent no
     * whole request for this long is closed to make room, oldest first: a client's request line and headers arrive in
     * one round trip, a keep-alive connection between requests can be opened again, and one byte every few hundred
     * milliseconds (which no header timeout ends sooner) must not keep {@code /healthz} and real clients out.
     */
    private static final long PRESSURE_GRACE_MILLIS = 1000;

    /** Starts listening; returns the bound port (useful with port 0). */
    public synchronized int start() throws IOException {
        // a question waiting in line, or for memory, holds its thread: room for every slot, every place in both lines, and the rest
        QueuedThreadPool threads = new QueuedThreadPool(Math.max(64, 16 + settings.maxInFlight() + 2 * settings.maxQueued()), 4);
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
        // connections past the limit wait in the kernel's accept queue until one closes; the JDK's default queue of 50
        // overflowed in a burst of 400, and a connection the kernel drops from a full queue is reset a minute and a half
        // later without an answer (issue 38): a queue four times the limit holds such a burst
        connector.setAcceptQueueSize(4 * settings.maxConnections());
        connector.addEventListener(new Connection.Listener() {
            @Override public void onOpened(Connection c) {
                ScheduledExecutorService watch = headerWatch;
                if (watch != null && openConnections.incrementAndGet() > settings.maxConnections() * 3 / 4) watch.execute(GamServer.this::makeRoom);
            }

            @Override public void onClosed(Connection c) { openConnections.decrementAndGet(); }
        });
        http.addConnector(connector);
        http.addBean(new NetworkConnectionLimit(settings.maxConnections(), connector));
        http.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) {
                GamServer.this.handle(new Exchange(request, response, callback));
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
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gam-serve-header-deadline");
            t.setDaemon(true);
            return t;
        });
        watch.scheduleWithFixedDelay(() -> {
            closeSlowHeaders();
            makeRoom();
        }, 250, 250, TimeUnit.MILLISECONDS);
        headerWatch = watch;
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

    /**
     * Past three quarters of {@code server.max_connections}, closes connections that have sent no whole request for
     * {@link #PRESSURE_GRACE_MILLIS} (trickling headers, or idle between requests), oldest first, down to three quarters:
     * so connections that trickle cannot fill the server while real requests and {@code /healthz} wait to be accepted.
     * Connections whose request is being read or answered are never closed here.
     */
    private void makeRoom() {
        try {
            int high = settings.maxConnections() * 3 / 4;
            List<EndPoint> all = List.copyOf(connector.getConnectedEndPoints());
            if (all.size() <= high) return;
            long now = System.nanoTime();
            List<Map.Entry<EndPoint, Long>> waiting = new ArrayList<>();
            for (EndPoint ep : all) {
                if (ep.getConnection() instanceof HttpConnection c && c.getParser().inHeaderState()) {
                    HttpParser p = c.getParser();
                    long begun = p.getBeginNanoTime();
                    long millis = p.isStart() || begun == 0 ? idleMillis(ep) : (now - begun) / 1_000_000;
                    if (millis >= PRESSURE_GRACE_MILLIS) waiting.add(Map.entry(ep, millis));
                }
            }
            waiting.sort(Map.Entry.<EndPoint, Long>comparingByValue().reversed());
            int close = Math.min(all.size() - high, waiting.size());
            for (int i = 0; i < close; i++) {
                metrics.httpRequest("(room made)", 408);
                waiting.get(i).getKey().close();
            }
            if (close > 0) {
                LOG.info("{} connections open, more than 3/4 of server.max_connections ({}): closed {} that had sent no whole request for "
                        + "{} s or more, oldest first (longest {} s)", all.size(), settings.maxConnections(), close, PRESSURE_GRACE_MILLIS / 1000,
                        waiting.get(0).getValue() / 1000);
            }
        } catch (RuntimeException e) {
            LOG.debug("making room for connections failed: {}", e.toString()); // the next tick tries again
        }
    }

    private static long idleMillis(EndPoint ep) {
        return ep instanceof org.eclipse.jetty.io.IdleTimeout t ? t.getIdleFor() : System.currentTimeMillis() - ep.getCreatedTimeStamp();
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
        completions.close();
        traces.close();
    }

    // ---- routing ---------------------------------------------------------------------------------------

    private void handle(Exchange ex) {
        String path = ex.uri().getPath();
        String route = routeOf(path);
        int status = 500;
        try {
            ex.setHeader("X-Content-Type-Options", "nosniff");
            if (guard.check(ex)) {
                status = Replies.send(ex, 204, "text/plain", new byte[0]); // an allowed CORS preflight
            } else if (path.equals("/healthz")) {
                status = replies.json(ex, 200, Json.MAPPER.createObjectNode().put("status", "ok"));
            } else if (path.equals("/") || path.startsWith("/ui/")) {
                requireMethod(ex, "GET");
                status = Replies.resource(ex, path.equals("/") ? "index.html" : path.substring(4));
            } else if (path.equals("/metrics")) {
                guard.authorize(ex);
                status = Replies.send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.render().getBytes(StandardCharsets.UTF_8));
            } else if (path.startsWith("/v1/")) {
                guard.authorize(ex);
                status = switch (route) {
                    case "/v1/chat/completions" -> { requireMethod(ex, "POST"); yield completions.handle(ex); }
                    case "/v1/models" -> { requireMethod(ex, "GET"); yield replies.json(ex, 200, models()); }
                    case "/v1/traces" -> { requireMethod(ex, "GET"); yield traceApi.recent(ex); }
                    case "/v1/traces/{id}" -> { requireMethod(ex, "GET"); yield traceApi.trace(ex, path.substring("/v1/traces/".length())); }
                    case "/v1/traces/{id}/image" -> { requireMethod(ex, "GET"); yield traceApi.image(ex, path.split("/")[3]); }
                    default -> throw new ApiError(404, "invalid_request_error", "not_found", "no endpoint " + path);
                };
            } else {
                throw new ApiError(404, "invalid_request_error", "not_found", "no page " + path + "; try / or /v1/chat/completions");
            }
        } catch (ApiError e) {
            status = replies.error(ex, e);
        } catch (OutOfMemoryError e) {
            // what the request held is garbage once its frames are gone: say so in a body, the server goes on
            ApiError oom = ApiError.outOfMemory(RETRY_AFTER_SECONDS);
            LOG.warn("{} {}: 503 {}: {}", ex.method(), path, oom.code(), oom.getMessage());
            status = replies.error(ex, oom);
        } catch (RuntimeException | IOException | Error e) {
            LOG.warn("{} {} failed: {}", ex.method(), path, secrets.scrub(String.valueOf(e)));
            status = replies.error(ex, new ApiError(500, "server_error", "internal_error", "internal error: " + e));
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

    private static void requireMethod(Exchange ex, String method) {
        if (!ex.method().equalsIgnoreCase(method)) {
            ex.setHeader("Allow", method);
            throw new ApiError(405, "invalid_request_error", "method_not_allowed", ex.uri().getPath() + " accepts " + method + " only");
        }
    }

    /** The methods, as OpenAI's model list. */
    private JsonNode models() { return ChatCompletionWriter.tree(ChatCompletionReply.ModelList.of(catalog.names(), "gam-agent")); }
}
