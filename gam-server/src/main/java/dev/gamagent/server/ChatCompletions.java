package dev.gamagent.server;

import dev.gamagent.Gam;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import dev.gamagent.config.Config;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.uncertainty.UncertaintyFallback;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import org.slf4j.Logger;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code POST /v1/chat/completions}: a question read, its images fetched, a slot taken, the method run and its
 * answer sent whole or streamed as server-sent events (with the method's progress), its trace stored.
 */
final class ChatCompletions implements AutoCloseable {
    /** The server's logger: its lines keep the name they had before this class was split out of the server. */
    private final Logger log;

    private final ServerSettings settings;
    private final Backend backend;
    private final NamedBackends backends;
    private final Config config;
    private final MethodCatalog catalog;
    private final SecretScrubber secrets;
    private final ServerMetrics metrics;
    private final TraceStore traces;
    private final Replies replies;
    private final QuestionQueue questions;
    private final MemoryBudget memory;
    private final int retryAfterSeconds;
    private final ExecutorService agentExecutor;
    private final ImageFetcher fetcher;
    private final ImageLoader images;
    private final SecureRandom random = new SecureRandom();
    /** Whether the semantic-fallback notice was logged: once per server, not once per request. */
    private final AtomicBoolean semanticNoticed = new AtomicBoolean();

    ChatCompletions(ServerSettings settings, NamedBackends backends, Config config, MethodCatalog catalog, SecretScrubber secrets,
                    ServerMetrics metrics, TraceStore traces, Replies replies, int retryAfterSeconds, Logger log) {
        this.log = log;
        this.settings = settings;
        this.backends = backends;
        this.backend = backends.defaultBackend();
        this.config = config;
        this.catalog = catalog;
        this.secrets = secrets;
        this.metrics = metrics;
        this.traces = traces;
        this.replies = replies;
        this.questions = new QuestionQueue(settings.maxInFlight(), settings.maxQueued(), settings.queueTimeout(), retryAfterSeconds);
        this.memory = new MemoryBudget(settings.requestMemoryBytes(), Runtime.getRuntime().maxMemory(), settings.queueTimeout(),
                settings.maxQueued(), retryAfterSeconds);
        this.retryAfterSeconds = retryAfterSeconds;
        metrics.memoryFrom(memory);
        metrics.waitingFrom(questions::waiting);
        this.agentExecutor = Concurrency.newIoExecutor("gam-serve-agent");
        this.fetcher = new ImageFetcher(settings, retryAfterSeconds);
        // decode within one budget for the server, keep each image at most as large as the backend can use
        this.images = new ImageLoader(settings.maxImagePixels(), "server.max_image_megapixels")
                .withBudget(settings.decodeBudgetPixels() > 0 ? new DecodeBudget(settings.decodeBudgetPixels()) : DecodeBudget.megapixels(0))
                .keepingAtMost(backends.entries().isEmpty() ? backend.capabilities().maxImagePixels()
                        : Math.max(backend.capabilities().maxImagePixels(), dev.gamagent.backend.Capabilities.DEFAULT_MAX_PIXELS));
    }

    /**
     * A question: its body read within the memory budget, then read and checked, its remote images fetched (within
     * their own limits, holding no slot), their cost reserved, then it takes one of the {@code server.max_in_flight}
     * slots, waiting in line when all are busy; only then are its images decoded and the method run.
     */
    int handle(Exchange ex) throws IOException {
        long deadline = System.nanoTime() + settings.queueTimeout().toNanos();
        try (MemoryBudget.Reservation memory = this.memory.reservation()) {
            byte[] body;
            try {
                body = RequestBody.read(ex, settings, memory, deadline);
            } catch (ApiError e) {
                log.info("chat.completions status={} before its body was read ({}: {})", e.status(), e.code(), e.getMessage());
                throw e;
            }
            long t0 = System.nanoTime();
            String methodName = "unknown";
            int status = 500;
            String why = null;
            metrics.questionStarted();
            try {
                CompletionRequest.Read read = CompletionRequest.read(body, settings, url -> fetcher.fetch(url, memory));
                body = null; // parsed: from here on the request holds its images, not its body
                Method method;
                try {
                    method = catalog.create(read.model());
                } catch (IllegalArgumentException e) {
                    throw new ApiError(404, "invalid_request_error", "model_not_found", "unknown model '" + read.model()
                            + "': the model names the method; known: " + String.join(", ", catalog.names()));
                }
                methodName = method.name();
                memory.settle(RequestCost.images(read.images(), images), "this request's images", deadline);
                QuestionQueue.Slot slot = questions.take(ex::clientGone);
                if (slot == null) {
                    status = 499; // nginx's "client closed request": nobody is there to answer
                    log.info("chat.completions method={}: the client went away while waiting for a slot", methodName);
                    return status;
                }
                // The slot frees as soon as the answer exists, before it is written, so a client that got its
                // answer can ask again at once.
                Runnable freeSlot = slot::close;
                try {
                    CompletionRequest req = read.decode(images);
                    read = null; // decoded: the pictures hold what the method needs
                    status = req.stream() ? stream(ex, req, method, freeSlot) : answer(ex, req, method, freeSlot);
                    return status;
                } finally {
                    freeSlot.run();
                }
            } catch (ApiError e) {
                status = e.status();
                why = e.code() + ": " + e.getMessage();
                throw e;
            } catch (OutOfMemoryError e) {
                ApiError oom = ApiError.outOfMemory(retryAfterSeconds);
                status = oom.status();
                why = oom.code() + ": " + oom.getMessage();
                throw oom;
            } finally {
                metrics.questionFinished(methodName, backend.name(), status, (System.nanoTime() - t0) / 1e9);
                log.info("chat.completions method={} status={} in {} ms{}", methodName, status, (System.nanoTime() - t0) / 1_000_000,
                        why == null ? "" : " (" + secrets.scrub(why) + ")");
            }
        }
    }

    private int answer(Exchange ex, CompletionRequest req, Method method, Runnable freeSlot) throws IOException {
        String traceId = newTraceId();
        ClientWatch watch = new ClientWatch(ex::clientGone, () -> false);
        Answer a;
        try {
            a = run(req, method, traceId, ProgressListener.NONE, watch, traceContext(ex));
        } catch (ApiError e) {
            if (watch.left(true)) return left(method, watch);
            throw e;
        }
        freeSlot.run();
        if (watch.left(true)) return left(method, watch);
        ReplyParameters.Reply reply = req.reply().reply(a);
        return replies.json(ex, 200, ChatCompletionWriter.tree(new ChatCompletionReply.Completion("chatcmpl-" + traceId,
                System.currentTimeMillis() / 1000, method.name(), null,
                List.of(new ChatCompletionReply.CompletionChoice(0, new ChatCompletionReply.Message(reply.content()), null, reply.finishReason())),
                usage(a), gamAnswer(a, traceId, backend.name()))));
    }

    private static ChatCompletionReply.TokenUsage usage(Answer a) {
        ChatCompletionReply.TokenUsage u = ChatCompletionReply.TokenUsage.of(a.tokens().prompt(), a.tokens().completion());
        // the cached count is passed on only when the servers behind the method reported it
        return a.tokens().cached() == null ? u : u.withCachedTokens(a.tokens().cached());
    }

    /**
     * Our {@code gam} object of a reply: the answer as {@code gam ask --json} gives it (where a reply without an answer
     * says {@code "answer": null}; its content says so in words, {@link ReplyParameters#NO_ANSWER}), with the backend and
     * the trace's id.
     */
    static ObjectNode gamAnswer(Answer a, String traceId, String backendName) {
        ObjectNode g = AnswerJson.of(a, false);
        g.put("backend", backendName);
        g.put("trace_id", traceId);
        return g;
    }

    /** A chunk of this stream's one choice: a piece of the message and, on the last one, why it ended. */
    private static ChatCompletionReply.Chunk chunk(String id, long created, String model, ChatCompletionReply.Delta delta, String finish) {
        return ChatCompletionReply.Chunk.of(id, created, model, new ChatCompletionReply.ChunkChoice(0, delta, null, finish));
    }

    private int stream(Exchange ex, CompletionRequest req, Method method, Runnable freeSlot) throws IOException {
        String traceId = newTraceId();
        String id = "chatcmpl-" + traceId;
        long created = System.currentTimeMillis() / 1000;
        ex.setHeader("Content-Type", "text/event-stream; charset=utf-8");
        ex.setHeader("Cache-Control", "no-cache");
        ex.sendHeaders(200, 0);
        EventStream sse = new EventStream(ex.output(), secrets);
        ClientWatch watch = new ClientWatch(ex::clientGone, sse::broken);
        sse.send(ChatCompletionWriter.tree(chunk(id, created, method.name(), ChatCompletionReply.Delta.first(""), null)));
        ProgressListener progress = event -> {
            ObjectNode ev = Json.MAPPER.createObjectNode();
            ev.put("type", event.type());
            ev.set("data", eventData(event.data()));
            sse.send(ChatCompletionWriter.tree(chunk(id, created, method.name(), ChatCompletionReply.Delta.text(""), null).withEvent(ev)));
        };
        try {
            Answer a = run(req, method, traceId, progress, watch, traceContext(ex));
            freeSlot.run();
            if (watch.left(true)) return left(method, watch);
            ReplyParameters.Reply reply = req.reply().reply(a);
            // the same content and finish reason as a whole reply, in one chunk
            sse.send(ChatCompletionWriter.tree(chunk(id, created, method.name(), ChatCompletionReply.Delta.text(reply.content()), null)));
            sse.send(ChatCompletionWriter.tree(chunk(id, created, method.name(), ChatCompletionReply.Delta.none(), reply.finishReason())
                    .withUsage(usage(a), gamAnswer(a, traceId, backend.name()))));
        } catch (RuntimeException | OutOfMemoryError e) {
            if (watch.left(true)) return left(method, watch);
            // Headers are gone: the error travels as an event, as OpenAI's streaming API does.
            ApiError ae = e instanceof ApiError a ? a : e instanceof OutOfMemoryError ? ApiError.outOfMemory(retryAfterSeconds)
                    : new ApiError(500, "server_error", "internal_error", "internal error: " + e.getMessage());
            log.info("chat.completions method={}: the stream ends with an error event ({}: {})", method.name(), ae.code(), secrets.scrub(ae.getMessage()));
            sse.send(ChatCompletionWriter.tree(replies.errorReply(ae)));
            sse.done();
            return ae.status();
        }
        sse.done();
        return 200;
    }

    /** A question whose client left while its method ran: logged as such, with the calls it did not make (status 499). */
    private int left(Method method, ClientWatch watch) {
        log.info("chat.completions method={}: the client went away mid-debate; {} backend calls made, {} not made",
                method.name(), watch.made(), watch.notMade());
        return 499; // nginx's "client closed request"
    }

    /** The request's W3C trace context, which the question's spans continue (docs/observability.md). */
    private static Map<String, String> traceContext(Exchange ex) {
        Map<String, String> out = new java.util.HashMap<>();
        for (String h : List.of("traceparent", "tracestate")) {
            String v = ex.header(h);
            if (v != null) out.put(h, v);
        }
        return out;
    }

    /** Runs the method on backends that make no call once the client has left ({@link ClientWatch}). */
    private Answer run(CompletionRequest req, Method method, String traceId, ProgressListener progress, ClientWatch watch,
                       Map<String, String> traceContext) {
        Gam.Session session = Gam.session(watch.guard(backend), watch.guard(backends), config, agentExecutor).continuing(traceContext);
        Answer a;
        try {
            // the trace names the question by this request's id (the response's chatcmpl-<id>, the trace's id), not "request"
            Question q = req.question();
            a = session.ask(method, q.withId(traceId), progress, null);
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
            log.warn(UncertaintyFallback.semanticNotice(method.name()));
        }
        return a;
    }

    private void store(String traceId, String method, CompletionRequest req, Trace trace) {
        byte[] png = null;
        List<Picture> pictures = req.question().images();
        if (pictures.size() > 1) {
            // a video's frames (or several images): side by side, which the viewer shows as a strip of frames in time order
            png = new Picture("frames", dev.gamagent.image.internal.FrameStrip.of(pictures)).png();
        } else if (!pictures.isEmpty()) {
            png = pictures.get(0).scaled(1.0, 1_000_000).png(); // enough for the viewer; keeps the database small
        }
        // the whole trace as JSON, scrubbed string by string: whatever a trace records (prompts too) inherits it
        traces.save(traceId, method, secrets.scrub(req.question().text()), Json.write(secrets.scrub(Json.MAPPER.valueToTree(trace))), png);
    }

    private JsonNode eventData(Map<String, Object> data) {
        try {
            return secrets.scrub(Json.MAPPER.valueToTree(data == null ? Map.of() : data));
        } catch (RuntimeException e) {
            return Json.MAPPER.getNodeFactory().textNode(secrets.scrub(String.valueOf(data)));
        }
    }

    private String newTraceId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return "tr-" + HexFormat.of().formatHex(b);
    }

    /** Stops the agents' threads and the image fetcher. */
    @Override public void close() {
        agentExecutor.shutdownNow();
        fetcher.close();
    }
}
