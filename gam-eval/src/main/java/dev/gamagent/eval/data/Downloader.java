package dev.gamagent.eval.data;

import dev.gamagent.util.HttpUrl;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Downloads one URL into a partial file, resuming where an earlier attempt stopped ({@code Range}); a
 * server that ignores the range sends the whole file, which then replaces the partial one. The caller
 * checks and moves the finished file. An interrupted transfer keeps what arrived and says how to resume.
 * Bounded three ways: the file may not grow past a {@link Limit} (a body that goes on is cut off there and its
 * partial file deleted), the whole download — every redirect and resume of one call — ends within a deadline (the
 * partial file is kept for the next run), and redirects are followed by hand, each checked by {@link DownloadHosts}
 * before it is connected to.
 */
public final class Downloader {
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");
    /** Redirects followed at most, as the JDK's own client does. */
    private static final int MAX_REDIRECTS = 5;
    private final HttpClient client;
    private final Duration timeout;
    private final Duration deadline;
    private final DownloadHosts hosts;

    /**
     * @param timeout  for the connection and for the answer's headers
     * @param deadline for the whole of one {@link #fetch}, body included
     * @param hosts    where the download and its redirects may go
     */
    public Downloader(Duration timeout, Duration deadline, DownloadHosts hosts) {
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        this.timeout = timeout;
        this.deadline = deadline;
        this.hosts = hosts;
    }

    /** Reports a download's progress. */
    public interface Progress {
        /** The transfer starts at {@code from} bytes (a resume when above 0) of {@code total} (-1 when unknown). */
        void started(long from, long total);

        /** {@code done} bytes of {@code total} are in the partial file. */
        void advanced(long done, long total);

        Progress NONE = new Progress() {
            @Override public void started(long from, long total) { }

            @Override public void advanced(long done, long total) { }
        };
    }

    /** The most a download may hold, and where that number comes from (for the refusal). */
    public record Limit(long bytes, String source) { }

    /** A finished download: its size, and every URL it was sent to (the first, then each redirect). */
    public record Download(long bytes, List<URI> urls) {
        public Download {
            urls = List.copyOf(urls);
        }

        /** Where the bytes came from. */
        public URI last() { return urls.get(urls.size() - 1); }

        /** Whether any URL of it was on another host than {@code host}. */
        public boolean left(String host) {
            return urls.stream().anyMatch(u -> !HttpUrl.parse(u.toString()).host().equals(host));
        }
    }

    /**
     * Fetches {@code uri} into {@code part}, appending to what it holds, at most {@code limit} bytes in all. Throws a
     * {@link DataException} naming the URL when a host is refused, the server refuses, the file passes the limit (then
     * {@code part} is deleted), the deadline passes or the transfer breaks off (then {@code part} keeps what arrived, for
     * the next attempt to resume).
     */
    public Download fetch(URI uri, Path part, Limit limit, Progress progress) {
        long end = System.nanoTime() + deadline.toNanos();
        List<URI> urls = new ArrayList<>(List.of(uri));
        hosts.check(uri, uri, 0);
        long have = sizeOf(part);
        if (have > limit.bytes()) {
            truncate(part); // an older partial file past today's limit: start again
            have = 0;
        }
        URI current = uri;
        boolean restarted = false;
        while (true) {
            Exchange x = new Exchange(uri, part, have, limit, progress);
            exchange(x, current, end);
            switch (x.outcome) {
                case REDIRECT -> {
                    if (urls.size() > MAX_REDIRECTS) {
                        throw new DataException("download of " + uri + " refused: more than " + MAX_REDIRECTS + " redirects (" + urls + ")");
                    }
                    URI next;
                    try {
                        next = current.resolve(x.location.strip());
                    } catch (IllegalArgumentException e) {
                        throw new DataException("download of " + uri + " refused: the server redirected it to '" + x.location
                                + "', which is not a URL");
                    }
                    hosts.check(next, uri, urls.size());
                    urls.add(next);
                    current = next;
                }
                case START_AGAIN -> {
                    // the partial file is as long as the file or longer (it changed on the server), or the server sent a
                    // range we did not ask for: fetch the whole file instead, once
                    if (restarted) throw new DataException("download of " + uri + " failed: the server answers neither the range asked for nor the whole file");
                    restarted = true;
                    truncate(part);
                    have = 0;
                }
                case DONE -> {
                    if (x.total >= 0 && x.done < x.total) {
                        throw new DataException("download of " + uri + " ended after " + Bytes.format(x.done) + " of " + Bytes.format(x.total)
                                + "; the partial file " + part + " is kept: run the same command again to resume");
                    }
                    return new Download(x.done, urls);
                }
                default -> throw new IllegalStateException(x.outcome.toString());
            }
        }
    }

    /** How one request ended. */
    private enum Outcome { PENDING, REDIRECT, START_AGAIN, DONE }

