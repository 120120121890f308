package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends JSON over {@link HttpClient} and turns every failure into a typed {@link BackendException}.
 * The timeout covers the whole exchange (headers and body), not only the wait for headers, so a server
 * that stalls mid-body still times out. A reply body is read up to a size cap and refused past it (cut off
 * unread), so a server that streams without end costs the cap, not the heap. Header values (API keys) never
 * appear in messages.
 */
public final class HttpTransport {
    private static final int MAX_BODY_IN_MESSAGE = 500;

    // Python servers write -Infinity / NaN for impossible tokens; accept them rather than fail the call.
    // Log-probs are most of a reply's numbers: the fast double parser reads them at a fraction of the cost.
    private static final com.fasterxml.jackson.databind.ObjectReader LENIENT =
            Json.MAPPER.reader().with(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .with(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER);

    private final HttpClient client;
    private final Duration timeout;
    private final SecretScrubber scrubber;
    private final long maxReplyBytes;

    public HttpTransport(Duration timeout) { this(timeout, SecretScrubber.NONE); }

    /** @param scrubber removes the endpoint's key from every body received, before it is parsed or quoted in an error */
    public HttpTransport(Duration timeout, SecretScrubber scrubber) {
        this(timeout, scrubber, dev.gamagent.backend.internal.EndpointSettings.DEFAULT_MAX_REPLY_BYTES);
    }

    /** @param maxReplyBytes the largest reply body read; a larger one is cut off and refused ({@link BackendException.ReplyTooLarge}) */
    public HttpTransport(Duration timeout, SecretScrubber scrubber, long maxReplyBytes) {
        this.timeout = timeout;
        this.scrubber = scrubber;
        this.maxReplyBytes = maxReplyBytes;
        // built here, before any question starts: the JDK builds its TLS context even for plain http, and a client built
        // lazily would make the first request of the first question wait for it
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                // the client's own tasks (handing over response bodies) are short: virtual threads on 21+, else a few
                // threads, instead of the default cached pool that grows a thread per request in flight
                .executor(Concurrency.newIoExecutor("gam-http", 4))
                .build();
    }

    public Duration timeout() { return timeout; }

    /**
     * Stops the client's connections and its selector thread (Java 21+; on 17 the client has no such call and its
     * thread ends when the client is collected). A selector thread waiting in the kernel held the JVM's exit for 0.3 s:
     * the VM waits that long for threads in native code before it gives up on them.
     */
    public void close() {
        try {
            HttpClient.class.getMethod("shutdownNow").invoke(client);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Java 17, or already closed: nothing to stop
        }
    }

    /** A 2xx answer's body parsed as JSON. */
    public record JsonResponse(int status, JsonNode body, String raw) { }

    /** A 2xx answer's body read by a {@link ReplyReader}: what it read, and the body's (scrubbed) text. */
    public record Reply<T>(int status, T value, String raw) { }

    /** Reads a reply body from a parser at its start (the transport's lenient one); null for an empty body. */
    @FunctionalInterface
    public interface ReplyReader<T> {
        T read(com.fasterxml.jackson.core.JsonParser parser) throws IOException;
    }

    /** POSTs {@code body} as JSON and parses the 2xx answer; anything else becomes a typed exception. */
    public JsonResponse postJson(URI uri, Object body, Map<String, String> headers) {
        String json = Json.write(body);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        return send(b, headers, uri);
    }

    /** POSTs {@code body} with its images spliced in as bytes (see {@link RequestBody}). */
    public JsonResponse postJson(URI uri, JsonNode body, RequestBody images, Map<String, String> headers) {
        Reply<JsonNode> r = postJson(uri, body, images, headers, TREE);
        return new JsonResponse(r.status(), r.value(), r.raw());
    }

    /** The same, the answer read by {@code reader} from the body's text (streamed, no tree unless it builds one). */
    public <T> Reply<T> postJson(URI uri, JsonNode body, RequestBody images, Map<String, String> headers, ReplyReader<T> reader) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(images.publisher(body));
        return send(b, headers, uri, reader);
    }

