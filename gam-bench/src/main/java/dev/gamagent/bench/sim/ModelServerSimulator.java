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
 * benchmark computes utilisation over any window.
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

    // slot accounting, guarded by this
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private int busy;
    private int peakBusy;
    private int peakQueued;
    private long busySlotNanos;
    private long lastChange = System.nanoTime();

    /** A parsed request waiting for (or holding) a slot, with its answer ready to send. */
    private record Pending(HttpExchange exchange, byte[] body, long latencyNanos) { }

    public ModelServerSimulator(SimulatorSettings settings) throws IOException {
        this.settings = settings;
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
        byte[] body = SimulatedReply.body("chatcmpl-sim-" + ids.incrementAndGet(), r.model() == null ? settings.model() : r.model(),
                System.currentTimeMillis() / 1000, r, choices, prompt);
        admit(new Pending(ex, body, settings.latencyNanos(prompt, completionTokens)));
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
        if (start) timer.schedule(() -> finish(p), p.latencyNanos(), TimeUnit.NANOSECONDS);
        if (refuse) refuse(p);
    }

    private void refuse(Pending p) throws IOException {
        rejected.incrementAndGet();
        long waitSeconds = Math.max(1, (settings.latency().toMillis() + 999) / 1000);
        send(p.exchange(), 429, error("the server is busy: all " + settings.slots() + " slots are serving requests; retry later",
                "rate_limit_exceeded"), Long.toString(waitSeconds));
    }

    private void finish(Pending p) {
        try {
            send(p.exchange(), 200, p.body(), null);
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
        if (next != null) {
            Pending n = next;
            timer.schedule(() -> finish(n), n.latencyNanos(), TimeUnit.NANOSECONDS);
        }
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
        return m;
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
