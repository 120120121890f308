package dev.gamagent.bench.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import dev.gamagent.backend.openai.WireFormatException;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A model server for benchmarks, not a model: an OpenAI-compatible {@code /v1/chat/completions} that
 * answers every request after a simulated latency with a well-formed reply ({@link SimulatedReply}),
 * serving at most {@code slots} requests at once and queueing or refusing (429) the rest. No thread waits
 * out a request's latency: a handler parses the body and schedules the answer, so thousands of requests
 * can be in flight. {@code GET /sim/stats} reports counters and the slots' busy time, from which a
 * benchmark computes utilisation over any window, and the prompt tokens received, served from the prefix cache and
 * computed; {@code POST /sim/stats/reset} zeroes those token counters and {@code POST /reset_prefix_cache} (vLLM's
 * endpoint) empties the cache of the blocks no running request holds, so a benchmark can measure one method at a time.
 * With {@link SimulatorSettings#prefixCaching()} a request's prompt is looked up in a {@link PrefixCache} when it takes a
 * slot (as vLLM's scheduler does), only its computed tokens cost prefill time, its new blocks are cached when its
 * prefill ends, and its reply reports {@code usage.prompt_tokens_details.cached_tokens}.
 */
public final class ModelServerSimulator implements AutoCloseable {
    private final SimulatorSettings settings;
    private final HttpServer server;
    private final ExecutorService handlers;
    private final ScheduledExecutorService timer;
    private final long startNanos = System.nanoTime();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong received = new AtomicLong(), completed = new AtomicLong(), rejected = new AtomicLong(),
            invalid = new AtomicLong();
    /** Null when the settings turn the prefix cache off. */
    private final PrefixCache cache;
    // token counters since start or the last POST /sim/stats/reset, guarded by this
    private long tokenRequests, promptTokens, cachedTokens;

    // slot accounting, guarded by this
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private int busy;
    private int peakBusy;
    private int peakQueued;
    private long busySlotNanos;
    private long lastChange = System.nanoTime();

    /**
     * A parsed request waiting for (or holding) a slot, with its choices generated; {@code blockHashes} are its prompt's
     * full blocks' hashes (null without a prefix cache).
     */
    private record Pending(HttpExchange exchange, String id, SimulatedRequest request, List<SimulatedReply.Choice> choices,
                           long promptTokens, long completionTokens, long[] blockHashes) { }

    public ModelServerSimulator(SimulatorSettings settings) throws IOException {
        this.settings = settings;
        this.cache = settings.prefixCaching() ? new PrefixCache(settings.prefixCacheTokens(), settings.blockSize()) : null;
        // Small answers on kept-alive connections: without TCP_NODELAY, Nagle's algorithm adds 40 ms waits.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        System.setProperty("sun.net.httpserver.maxIdleConnections", "8192");
        this.server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 4096);
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        this.handlers = Executors.newFixedThreadPool(threads, daemon("sim-handler"));
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(Math.max(1, threads / 2), daemon("sim-timer"));
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        server.setExecutor(handlers);
        server.createContext("/v1/chat/completions", this::completion);
        server.createContext("/chat/completions", this::completion);
        server.createContext("/v1/models", this::models);
        server.createContext("/sim/stats", ex -> send(ex, 200, Json.write(stats()).getBytes(StandardCharsets.UTF_8), null));
        server.createContext("/sim/stats/reset", ex -> {
            if (!"POST".equals(ex.getRequestMethod())) {
                send(ex, 405, error("use POST for /sim/stats/reset", "invalid_request_error"), null);
                return;
            }
            resetTokenCounters();
            send(ex, 200, Json.write(stats()).getBytes(StandardCharsets.UTF_8), null);
        });
        server.createContext("/reset_prefix_cache", ex -> {
            if (!"POST".equals(ex.getRequestMethod())) {
                send(ex, 405, error("use POST for /reset_prefix_cache", "invalid_request_error"), null);
                return;
            }
            int dropped = cache == null ? 0 : cache.clear();
            send(ex, 200, Json.write(Map.of("dropped_blocks", dropped)).getBytes(StandardCharsets.UTF_8), null);
        });
        server.start();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread th = new Thread(r, name + "-" + n.incrementAndGet());
            th.setDaemon(true);
            return th;
        };
    }

    public SimulatorSettings settings() { return settings; }

    public int port() { return server.getAddress().getPort(); }

    /** What to pass as {@code --base-url}. */
    public String baseUrl() { return "http://" + settings.host() + ":" + port() + "/v1"; }

    private void completion(HttpExchange ex) throws IOException {
        if (!"POST".equals(ex.getRequestMethod())) {
            send(ex, 405, error("use POST for /v1/chat/completions", "invalid_request_error"), null);
            return;
        }
        received.incrementAndGet();
        SimulatedRequest r;
        try (InputStream in = ex.getRequestBody()) {
            r = SimulatedRequest.parse(in);
        } catch (WireFormatException e) {
            invalid.incrementAndGet();
            send(ex, 400, error(e.getMessage(), "invalid_request_error"), null);
            return;
        }
        if (r.stream()) {
            invalid.incrementAndGet();
            send(ex, 400, error("the simulator does not stream; send \"stream\": false", "invalid_request_error"), null);
            return;
        }
        if (r.topLogprobs() > settings.maxTopLogprobs()) {
            invalid.incrementAndGet();
            // vLLM's wording, so clients learn the cap as they would from a real server
            send(ex, 400, error("Requested sample logprobs of " + r.topLogprobs() + ", which is greater than max allowed: "
                    + settings.maxTopLogprobs(), "invalid_request_error"), null);
            return;
        }
        List<SimulatedReply.Choice> choices = new ArrayList<>(r.n());
        long completionTokens = 0;
        for (int i = 0; i < r.n(); i++) {
            SimulatedReply.Choice c = SimulatedReply.generate(r, settings, i);
            choices.add(c);
            completionTokens += c.tokens().size();
        }
        long prompt = r.promptTokens(settings.imageTokens());
        long[] hashes = null;
        if (cache != null) {
            SimulatedRequest.Tokens t = r.tokens(settings.imageTokens());
            hashes = PrefixCache.blockHashes(t.ids(), t.images(), cache.blockSize());
        }
        admit(new Pending(ex, "chatcmpl-sim-" + ids.incrementAndGet(), r, choices, prompt, completionTokens, hashes));
    }

    /**
     * A request takes its slot: the prefix cache serves what it can, the reply is written, its prefill ends (and its
     * blocks enter the cache) after the computed tokens' time and the reply goes out after the whole latency.
     */
    private void start(Pending p) {
        PrefixCache.Admission a = cache == null ? null : cache.admit(p.blockHashes(), p.promptTokens());
        long cached = a == null ? 0 : a.cachedTokens();
        synchronized (this) {
            tokenRequests++;
            promptTokens += p.promptTokens();
            cachedTokens += cached;
        }
        SimulatedRequest r = p.request();
        byte[] body = SimulatedReply.body(p.id(), r.model() == null ? settings.model() : r.model(), System.currentTimeMillis() / 1000, r,
                p.choices(), p.promptTokens(), a == null ? null : cached);
        long computed = p.promptTokens() - cached;
        if (a != null) timer.schedule(() -> cache.prefilled(a), settings.prefillNanos(computed), TimeUnit.NANOSECONDS);
        timer.schedule(() -> finish(p, body, a), settings.latencyNanos(computed, p.completionTokens()), TimeUnit.NANOSECONDS);
    }

    /** Takes a free slot, or queues, or refuses, as configured. */
    private void admit(Pending p) throws IOException {
        boolean start = false, refuse = false;
        synchronized (this) {
            if (busy < settings.slots()) {
                account();
                busy++;
                peakBusy = Math.max(peakBusy, busy);
                start = true;
            } else if (settings.overflow() == SimulatorSettings.Overflow.QUEUE) {
                queue.addLast(p);
                peakQueued = Math.max(peakQueued, queue.size());
            } else {
                refuse = true;
            }
        }
        if (start) start(p);
        if (refuse) refuse(p);
    }

    private void refuse(Pending p) throws IOException {
        rejected.incrementAndGet();
        long waitSeconds = Math.max(1, (settings.latency().toMillis() + 999) / 1000);
        send(p.exchange(), 429, error("the server is busy: all " + settings.slots() + " slots are serving requests; retry later",
                "rate_limit_exceeded"), Long.toString(waitSeconds));
    }

    private void finish(Pending p, byte[] body, PrefixCache.Admission a) {
        if (a != null) cache.release(a);
        try {
            send(p.exchange(), 200, body, null);
            completed.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            // the client went away; the slot is free either way
        }
        Pending next;
        synchronized (this) {
            next = queue.pollFirst();
            if (next == null) {
                account();
                busy--;
            }
        }
        if (next != null) start(next);
    }

    /** Adds the busy time since the last change; call with the lock held, before busy changes. */
    private void account() {
        long now = System.nanoTime();
        busySlotNanos += busy * (now - lastChange);
        lastChange = now;
    }

    private void models(HttpExchange ex) throws IOException {
        send(ex, 200, ChatCompletionWriter.bytes(ChatCompletionReply.ModelList.of(List.of(settings.model()), SimulatedReply.FINGERPRINT)), null);
    }

    /** Counters since start; {@code busy_slot_seconds} integrates the busy slots over time. */
    public synchronized Map<String, Object> stats() {
        account();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("elapsed_seconds", (System.nanoTime() - startNanos) / 1e9);
        m.put("slots", settings.slots());
        m.put("latency_ms", settings.latency().toMillis());
        m.put("received", received.get());
        m.put("completed", completed.get());
        m.put("rejected", rejected.get());
        m.put("invalid", invalid.get());
        m.put("busy", busy);
        m.put("queued", queue.size());
        m.put("peak_busy", peakBusy);
        m.put("peak_queued", peakQueued);
        m.put("busy_slot_seconds", busySlotNanos / 1e9);
        m.put("token_requests", tokenRequests);
        m.put("prompt_tokens", promptTokens);
        m.put("cached_tokens", cachedTokens);
        m.put("computed_tokens", promptTokens - cachedTokens);
        m.put("computed_share", promptTokens == 0 ? null : (double) (promptTokens - cachedTokens) / promptTokens);
        m.put("prefix_cache", cache == null ? null : cache.stats());
        return m;
    }

    /** Zeroes the token counters of {@link #stats} (requests, prompt, cached and computed tokens); the cache keeps its blocks. */
    public synchronized void resetTokenCounters() {
        tokenRequests = 0;
        promptTokens = 0;
        cachedTokens = 0;
    }

    /** One line for the server's log: prompt tokens received, served from the cache and computed since the last reset. */
    public synchronized String tokenSummary() {
        if (cache == null) {
            return String.format(java.util.Locale.ROOT, "prefix cache off: %d requests, %d prompt tokens, all computed", tokenRequests, promptTokens);
        }
        return String.format(java.util.Locale.ROOT, "prefix cache (%d tokens, blocks of %d): %d requests, %d prompt tokens, %d cached, "
                        + "%d computed (%.1f%%)", settings.prefixCacheTokens(), settings.blockSize(), tokenRequests, promptTokens, cachedTokens,
                promptTokens - cachedTokens, promptTokens == 0 ? 0.0 : 100.0 * (promptTokens - cachedTokens) / promptTokens);
    }

    private static byte[] error(String message, String type) {
        return ChatCompletionWriter.bytes(ChatCompletionReply.ErrorReply.of(message, type, null));
    }

    private static void send(HttpExchange ex, int status, byte[] body, String retryAfter) throws IOException {
        try {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            if (retryAfter != null) ex.getResponseHeaders().set("Retry-After", retryAfter);
            ex.sendResponseHeaders(status, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } finally {
            ex.close();
        }
    }

    @Override public void close() {
        server.stop(0);
        timer.shutdownNow();
        handlers.shutdownNow();
    }
}
