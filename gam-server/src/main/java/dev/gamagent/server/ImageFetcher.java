package dev.gamagent.server;

import dev.gamagent.util.Concurrency;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches the remote images of requests (from hosts {@code server.allowed_image_hosts} allows) before their
 * questions take a slot, so a slow image host holds no slot: each fetch, connection to last byte, ends within
 * {@code server.image_fetch_timeout_s}; at most {@code server.image_fetches} run at once and
 * {@code server.image_fetches_per_host} against one host. Each image's bytes are counted in its request's memory
 * reservation as they arrive ({@link MemoryBudget}); one that does not fit ends the fetch with 503. Redirects are not
 * followed (an allowed host could point anywhere).
 */
final class ImageFetcher implements AutoCloseable {
    private final ServerSettings settings;
    private final int retryAfterSeconds;
    private final ExecutorService executor = Concurrency.newIoExecutor("gam-serve-image", 4);
    private final HttpClient client;
    private final Semaphore all;
    private final ConcurrentHashMap<String, Semaphore> perHost = new ConcurrentHashMap<>();

    ImageFetcher(ServerSettings settings, int retryAfterSeconds) {
        this.settings = settings;
        this.retryAfterSeconds = retryAfterSeconds;
        Duration t = settings.imageFetchTimeout();
        this.client = HttpClient.newBuilder().connectTimeout(t.compareTo(Duration.ofSeconds(10)) < 0 ? t : Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).executor(executor).build();
        this.all = new Semaphore(settings.imageFetches(), true);
    }

    /** The image at {@code url} (its host already allowed), counted in {@code memory}; failures are {@link ApiError}s naming the URL. */
    byte[] fetch(URI url, MemoryBudget.Reservation memory) {
        long deadline = System.nanoTime() + settings.imageFetchTimeout().toNanos();
        String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        Semaphore one = perHost.computeIfAbsent(host, h -> new Semaphore(settings.imageFetchesPerHost(), true));
        acquire(one, deadline, url, "image host '" + host + "' is already sending " + settings.imageFetchesPerHost()
                + " images (config server.image_fetches_per_host)");
        try {
            acquire(all, deadline, url, "the server is already fetching " + settings.imageFetches() + " images (config server.image_fetches)");
            try {
                return get(url, memory, deadline);
            } finally {
                all.release();
            }
        } finally {
            one.release();
        }
    }

    private void acquire(Semaphore s, long deadline, URI url, String why) {
        try {
            if (!s.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new ApiError(503, "server_error", "image_fetch_busy", "image URL " + url + ": " + why + " and none finished within "
                        + seconds(settings.imageFetchTimeout()) + "; retry in " + retryAfterSeconds + " s", retryAfterSeconds);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.badRequest("image_fetch_failed", "interrupted while fetching " + url);
        }
    }

    private byte[] get(URI url, MemoryBudget.Reservation memory, long deadline) {
        long left = deadline - System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofNanos(Math.max(1, left))).GET().build();
        int[] status = {0};
        CompletableFuture<HttpResponse<byte[]>> f = client.sendAsync(request, info -> {
            status[0] = info.statusCode();
            return info.statusCode() == 200 ? new Collect(url, memory) : HttpResponse.BodySubscribers.replacing(null);
        });
        try {
            HttpResponse<byte[]> r = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (r.statusCode() != 200) throw ApiError.badRequest("image_fetch_failed", "image URL " + url + " answered HTTP " + r.statusCode());
            return r.body();
        } catch (TimeoutException e) {
            f.cancel(true);
            throw timeout(url, status[0]);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw ApiError.badRequest("image_fetch_failed", "interrupted while fetching " + url);
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) c = c.getCause();
            if (c instanceof ApiError a) throw a;
            if (c.getCause() instanceof ApiError a) throw a;
            if (c instanceof HttpTimeoutException && !(c instanceof HttpConnectTimeoutException)) throw timeout(url, status[0]);
            throw ApiError.badRequest("image_fetch_failed", "cannot fetch image URL " + url + ": " + why(c, url));
        }
    }

    private ApiError timeout(URI url, int status) {
        return new ApiError(504, "server_error", "image_fetch_timeout", "image URL " + url + (status == 0 ? " did not answer" : " did not send the whole image")
                + " within " + seconds(settings.imageFetchTimeout()) + " (config server.image_fetch_timeout_s); send the image as a data URL");
    }

    /** A transport failure in words (the JDK's ConnectException has no message: "null" told the user nothing). */
    static String why(Throwable t, URI url) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof HttpConnectTimeoutException) return "its host did not accept a connection in time";
            if (c instanceof ConnectException) {
                return "its host refused the connection (nothing listens on " + url.getHost() + ":" + port(url) + ")";
            }
            if (c instanceof UnknownHostException) return "the host name '" + url.getHost() + "' does not resolve";
            if (c instanceof javax.net.ssl.SSLException) return "the TLS handshake failed (" + c.getMessage() + ")";
        }
        String m = t.getMessage();
        return t instanceof IOException && (m == null || m.isBlank()) ? "the connection failed (" + t.getClass().getSimpleName() + ")"
                : m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }

    private static int port(URI url) {
        return url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Collects a 200 body within the body limit and the budget, refusing as soon as either is passed. */
    private final class Collect implements HttpResponse.BodySubscriber<byte[]> {
        private final URI url;
        private final MemoryBudget.Reservation memory;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        Collect(URI url, MemoryBudget.Reservation memory) {
            this.url = url;
            this.memory = memory;
        }

        @Override public CompletionStage<byte[]> getBody() { return result; }

        @Override public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override public void onNext(List<ByteBuffer> items) {
            try {
                for (ByteBuffer b : items) {
                    int n = b.remaining();
                    if (out.size() + (long) n > settings.maxBodyBytes()) {
                        throw new ApiError(413, "invalid_request_error", "image_too_large", "image URL " + url
                                + " is larger than the body limit of " + settings.maxBodyBytes() + " bytes (config server.max_body_mb)");
                    }
                    memory.grow((long) n * RequestCost.FETCH_BYTES_PER_BYTE, "image URL " + url);
                    byte[] chunk = new byte[n];
                    b.get(chunk);
                    out.write(chunk, 0, n);
                }
            } catch (ApiError e) {
                subscription.cancel();
                result.completeExceptionally(e);
                return;
            }
            subscription.request(1);
        }

        @Override public void onError(Throwable t) { result.completeExceptionally(t); }

        @Override public void onComplete() { result.complete(out.toByteArray()); }
    }

    @Override public void close() { executor.shutdownNow(); }
}