    /** GETs a JSON document (model discovery). */
    public JsonResponse getJson(URI uri, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET(), headers, uri);
    }

    private JsonResponse send(HttpRequest.Builder b, Map<String, String> headers, URI uri) {
        Reply<JsonNode> r = send(b, headers, uri, TREE);
        return new JsonResponse(r.status(), r.value(), r.raw());
    }

    private <T> Reply<T> send(HttpRequest.Builder b, Map<String, String> headers, URI uri, ReplyReader<T> reader) {
        // Plain-http servers (vLLM, llama.cpp, Ollama) speak HTTP/1.1; skip the h2c upgrade dance.
        if ("http".equalsIgnoreCase(uri.getScheme())) b.version(HttpClient.Version.HTTP_1_1);
        headers.forEach(b::header);
        String where = redact(uri);
        CompletableFuture<HttpResponse<String>> f = client.sendAsync(b.build(), capped(maxReplyBytes));
        HttpResponse<String> resp;
        try {
            resp = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new BackendException.Timeout("no complete answer from " + where + " within " + seconds(timeout)
                    + "; raise --timeout or check the server's load", e);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new BackendException.ConnectionFailed("interrupted while waiting for " + where, e);
        } catch (CancellationException e) {
            throw new BackendException.ConnectionFailed("request to " + where + " was cancelled", e);
        } catch (ExecutionException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof ReplyCutOff cut) throw tooLarge(where, cut);
            }
            throw transportFailure(where, e.getCause() == null ? e : e.getCause(), timeout);
        }
        int status = resp.statusCode();
        String raw = scrubber.scrub(resp.body() == null ? "" : resp.body());
        if (status / 100 != 2) throw statusFailure(where, status, raw, resp.headers().firstValue("Retry-After"));
        return read(status, raw, where, reader);
    }

    private BackendException tooLarge(String where, ReplyCutOff cut) {
        return new BackendException.ReplyTooLarge(where + " sent a reply " + (cut.declared ? "declared as " + mb(cut.bytes) : "of more than "
                + mb(maxReplyBytes) + " (cut off there)") + ", past the limit of " + mb(maxReplyBytes)
                + " (config backend.max_reply_mb): a server streaming without end, or raise the limit", maxReplyBytes);
    }

    private static String mb(long bytes) { return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024)); }

    /** The reply passed the cap: how many bytes were received (or declared by Content-Length). */
    static final class ReplyCutOff extends IOException {
        final long bytes;
        final boolean declared;

        ReplyCutOff(long bytes, boolean declared) {
            super("reply larger than the cap (" + bytes + " bytes" + (declared ? " declared" : " received") + ")");
            this.bytes = bytes;
            this.declared = declared;
        }
    }

    /** Reads a reply body as UTF-8 text up to {@code max} bytes; past that the exchange is cancelled and fails with {@link ReplyCutOff}. */
    static HttpResponse.BodyHandler<String> capped(long max) {
        return info -> new CappedBody(max, info.headers().firstValueAsLong("Content-Length").orElse(-1L));
    }

    private static final class CappedBody implements HttpResponse.BodySubscriber<String> {
        private final CompletableFuture<String> result = new CompletableFuture<>();
        private final long max;
        private final long declared;
        private java.io.ByteArrayOutputStream bytes;
        private java.util.concurrent.Flow.Subscription subscription;
        private long received;

        CappedBody(long max, long declared) {
            this.max = max;
            this.declared = declared;
        }

        @Override public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            if (declared > max) {
                s.cancel();
                result.completeExceptionally(new ReplyCutOff(declared, true));
                return;
            }
            bytes = new java.io.ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
            s.request(Long.MAX_VALUE);
        }

        @Override public void onNext(java.util.List<java.nio.ByteBuffer> items) {
            if (result.isDone()) return;
            for (java.nio.ByteBuffer b : items) {
                received += b.remaining();
                if (received > max) {
                    subscription.cancel();
                    bytes = null;
                    result.completeExceptionally(new ReplyCutOff(received, false));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
        }

        @Override public void onError(Throwable t) { result.completeExceptionally(t); }

        @Override public void onComplete() {
            if (!result.isDone()) result.complete(bytes.toString(StandardCharsets.UTF_8));
        }

        @Override public java.util.concurrent.CompletionStage<String> getBody() { return result; }
    }

    /**
     * A 2xx body read as JSON (leniently: NaN and Infinity accepted), or the typed error for one that is not. The
     * log-prob entries' {@code bytes} arrays are streamed past, not built into the tree ({@link ReplyTree}).
     */
    public static JsonResponse body(int status, String raw, String where) {
        Reply<JsonNode> r = read(status, raw, where, TREE);
        return new JsonResponse(r.status(), r.value(), r.raw());
    }

    /** The tree of a reply, its log-prob entries' {@code bytes} left out ({@link ReplyTree}); null or missing when empty. */
    private static final ReplyReader<JsonNode> TREE = p -> ReplyTree.read(LENIENT, p);

    /**
     * A 2xx body read by {@code reader} from the lenient parser (NaN and Infinity accepted), or the typed error for a
     * body that is empty or not JSON: one place for every way of reading a reply, tree or stream.
     */
    public static <T> Reply<T> read(int status, String raw, String where, ReplyReader<T> reader) {
        try (com.fasterxml.jackson.core.JsonParser p = LENIENT.createParser(raw)) {
            T value = reader.read(p);
            if (value == null || value instanceof JsonNode n && n.isMissingNode()) {
                throw new BackendException.MalformedResponse(where + " answered " + status + " with an empty body", null);
            }
            return new Reply<>(status, value, raw);
        } catch (JsonProcessingException e) {
            JsonProcessingException named = e;
            try {
                LENIENT.readTree(raw); // a value skipped fails in other words than one built: the error is named as the whole tree's
            } catch (JsonProcessingException whole) {
                named = whole;
            } catch (IOException unreachable) {
                // a string in memory
            }
            throw new BackendException.MalformedResponse(where + " answered " + status + " with a body that is not JSON ("
                    + named.getOriginalMessage() + "): " + abbreviate(raw), named);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a string in memory: no I/O can fail
        }
    }

    static BackendException transportFailure(String where, Throwable t, Duration timeout) {
        if (t instanceof HttpTimeoutException) {
            // the client's own deadline fired before ours: the same failure, said the same way
            return new BackendException.Timeout("no complete answer from " + where + " within " + seconds(timeout)
                    + "; raise --timeout or check the server's load", t);
        }
        if (t instanceof ConnectException || (t.getCause() instanceof ConnectException)) {
            return new BackendException.ConnectionFailed("cannot connect to " + where
                    + " (is the server running and the --base-url right?)", t);
        }
        if (t instanceof IOException) {
            // Connection reset, closed mid-body, fewer bytes than Content-Length: no complete answer.
            return new BackendException.ConnectionFailed("connection to " + where + " failed before a complete answer: "
                    + t.getMessage(), t);
        }
        return new BackendException.ConnectionFailed("request to " + where + " failed: " + t, t);
    }

    /** Maps a non-2xx status to its typed exception (408/409/429 rate limited, 5xx unavailable, 401/403, else invalid). */
    public static BackendException statusFailure(String where, int status, String body, Optional<String> retryAfterHeader) {
        Duration retryAfter = retryAfterHeader.map(HttpTransport::parseRetryAfter).orElse(null);
        String detail = where + " answered HTTP " + status + ": " + abbreviate(body);
        if (status == 408 || status == 409 || status == 429) return new BackendException.RateLimited(detail, status, retryAfter);
        if (status >= 500) return new BackendException.ServerUnavailable(detail, status, retryAfter);
        if (status == 401 || status == 403) {
            return new BackendException.Unauthorized(where + " refused the credentials (HTTP " + status
                    + "); check the API key environment variable (--api-key-env)", status);
        }
        return new BackendException.InvalidRequest(detail, status, body);
    }

    /** Retry-After as delta-seconds or an HTTP date; null when unparseable. */
    public static Duration parseRetryAfter(String value) {
        if (value == null || value.isBlank()) return null;
        String v = value.strip();
        try {
            double s = Double.parseDouble(v);
            return s < 0 ? Duration.ZERO : Duration.ofMillis((long) (s * 1000));
        } catch (NumberFormatException ignored) {
            // not seconds: try an HTTP date
        }
        try {
            ZonedDateTime when = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration d = Duration.between(ZonedDateTime.now(when.getZone()), when);
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The URI without query (Gemini-style {@code ?key=}) or user info, for messages and logs. */
    public static String redact(URI uri) {
        String s = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
        return s + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    public static String abbreviate(String body) {
        if (body == null) return "";
        String b = body.replaceAll("\\s+", " ").strip();
        return b.length() <= MAX_BODY_IN_MESSAGE ? b : b.substring(0, MAX_BODY_IN_MESSAGE) + "...";
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