    /** One request of a download and what its answer made of it; the answer's fields are set on the client's threads. */
    private static final class Exchange {
        final URI download;
        final Path part;
        final long have;
        final Limit limit;
        final Progress progress;
        volatile Outcome outcome = Outcome.PENDING;
        volatile String location;
        volatile int status;
        volatile long total = -1;
        volatile long done;
        volatile FileWriter writer;

        Exchange(URI download, Path part, long have, Limit limit, Progress progress) {
            this.download = download;
            this.part = part;
            this.have = have;
            this.limit = limit;
            this.progress = progress;
        }

        /** Decides from the status and headers what the body is for: nothing, or the partial file. */
        HttpResponse.BodySubscriber<Long> body(HttpResponse.ResponseInfo info) {
            int code = info.statusCode();
            status = code;
            if (code == 301 || code == 302 || code == 303 || code == 307 || code == 308) {
                location = info.headers().firstValue("location").orElse(null);
                if (location == null) {
                    throw new DataException("download of " + download + " failed: HTTP " + code + " redirect without a Location");
                }
                outcome = Outcome.REDIRECT;
                return HttpResponse.BodySubscribers.replacing(0L);
            }
            if (code == 416 && have > 0) {
                outcome = Outcome.START_AGAIN;
                return HttpResponse.BodySubscribers.replacing(0L);
            }
            if (code != 200 && code != 206) {
                throw new DataException("download of " + download + " failed: HTTP " + code + (code == 404 ? " (not found)" : "")
                        + "; nothing was written" + (have > 0 ? " (the partial file " + part + " is kept)" : ""));
            }
            boolean append = false;
            long size = info.headers().firstValueAsLong("content-length").orElse(-1);
            if (code == 206) {
                Matcher m = CONTENT_RANGE.matcher(info.headers().firstValue("content-range").orElse(""));
                if (!m.matches() || Long.parseLong(m.group(1)) != have) {
                    outcome = Outcome.START_AGAIN;
                    return HttpResponse.BodySubscribers.replacing(0L);
                }
                append = true;
                size = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
            }
            total = size;
            if (size > limit.bytes()) {
                deleteQuietly(part);
                throw new DataException("download of " + download + " refused: the server announces " + Bytes.format(size)
                        + ", more than the limit of " + Bytes.format(limit.bytes()) + " (" + limit.source() + "); nothing was kept");
            }
            outcome = Outcome.DONE;
            FileWriter w = new FileWriter(this, append);
            writer = w;
            return w;
        }
    }

