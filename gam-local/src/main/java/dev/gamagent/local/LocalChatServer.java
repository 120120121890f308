package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.openai.ChatCompletionReader;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionRequest;
import dev.gamagent.backend.openai.ChatCompletionWriter;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.ImageTooLargeException;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OpenAI-compatible {@code /v1/chat/completions} and {@code /v1/models} endpoint over a backend
 * (the local model, so the HTTP backends can be exercised end to end offline). Images must be base64
 * data URLs; log-probs come back in OpenAI's {@code choices[].logprobs.content} shape, or never (as a server
 * with log-probs switched off: {@code "logprobs": null} whatever was asked); {@code "stream": true} is answered with
 * server-sent chunks. Binds 127.0.0.1.
 * Bodies are capped, every image header is checked (per image and per request) before anything is
 * decoded, decodes share one budget, and images are downscaled to what the backend accepts.
 */
public final class LocalChatServer implements AutoCloseable {
    /** A request body larger than this is refused unread (413). */
    public static final long MAX_BODY_BYTES = 64L * 1024 * 1024;
    /** One image's header pixels, and all images of one request together. */
    public static final long MAX_IMAGE_PIXELS = 40_000_000L, MAX_REQUEST_PIXELS = 100_000_000L;

    private final Backend backend;
    private final String model;
    private final HttpServer server;
    private final ExecutorService pool;
    private final AtomicLong ids = new AtomicLong();
    private final ImageLoader images;
    private final boolean logprobs;

    public LocalChatServer(Backend backend, String model, int port, int threads) throws IOException {
        this(backend, model, port, threads, true);
    }