    /** Sends one request of {@code x} for {@code url} and waits for its answer, body included, until {@code end}. */
    private void exchange(Exchange x, URI url, long end) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(min(timeout, end)).GET().header("User-Agent", "gam-agent");
        if (x.have > 0) b.header("Range", "bytes=" + x.have + "-");
        CompletableFuture<HttpResponse<Long>> f = client.sendAsync(b.build(), x::body);
        try {
            f.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            stop(x, f);
            throw pastDeadline(x);
        } catch (InterruptedException e) {
            stop(x, f);
            Thread.currentThread().interrupt();
            throw new DataException("download of " + x.download + " was interrupted", e);
        } catch (ExecutionException e) {
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) if (c instanceof DataException d) throw d;
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (x.writer == null) {
                if (c instanceof HttpTimeoutException && !(c instanceof HttpConnectTimeoutException) && System.nanoTime() >= end) throw pastDeadline(x);
                throw new DataException("cannot download " + url + ": " + why(c, url)
                        + " (no network? point --data-mirror at a copy, or put the file in the data directory yourself)", c);
            }
            throw new DataException(String.format(Locale.ROOT, "download of %s broke off after %s%s (%s); the partial file %s is kept: "
                    + "run the same command again to resume", x.download, Bytes.format(x.done), x.total > 0 ? " of " + Bytes.format(x.total) : "",
                    why(c, url), x.part), c);
        }
    }

    private static void stop(Exchange x, CompletableFuture<?> f) {
        FileWriter w = x.writer;
        if (w != null) w.abort();
        f.cancel(true);
    }

    private DataException pastDeadline(Exchange x) {
        long kept = sizeOf(x.part);
        return new DataException("download of " + x.download + " did not finish within " + seconds(deadline) + " (config data.download_deadline_s)"
                + (kept > 0 ? " after " + Bytes.format(kept) + (x.total > 0 ? " of " + Bytes.format(x.total) : "")
                + "; the partial file " + x.part + " is kept: run the same command again to resume" : "; nothing was written"));
    }

    /**
     * Writes an answer's body to the partial file as it arrives, stopping at the limit: past it the request is cancelled
     * (the connection closed) and the partial file deleted — it cannot be the file.
     */
    private static final class FileWriter implements HttpResponse.BodySubscriber<Long> {
        private final Exchange x;
        private final boolean append;
        private final CompletableFuture<Long> result = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private FileChannel out;
        private boolean over;

        FileWriter(Exchange x, boolean append) {
            this.x = x;
            this.append = append;
        }

        @Override public CompletionStage<Long> getBody() { return result; }

        @Override public synchronized void onSubscribe(Flow.Subscription s) {
            subscription = s;
            try {
                if (!append) Files.deleteIfExists(x.part);
                out = FileChannel.open(x.part, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                s.cancel();
                result.completeExceptionally(new DataException("cannot write the partial file " + x.part + ": " + e.getMessage(), e));
                return;
            }
            x.done = append ? x.have : 0;
            x.progress.started(x.done, x.total);
            s.request(1);
        }

        @Override public synchronized void onNext(List<ByteBuffer> buffers) {
            if (over) return;
            try {
                for (ByteBuffer b : buffers) {
                    long n = b.remaining();
                    if (x.done + n > x.limit.bytes()) {
                        over = true;
                        subscription.cancel();
                        close();
                        deleteQuietly(x.part);
                        result.completeExceptionally(new DataException("download of " + x.download + " stopped at "
                                + Bytes.format(x.limit.bytes()) + ": the file is larger than the limit of " + Bytes.format(x.limit.bytes())
                                + " (" + x.limit.source() + "); the partial file was deleted"));
                        return;
                    }
                    while (b.hasRemaining()) out.write(b);
                    x.done += n;
                }
                x.progress.advanced(x.done, x.total);
                subscription.request(1);
            } catch (IOException e) {
                over = true;
                subscription.cancel();
                close();
                result.completeExceptionally(new DataException("cannot write the partial file " + x.part + ": " + e.getMessage(), e));
            }
        }

        @Override public synchronized void onError(Throwable t) {
            close();
            result.completeExceptionally(t);
        }

        @Override public synchronized void onComplete() {
            close();
            result.complete(x.done);
        }

        /** Ends the transfer where it is (the deadline passed): what arrived stays in the partial file. */
        synchronized void abort() {
            over = true;
            if (subscription != null) subscription.cancel();
            close();
        }

        private void close() {
            try {
                if (out != null) out.close();
            } catch (IOException e) {
                // the partial file is checked before it is used; nothing more to keep
            }
        }
    }

    /** A transport failure in words (the JDK's ConnectException has no message). */
    private String why(Throwable t, URI url) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof HttpConnectTimeoutException) return "its host did not accept a connection in time";
            if (c instanceof HttpTimeoutException) return "no answer within " + seconds(timeout);
            if (c instanceof ConnectException) return "the connection was refused (nothing listens on " + url.getHost() + ":" + port(url) + ")";
            if (c instanceof UnknownHostException) return "the host name '" + url.getHost() + "' does not resolve";
        }
        return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
    }

    private static int port(URI url) { return url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80; }

    /** The request timeout: {@code timeout}, or less when the deadline comes first. */
    private static Duration min(Duration timeout, long end) {
        long left = Math.max(1, end - System.nanoTime());
        return Duration.ofNanos(Math.min(timeout.toNanos(), left));
    }

    private static String seconds(Duration d) { return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s"; }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left for the next run, which truncates a partial file past the limit
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static void truncate(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new DataException("cannot replace the partial file " + p + ": " + e.getMessage(), e);
        }
    }

    /** Byte counts for people. */
    public static final class Bytes {
        private Bytes() { }

        public static String format(long n) {
            if (n < 1024) return n + " B";
            if (n < 1024L * 1024) return String.format(Locale.ROOT, "%.1f KB", n / 1024.0);
            if (n < 1024L * 1024 * 1024) return String.format(Locale.ROOT, "%.1f MB", n / (1024.0 * 1024));
            return String.format(Locale.ROOT, "%.2f GB", n / (1024.0 * 1024 * 1024));
        }
    }

    /** Progress as lines on a stream: one at the start, then about every 10 % (or 64 MB when the size is unknown), and the end. */
    public static Progress lines(PrintStream out, String what) {
        return new Progress() {
            long nextReport;
            long step;

            @Override public void started(long from, long total) {
                step = total > 0 ? Math.max(1, total / 10) : 64L << 20;
                nextReport = from + step;
                out.println((from > 0 ? "resuming " + what + " at " + Bytes.format(from) : "downloading " + what)
                        + (total > 0 ? " (" + Bytes.format(total) + ")" : ""));
            }

            @Override public void advanced(long done, long total) {
                if (done < nextReport && done != total) return;
                nextReport = done + step;
                out.println("  " + what + ": " + Bytes.format(done) + (total > 0
                        ? String.format(Locale.ROOT, " of %s (%d%%)", Bytes.format(total), Math.round(100.0 * done / total)) : ""));
            }
        };
    }
}