    /** @param logprobs false to answer like a server without log-probs: the field is accepted and null comes back */
    public LocalChatServer(Backend backend, String model, int port, int threads, boolean logprobs) throws IOException {
        this.backend = backend;
        this.logprobs = logprobs;
        this.model = model;
        long keep = backend.capabilities().maxImagePixels();
        this.images = new ImageLoader(MAX_IMAGE_PIXELS, "the local server's limit").withBudget(DecodeBudget.megapixels(0))
                .keepingAtMost(keep);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        this.pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "local-chat-server");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/v1/chat/completions", this::completions);
        server.createContext("/v1/models", this::models);
    }

    public LocalChatServer start() {
        server.start();
        return this;
    }

    public int port() { return server.getAddress().getPort(); }

    public String baseUrl() { return "http://127.0.0.1:" + port() + "/v1"; }

    @Override public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void models(HttpExchange ex) throws IOException {
        send(ex, 200, ChatCompletionReply.ModelList.of(List.of(model), "gam-agent"));
    }

    private void completions(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"POST".equalsIgnoreCase(ex.getRequestMethod())) {
                send(ex, 405, error("use POST for /v1/chat/completions", "invalid_request_error"));
                return;
            }
            byte[] raw;
            try (InputStream in = ex.getRequestBody()) {
                raw = in.readNBytes((int) MAX_BODY_BYTES + 1);
            }
            if (raw.length > MAX_BODY_BYTES) {
                send(ex, 413, error("the request body is larger than " + MAX_BODY_BYTES / (1024 * 1024) + " MB", "invalid_request_error"));
                return;
            }
            ChatCompletionRequest body;
            ChatRequest req;
            try {
                body = ChatCompletionReader.read(raw);
                req = request(body);
            } catch (IllegalArgumentException e) {
                send(ex, 413 == tooLargeStatus(e) ? 413 : 400, error(e.getMessage(), "invalid_request_error"));
                return;
            }
            ChatCompletionReply.Completion answer;
            try {
                answer = response(backend.chat(req), req);
            } catch (BackendException.InvalidRequest e) {
                send(ex, 400, error(e.getMessage(), "invalid_request_error"));
                return;
            } catch (RuntimeException e) {
                send(ex, 500, error("the model failed: " + e.getMessage(), "server_error"));
                return;
            }
            if (body.stream()) sendEvents(ex, answer);
            else send(ex, 200, answer);
        }
    }

    /** Too many pixels in one request: 413 rather than 400. */
    private static final class TooManyPixels extends IllegalArgumentException {
        TooManyPixels(String message) { super(message); }
    }

    private static int tooLargeStatus(IllegalArgumentException e) { return e instanceof TooManyPixels ? 413 : 400; }

    /**
     * The body read by the shared reader ({@link ChatCompletionReader}), then this server's policy: base64 data URLs only,
     * every image's header checked (per image and per request) before any is decoded, system, user and assistant turns
     * ({@code developer} is system), at most {@link LocalBackend#MAX_TOP_LOGPROBS} alternatives, and OpenAI's defaults
     * (temperature 1, {@code max_tokens} 512).
     */
    ChatRequest request(byte[] raw) { return request(ChatCompletionReader.read(raw)); }

    private ChatRequest request(ChatCompletionRequest body) {
        int top = body.topLogprobs();
        if (top > LocalBackend.MAX_TOP_LOGPROBS) {
            throw new IllegalArgumentException("top_logprobs must be between 0 and " + LocalBackend.MAX_TOP_LOGPROBS + ", got " + top);
        }
        List<ChatMessage.Role> roles = new ArrayList<>();
        for (int i = 0; i < body.messages().size(); i++) roles.add(role(body.messages().get(i).role(), i));
        // every image's header first: the request's total is known before any pixel is decoded
        long total = 0;
        List<byte[]> encoded = new ArrayList<>(); // each image part's bytes, in order
        for (int i = 0; i < body.messages().size(); i++) {
            List<ChatCompletionRequest.Part> content = body.messages().get(i).content();
            for (int j = 0; j < content.size(); j++) {
                if (!(content.get(j) instanceof ChatCompletionRequest.ImageUrl u)) continue;
                String where = "messages[" + i + "].content[" + j + "]";
                byte[] bytes = bytes(u.url(), where);
                encoded.add(bytes);
                try {
                    total += images.inspect(where, bytes).pixels();
                } catch (ImageTooLargeException e) {
                    throw new TooManyPixels(e.getMessage());
                } catch (ImageException e) {
                    throw new IllegalArgumentException(e.getMessage());
                }
                if (total > MAX_REQUEST_PIXELS) {
                    throw new TooManyPixels(where + ": the request's images hold more than " + MAX_REQUEST_PIXELS / 1_000_000
                            + " megapixels together; send fewer or smaller images");
                }
            }
        }
        List<ChatMessage> messages = new ArrayList<>();
        int k = 0;
        for (int i = 0; i < body.messages().size(); i++) {
            List<ChatMessage.Part> parts = new ArrayList<>();
            List<ChatCompletionRequest.Part> content = body.messages().get(i).content();
            for (int j = 0; j < content.size(); j++) {
                if (content.get(j) instanceof ChatCompletionRequest.Text t) parts.add(new ChatMessage.Text(t.text()));
                else if (content.get(j) instanceof ChatCompletionRequest.ImageUrl u) {
                    parts.add(new ChatMessage.Image(image(encoded.get(k++), "messages[" + i + "].content[" + j + "]"), u.detail()));
                }
            }
            messages.add(new ChatMessage(roles.get(i), parts));
        }
        JsonNode schema = null;
        String schemaName = null;
        if (body.response() != null && body.response().jsonSchema()) {
            schema = body.response().schema() == null ? Json.MAPPER.createObjectNode() : body.response().schema();
            schemaName = body.response().name() == null ? "response" : body.response().name();
        }
        return new ChatRequest(messages, body.temperature() == null ? 1.0 : body.temperature(),
                body.maxTokens() == null ? 512 : body.maxTokens(), body.n(), body.seed(), logprobs && body.logprobs(), top, schema, schemaName);
    }

    private static ChatMessage.Role role(ChatCompletionRequest.Role role, int i) {
        return switch (role) {
            case SYSTEM, DEVELOPER -> ChatMessage.Role.SYSTEM;
            case USER -> ChatMessage.Role.USER;
            case ASSISTANT -> ChatMessage.Role.ASSISTANT;
            default -> throw new IllegalArgumentException("messages[" + i + "].role '" + role.wire() + "' is not system, user or assistant");
        };
    }

    private static byte[] bytes(String url, String where) {
        int comma = url.indexOf(',');
        if (!url.startsWith("data:") || comma < 0 || !url.substring(0, comma).endsWith(";base64")) {
            throw new IllegalArgumentException(where + ": only base64 data URLs (data:image/png;base64,...) are accepted");
        }
        try {
            return ImageLoader.dataUrlBytes(where, url);
        } catch (ImageException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** Decodes within the shared budget and downscales to what the backend accepts; the header was checked already. */
    private Picture image(byte[] bytes, String where) {
        try {
            return images.bytes(where, bytes);
        } catch (ImageTooLargeException e) {
            throw new TooManyPixels(e.getMessage());
        } catch (ImageException e) {
            throw new IllegalArgumentException(where + ": the image cannot be decoded (" + e.getMessage() + ")");
        }
    }

    ChatCompletionReply.Completion response(ChatResult r, ChatRequest req) {
        List<ChatCompletionReply.CompletionChoice> choices = new ArrayList<>();
        for (Choice c : r.choices()) choices.add(ChatCompletionReply.CompletionChoice.of(choices.size(), c, req.logprobs()));
        return new ChatCompletionReply.Completion("chatcmpl-" + ids.incrementAndGet(), System.currentTimeMillis() / 1000, model, null, choices,
                ChatCompletionReply.TokenUsage.of(r.usage().promptTokens(), r.usage().completionTokens()), null);
    }

    private static ChatCompletionReply.ErrorReply error(String message, String type) {
        return ChatCompletionReply.ErrorReply.of(message, type, null);
    }

    /**
     * A whole answer as {@code "stream": true} asks for it: server-sent {@code chat.completion.chunk} events, for each
     * choice one whose {@code delta} holds the role and the whole text (and the choice's {@code logprobs}) and one with
     * an empty delta and the finish reason, then {@code data: [DONE]}. The model answers in one piece, so the text is one
     * delta; no usage chunk is sent ({@code stream_options} is not read).
     */
    private static void sendEvents(HttpExchange ex, ChatCompletionReply.Completion answer) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            for (ChatCompletionReply.CompletionChoice c : answer.choices()) {
                event(out, ChatCompletionReply.Chunk.of(answer.id(), answer.created(), answer.model(), new ChatCompletionReply.ChunkChoice(c.index(),
                        ChatCompletionReply.Delta.first(c.message().content()), c.logprobs(), null)));
                event(out, ChatCompletionReply.Chunk.of(answer.id(), answer.created(), answer.model(), new ChatCompletionReply.ChunkChoice(c.index(),
                        ChatCompletionReply.Delta.none(), null, c.finishReason())));
            }
            out.write(ChatCompletionWriter.DONE.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void event(OutputStream out, ChatCompletionReply.Chunk chunk) throws IOException {
        out.write(ChatCompletionWriter.event(chunk));
        out.flush();
    }

    private static void send(HttpExchange ex, int status, Object reply) throws IOException {
        byte[] bytes = ChatCompletionWriter.bytes(reply);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
